// The fast path of the exact attention gradients (attention_backward_internal.h): double
// arithmetic in flash attention's backward order, every output with one certified relative bound.
// Phase 1, per row r (rows split among threads): the scores, the row's maximum m_r and
// denominator d_r (the sink's term in both where the row has one), the weights P_rj, dP_rj,
// delta_r, the sink's term dsink_r, then dq_r. Phase 2, per key j: P_rj
// recomputed from the stored m_r and 1 / d_r by the same code (the same bits), dS_rj from the
// stored delta_r, then dk_j and dv_j. Each output is one thread's, summed in a fixed order: the
// result does not depend on the number of threads.
//
// Error analysis. u = 2^-53, gamma_k = k u / (1 - k u). D = head_dim, V = v_dim, n_r the keys row
// r keeps (N the largest), R the rows the most attended key has; B = kBlock. Every bound is
// computed in double and widened by factors 1.01-1.02 that cover products of (1 + eps) factors,
// valid since every eps below is at most 2^-30 when the reported error is at most 2^-40 (checked).
// A product of two floats is exact in double (48 bits, |p| in [2^-298, 2^256] or 0); a rounding
// of a product of doubles errs by u |result| + 2^-1075 (subnormals), a sum by u |result|.
//  1. Scores, shift, weights (attention_fast.cpp steps 1-3, attention_terms_dd.h): s^_rj with
//     |s^ - s| <= delta_j, ALiBi included; m_r = max s^_rj.h, or the row's sink z_r when larger;
//     t_j = s^_j - m_r (TwoSum, one rounding), |t_j - (s_j - m_r)| <= eta_j (checked <= 2^-10).
//     The sink is one more term whose score is z_r exactly (delta 0). Then
//       t_j.h >= -600:        e_j = weight(t_j) (double-double), relative 1.01 (1.01 eta + 2^-95)
//       t_j.h in [-745,-600): e_j = fl(weight(t_j + 256).h e^-256) in double (the shift by
//                             TwoSum and one rounding, 2^-96 on the argument; e^-256 rounded to
//                             double, 1.01 u; the product u): relative 1.01 (1.01 eta + 2^-94 +
//                             3.1 u), plus 2^-1075 absolute (the product may be subnormal)
//       t_j.h < -745:         left out (e_j = 0): e^(s_j - m_r) < e^-744.99 < 2^-1074.7.
//     eps_e = the largest relative bound.
//  2. d_r = sum e_j by Acc (main e.h, rest e.l: rho = u) over the n kept keys and the sink (n' =
//     n + 1 terms with one, n without): d^ >= 0.99 checked, so d >= 0.98 and
//       |d^ - d| <= (1.02 (acc(n', u) + eps_e) + n' 2^-1073) d =: eps_d d
//     (the absolute parts of step 1 and the terms left out, relative to d >= 0.98).
//  3. P^_j = fl(e_j.h inv_r), inv_r = fl(1 / d^.h): e.h and d^.h are within 1.01 u of e and d^
//     (normalized double-doubles), two roundings more:
//       |P^ - P| <= eps_P P + a_P,  eps_P = 1.01 (eps_e + eps_d + 4.1 u),  a_P = 2^-1073
//     (a_P: step 1's 2^-1075 times inv_r <= 1.03 and the product's own; a key left out has
//     P^ = 0 and P < 2^-1074.7 / 0.98 < a_P). P <= 1. The sink's weight P_sink = e^(z - m) / d
//     likewise (P^_sink = fl(e_sink.h inv_r), the same bound).
//  4. dP^ = fl(sum_c dout_rc v_jc) and A^ = fl(sum_c |dout_rc v_jc|) (exact products, any
//     summation tree of height <= V): |dP^ - dP| <= gamma_V A, |A^ - A| <= gamma_V A, where
//     A = |dP|_rj <= W := 1.01 V max|dout| max|v| (over the kept rows and keys).
//  5. delta_r by Acc over T^_j = fl(P^ dP^) (rest 0), delta_mag_r over fl(P^ A^): each term
//       |T^ - P dP| <= ((1 + eps_P) gamma_V + eps_P + 1.01 u) P A + 1.01 a_P A + 2^-1075
//                   =: eps_t P A + a_t,  eps_t = 1.01 (gamma_V + eps_P + u), a_t = 1.01 a_P W
//                      + 2^-1075  (a key left out: T^ = 0, |P dP| <= a_P W)
//     the sum acc(n, 0) sum |T^|, the double delta^ = fl(H + L) u |delta^|:
//       |delta^ - delta|, |dmag^ - dmag| <= eps_D dmag + a_D,  eps_D = 1.02 (eps_t + acc(N, 0)
//                                            + u),  a_D = 1.01 N a_t
//  5b. The sink's term dsink^ = -fl(P^_sink delta^) and its magnitude fl(P^_sink dmag^) (the
//     negation exact): |P^_s| |delta^ - delta| + |P^_s - P_s| |delta| and the rounding u |P^_s
//     delta^| + 2^-1075, with |P^_s| <= 1.01 P_s + a_P, P_s <= 1, |delta|, dmag <= W:
//       |dsink^ - dsink|, |smag^ - smag| <= eps_z smag + a_z,  eps_z = 1.01 (eps_D + eps_P + u),
//                                           a_z = 1.02 a_D + 1.02 a_P W + 2^-1075
//     (smag = P_sink dmag, the header's dsink magnitude).
//  6. g^ = fl(dP^ - delta^), h^ = fl(A^ + dmag^): with G = A + dmag (<= 2.02 W),
//       |g^ - (dP - delta)|, |h^ - G| <= eps_g G + a_g,  eps_g = 1.01 (gamma_V + eps_D + u),
//                                        a_g = 1.01 a_D
//     dS^ = fl(P^ g^), S^ = fl(P^ h^): |P^ g^ - P (dP - delta)| <= |P^| |g^ - (dP - delta)| +
//     |P^ - P| |dP - delta|, and the rounding u |P^ g^| + 2^-1075:
//       |dS^ - dS|, |S^ - S| <= eps_S S + a_S,  eps_S = 1.01 (eps_g + eps_P + 1.01 u),
//                               a_S = 1.02 a_g + 2.07 a_P W + 2^-1075
//  7. dq_rc = scale sum_j dS_rj k_jc: terms fl(dS^ k_jc), fl(S^ |k_jc|), each within
//     (eps_S + 1.01 u) S |k| + 1.01 |k| a_S + 2^-1075; summed in blocks of B keys in double
//     (gamma_B of the block's sum |term|), each block's sum added to an Acc (acc(ceil(N / B), 0)),
//     the Acc rounded to double (u) and multiplied by scale (u + 2^-1075):
//       |dq^ - dq|, |dq_mag^ - dq_mag| <= eps_q dq_mag + a_q,  eps_q = 1.02 (eps_S + gamma_B +
//           acc(ceil(N / B), 0) + 3.1 u),  a_q = 1.02 |scale| N (1.01 Kmax a_S + 2^-1075) + 2^-1075
//     dk the same with R rows and Qmax; dv_jc = sum_r P_rj dout_rc, terms fl(P^ dout) within
//     (eps_P + 1.01 u) P |dout| + 1.01 |dout| a_P + 2^-1075:
//       eps_v = 1.02 (eps_P + gamma_B + acc(ceil(R / B), 0) + 3.1 u),
//       a_v = 1.02 R (1.01 Dmax a_P + 2^-1075) + 2^-1075
//  8. Every value and its magnitude are then within eps mag + a of the exact ones, eps the
//     largest of eps_D, eps_q, eps_k, eps_v (and eps_z with sinks) and a the largest absolute
//     term. With a <= 2^-1001
//     (checked, else MPFR decides) and mag <= (mag^ + a) / (1 - eps), the bound holds against the
//     reported magnitudes too: error = 1.01 eps, within error mag + 2^-1000.
// With bf16 data of the benchmark's shape (V = 128, N = 2048) eps_P ~ 2^-51, gamma_V ~ 2^-46 and
// error ~ 2^-44.5.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "attention_backward_internal.h"
#include "attention_terms_dd.h"
#include "double_double.h"
#include "osvs/kernels/parallel_for.h"

namespace osvs::oracle::detail {
namespace {

constexpr double kU = kDdU;
constexpr double kOmitGap = 745;      // keys further below the maximum are left out (step 1)
constexpr double kAbsP = 0x1p-1073;   // a_P (step 3)
constexpr double kRound = 0x1p-1074;  // >= a product's absolute rounding (2^-1075, subnormals)
constexpr int kBlock = 32;            // B (step 7)
constexpr std::int64_t kGrain = 16;   // rows or keys a thread takes at a time

/// e_j of step 1 and its relative bound; false when the bound or exp_dd refuses.
bool pair_weight(const Score& x, double m, double e_minus_256, DoubleDouble* e, double* eps) {
  const DoubleDouble shift = two_sum(x.s.h, -m);
  const DoubleDouble t = two_sum(shift.h, shift.l + x.s.l);
  const double eta = x.delta + 1.01 * kU * kU * (std::fabs(shift.h) + std::fabs(x.s.h));
  if (!(eta <= 0x1p-10)) return false;
  if (t.h < -kOmitGap) {
    *e = {};
    *eps = 0;
    return true;
  }
  if (t.h >= -kFarGap) {
    *eps = 1.01 * (1.01 * eta + 0x1p-95);
    return weight(t, e);
  }
  const DoubleDouble a = two_sum(t.h, 256.0);
  DoubleDouble w;
  if (!weight(two_sum(a.h, a.l + t.l), &w)) return false;
  *e = {w.h * e_minus_256, 0};
  *eps = 1.01 * (1.01 * eta + 0x1p-94 + 3.1 * kU);
  return true;
}

/// dP^ and A^ of step 4 (four lanes: a tree of height <= n).
struct Dots {
  double dp, a;
};

Dots dots(const float* x, const float* y, int n) {
  constexpr int kLanes = 4;
  double s[kLanes] = {}, t[kLanes] = {};
  int c = 0;
  for (; c + kLanes <= n; c += kLanes)
    for (int l = 0; l < kLanes; ++l) {
      const double p = static_cast<double>(x[c + l]) * static_cast<double>(y[c + l]);  // exact
      s[l] += p;
      t[l] += std::fabs(p);
    }
  for (; c < n; ++c) {
    const double p = static_cast<double>(x[c]) * static_cast<double>(y[c]);
    s[0] += p;
    t[0] += std::fabs(p);
  }
  return {(s[0] + s[1]) + (s[2] + s[3]), (t[0] + t[1]) + (t[2] + t[3])};
}

/// Per output component: sum_i a_i x_ic and sum_i m_i |x_ic| in blocks of kBlock terms, each
/// block's sum added to an Acc (step 7).
class BlockedSums {
 public:
  void reset(int dim) {
    value_.assign(static_cast<std::size_t>(dim), 0.0);
    magnitude_.assign(value_.size(), 0.0);
    value_total_.assign(value_.size(), Acc{});
    magnitude_total_.assign(value_.size(), Acc{});
    count_ = 0;
  }
  void add(double a, double m, const float* x) {
    double* v = value_.data();
    double* g = magnitude_.data();
    const std::size_t n = value_.size();
    for (std::size_t c = 0; c < n; ++c) {
      v[c] += a * static_cast<double>(x[c]);
      g[c] += m * std::fabs(static_cast<double>(x[c]));
    }
    if (++count_ == kBlock) flush();
  }
  /// fl(total factor) and fl(magnitude |factor|) into value and magnitude.
  void write(double factor, double* value, double* magnitude) {
    flush();
    for (std::size_t c = 0; c < value_.size(); ++c) {
      value[c] = value_total_[c].value().h * factor;
      magnitude[c] = magnitude_total_[c].value().h * std::fabs(factor);
    }
  }

 private:
  void flush() {
    for (std::size_t c = 0; c < value_.size(); ++c) {
      value_total_[c].add(value_[c], 0);
      magnitude_total_[c].add(magnitude_[c], 0);
      value_[c] = magnitude_[c] = 0;
    }
    count_ = 0;
  }
  std::vector<double> value_, magnitude_;
  std::vector<Acc> value_total_, magnitude_total_;
  int count_ = 0;
};

/// What phase 2 needs of a row (phase 1's).
struct RowState {
  double m = 0, inv = 0, delta = 0, delta_magnitude = 0;
  double eps_p = 0;  // step 3's eps_P of the row
};

struct Phase1Scratch {
  std::vector<std::int64_t> keys;
  std::vector<Score> scores;
  std::vector<DoubleDouble> e;
  std::vector<double> p, dp, a;
  BlockedSums dq;
};

/// The group's data and what both phases share.
class BackwardFast {
 public:
  BackwardFast(const AttentionBackwardGroup& g, AttentionBackwardReference& r)
      : g_(g), r_(r), rows_(static_cast<std::size_t>(g.rows)), e_minus_256_(exp_minus_128(2).h) {}

  bool run(int workers) {
    phase<Phase1Scratch>(g_.rows, workers,
                         [this](std::vector<Phase1Scratch>& s, int w, std::int64_t i) {
                           row(s[static_cast<std::size_t>(w)], i);
                         });
    if (failed_) return false;
    for (const RowState& s : rows_) eps_p_ = std::max(eps_p_, s.eps_p);
    phase<Phase2Scratch>(g_.kv_len, workers,
                         [this](std::vector<Phase2Scratch>& s, int w, std::int64_t j) {
                           key(s[static_cast<std::size_t>(w)], j);
                         });
    return !failed_ && bound();
  }

 private:
  struct Phase2Scratch {
    BlockedSums dk, dv;
  };

  template <class Scratch, class Body>
  void phase(std::int64_t count, int workers, Body body) {
    std::vector<Scratch> scratch(static_cast<std::size_t>(std::max(workers, 1)));
    parallel_for(count, workers, kGrain, [&](int w, std::int64_t begin, std::int64_t end) {
      for (std::int64_t i = begin; i < end && !failed_; ++i) body(scratch, w, i);
    });
  }

  Score score(std::int64_t i, std::int64_t j) const {
    Score x = score_of(g_.q + i * g_.head_dim, g_.k + j * g_.head_dim, g_.head_dim, g_.scale);
    if (g_.alibi_slope != nullptr && g_.alibi_slope[i] != 0)
      add_alibi_bias(x, g_.alibi_slope[i], std::llabs(g_.alibi_position[i] - j));
    return x;
  }

  /// dS^ and S^ of step 6.
  static void gradient_terms(double p, Dots d, const RowState& s, double* ds, double* big_s) {
    *ds = p * (d.dp - s.delta);
    *big_s = p * (d.a + s.delta_magnitude);
  }

  void row(Phase1Scratch& w, std::int64_t i) {
    w.keys.clear();
    for (std::int64_t j = 0; j < g_.kv_len; ++j)
      if (keeps(g_, i, j)) w.keys.push_back(j);
    const std::size_t n = w.keys.size();
    if (n == 0) return;  // dq = delta = dsink = 0 (the outline's)
    RowState& s = rows_[static_cast<std::size_t>(i)];
    w.scores.resize(n);
    s.m = -INFINITY;
    for (std::size_t x = 0; x < n; ++x) {
      w.scores[x] = score(i, w.keys[x]);
      if (!std::isfinite(w.scores[x].s.h) || !std::isfinite(w.scores[x].s.l)) return fail();
      s.m = std::max(s.m, w.scores[x].s.h);
    }
    const bool has_sink = g_.sink != nullptr;
    const Score sink{{has_sink ? static_cast<double>(g_.sink[i]) : 0.0, 0}, 0};  // exact
    if (has_sink) s.m = std::max(s.m, sink.s.h);
    w.e.resize(n);
    double eps_e = 0;
    Acc d;
    for (std::size_t x = 0; x < n; ++x) {
      double eps;
      if (!pair_weight(w.scores[x], s.m, e_minus_256_, &w.e[x], &eps)) return fail();
      eps_e = std::max(eps_e, eps);
      d.add(w.e[x].h, w.e[x].l);
    }
    DoubleDouble sink_e;
    if (has_sink) {
      double eps;
      if (!pair_weight(sink, s.m, e_minus_256_, &sink_e, &eps)) return fail();
      eps_e = std::max(eps_e, eps);
      d.add(sink_e.h, sink_e.l);
    }
    const double dn = static_cast<double>(n) + (has_sink ? 1 : 0);  // n' (step 2)
    const DoubleDouble d_value = d.value();
    if (!(d_value.h >= 0.99)) return fail();
    s.inv = 1 / d_value.h;
    const double eps_d = 1.02 * (acc_bound(dn, kU) + eps_e) + dn * 0x1p-1073;
    s.eps_p = 1.01 * (eps_e + eps_d + 4.1 * kU);
    // Steps 4-5.
    w.p.resize(n);
    w.dp.resize(n);
    w.a.resize(n);
    Acc delta, delta_magnitude;
    const float* dout = g_.dout + i * g_.v_dim;
    for (std::size_t x = 0; x < n; ++x) {
      w.p[x] = w.e[x].h * s.inv;
      const Dots dd = dots(dout, g_.v + w.keys[x] * g_.v_dim, g_.v_dim);
      w.dp[x] = dd.dp;
      w.a[x] = dd.a;
      delta.add(w.p[x] * dd.dp, 0);
      delta_magnitude.add(w.p[x] * dd.a, 0);
    }
    s.delta = delta.value().h;
    s.delta_magnitude = delta_magnitude.value().h;
    r_.delta[static_cast<std::size_t>(i)] = s.delta;
    r_.delta_magnitude[static_cast<std::size_t>(i)] = s.delta_magnitude;
    if (has_sink) {  // step 5b
      const double p_sink = sink_e.h * s.inv;
      r_.dsink[static_cast<std::size_t>(i)] = -(p_sink * s.delta);
      r_.dsink_magnitude[static_cast<std::size_t>(i)] = p_sink * s.delta_magnitude;
    }
    // Steps 6-7: dq.
    w.dq.reset(g_.head_dim);
    for (std::size_t x = 0; x < n; ++x) {
      double ds, big_s;
      gradient_terms(w.p[x], {w.dp[x], w.a[x]}, s, &ds, &big_s);
      w.dq.add(ds, big_s, g_.k + w.keys[x] * g_.head_dim);
    }
    const auto at = static_cast<std::size_t>(i * g_.head_dim);
    w.dq.write(g_.scale, r_.dq.data() + at, r_.dq_magnitude.data() + at);
  }

  void key(Phase2Scratch& w, std::int64_t j) {
    if (r_.attended[static_cast<std::size_t>(j)] == 0) return;  // dk = dv = 0 (the outline's)
    w.dk.reset(g_.head_dim);
    w.dv.reset(g_.v_dim);
    const float* v = g_.v + j * g_.v_dim;
    for (std::int64_t i = 0; i < g_.rows; ++i) {
      if (!keeps(g_, i, j)) continue;
      const RowState& s = rows_[static_cast<std::size_t>(i)];
      DoubleDouble e;
      double eps;
      if (!pair_weight(score(i, j), s.m, e_minus_256_, &e, &eps)) return fail();
      if (e.h == 0) continue;  // P^ = 0: no term (a key left out, step 1)
      const double p = e.h * s.inv;
      const float* dout = g_.dout + i * g_.v_dim;
      double ds, big_s;
      gradient_terms(p, dots(dout, v, g_.v_dim), s, &ds, &big_s);
      w.dk.add(ds, big_s, g_.q + i * g_.head_dim);
      w.dv.add(p, p, dout);
    }
    const auto at_k = static_cast<std::size_t>(j * g_.head_dim);
    const auto at_v = static_cast<std::size_t>(j * g_.v_dim);
    w.dk.write(g_.scale, r_.dk.data() + at_k, r_.dk_magnitude.data() + at_k);
    w.dv.write(1, r_.dv.data() + at_v, r_.dv_magnitude.data() + at_v);
  }

  void fail() { failed_ = true; }

  /// The largest |x| over the kept rows' (or the attended keys') vectors of dim components.
  static double largest(const float* x, int dim, const std::vector<std::int64_t>& counts) {
    double m = 0;
    for (std::size_t i = 0; i < counts.size(); ++i)
      if (counts[i] != 0)
        for (int c = 0; c < dim; ++c)
          m = std::max(m, std::fabs(static_cast<double>(x[i * static_cast<std::size_t>(dim) + c])));
    return m;
  }

  /// Step 8: r_.error, or false when the bound is too wide.
  bool bound() {
    const double n = static_cast<double>(*std::max_element(r_.kept.begin(), r_.kept.end()));
    const double rows =
        static_cast<double>(*std::max_element(r_.attended.begin(), r_.attended.end()));
    const double q_max = largest(g_.q, g_.head_dim, r_.kept);
    const double dout_max = largest(g_.dout, g_.v_dim, r_.kept);
    const double k_max = largest(g_.k, g_.head_dim, r_.attended);
    const double v_max = largest(g_.v, g_.v_dim, r_.attended);
    const double gamma_v = gamma_of(g_.v_dim), gamma_b = gamma_of(kBlock);
    const double w = 1.01 * g_.v_dim * dout_max * v_max;
    const double scale = std::fabs(static_cast<double>(g_.scale));
    // Steps 5-7.
    const double eps_t = 1.01 * (gamma_v + eps_p_ + kU);
    const double a_t = 1.01 * kAbsP * w + kRound;
    const double eps_delta = 1.02 * (eps_t + acc_bound(n, 0) + kU);
    const double a_delta = 1.01 * n * a_t;
    const double eps_g = 1.01 * (gamma_v + eps_delta + kU);
    const double eps_s = 1.01 * (eps_g + eps_p_ + 1.01 * kU);
    const double a_s = 1.02 * 1.01 * a_delta + 2.07 * kAbsP * w + kRound;
    const auto blocks = [](double count) { return std::ceil(count / kBlock); };
    const double eps_q = 1.02 * (eps_s + gamma_b + acc_bound(blocks(n), 0) + 3.1 * kU);
    const double eps_k = 1.02 * (eps_s + gamma_b + acc_bound(blocks(rows), 0) + 3.1 * kU);
    const double eps_v = 1.02 * (eps_p_ + gamma_b + acc_bound(blocks(rows), 0) + 3.1 * kU);
    const double a_q = 1.02 * scale * n * (1.01 * k_max * a_s + kRound) + kRound;
    const double a_k = 1.02 * scale * rows * (1.01 * q_max * a_s + kRound) + kRound;
    const double a_v = 1.02 * rows * (1.01 * dout_max * kAbsP + kRound) + kRound;
    // Step 5b (the sink's terms; without sinks they are 0 exactly).
    const bool sinks = g_.sink != nullptr;
    const double eps_z = sinks ? 1.01 * (eps_delta + eps_p_ + kU) : 0.0;
    const double a_z = sinks ? 1.02 * a_delta + 1.02 * kAbsP * w + kRound : 0.0;
    const double a = std::max({a_delta, a_q, a_k, a_v, a_z});
    r_.error = 1.01 * std::max({eps_delta, eps_q, eps_k, eps_v, eps_z});
    return a <= 0x1p-1001 && r_.error <= kBackwardFastError;
  }

  const AttentionBackwardGroup& g_;
  AttentionBackwardReference& r_;
  std::vector<RowState> rows_;
  const double e_minus_256_;
  double eps_p_ = 0;
  std::atomic<bool> failed_{false};
};

}  // namespace

bool attention_backward_fast(const AttentionBackwardGroup& g, int workers,
                             AttentionBackwardReference& r) {
  if (g.softcap > 0) return false;  // no certified tanh in double
  if (g.rows == 0 || g.kv_len == 0) return true;
  return BackwardFast(g, r).run(workers);
}

}  // namespace osvs::oracle::detail
