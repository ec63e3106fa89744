// The exact attention gradients by MPFR interval arithmetic (attention_backward_reference.h):
// every value and every magnitude is enclosed in an interval (mp_interval.h), rigorous by
// construction, at precisions p = 128, 256, ... (Ziv) until each is narrow enough.
//
// Exact inputs: the scores s_rj = scale (q_r . k_j), dP_rj = dout_r . v_j and |dP|_rj are exact at
// 1200 bits (attention_exact_terms.h), the ALiBi bias too; without a softcap w_rj = s_rj + b_rj is
// exact as well. With a softcap c, w_rj = c tanh(s_rj / c) + b_rj and t_rj = 1 - tanh^2(s_rj / c)
// are intervals (tanh increasing). At precision p, per row: m = the largest upper end of the w_rj,
// or the row's sink z when larger (any shift gives the same softmax; this one keeps every
// e^(w - m) <= 1), E_j = e^(w_j - m), E_sink = e^(z - m), D = sum E_j (+ E_sink) (positive, else
// the next precision), P_j = E_j / D, P_sink = E_sink / D, then delta, dS, S, the sink's term
// -P_sink delta (magnitude P_sink delta_mag) and the sums exactly as the header defines them, every
// operation on intervals (z is a float: exact at every precision).
//
// An output is decided when both its value's and its magnitude's intervals lie within 2^-1002 of
// 0, or when both radii are at most 2^-53 times the magnitude's lower end. The value reported is
// its interval's middle rounded to double: within radius + u (magnitude + radius) + 2^-1075 of the
// exact value, and the reported magnitude within the same of the exact magnitude, so
//   error = 1.01 (the largest radius / magnitude ratio + u) <= 2^-51.9
// (1.01 covering the ratio taken against the reported magnitude); an output decided near 0 is
// within 2^-1001 + 2^-1075 < 2^-1000 of its exact value.
//
// Why the loop ends: the radius of every interval shrinks like 2^-p times the magnitudes it is
// built from (each operation's rounding and each operand's radius scale with the absolute values
// that the magnitudes sum), and from p = 1200 on the inputs are exact points; the last rung,
// 8192 bits, throws if it is ever met undecided.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "attention_backward_internal.h"
#include "attention_exact_terms.h"
#include "mp_interval.h"
#include "widest_exponents.h"

namespace osvs::oracle {
namespace {

using detail::exact_dot;
using detail::MpInterval;
using detail::MpValue;

constexpr mpfr_prec_t kZivBits[] = {128, 256, 512, 1024, 2048, 4096, 8192};
constexpr double kNearZero = 0x1p-1002;
constexpr double kDecided = 0x1p-53;

/// A vector of intervals of one precision, all [0, 0].
std::vector<MpInterval> zeros(std::size_t n, mpfr_prec_t p) {
  std::vector<MpInterval> v;
  v.reserve(n);
  for (std::size_t i = 0; i < n; ++i) v.emplace_back(p);
  return v;
}

/// The values and magnitudes of one kind of output, and whether each is decided.
struct Outputs {
  std::vector<MpInterval> value, magnitude;
  Outputs(std::size_t n, mpfr_prec_t p) : value(zeros(n, p)), magnitude(zeros(n, p)) {}

  /// Writes the middles; false when one is undecided. ratio: the largest radius / magnitude.
  bool write(std::vector<double>& out, std::vector<double>& out_magnitude, double* ratio) const {
    for (std::size_t i = 0; i < value.size(); ++i) {
      out[i] = value[i].middle();
      out_magnitude[i] = magnitude[i].middle();
      if (value[i].within(kNearZero) && magnitude[i].within(kNearZero)) continue;
      // (a magnitude's lower end at 0 — or at -0, which would make the ratio -inf — is not a
      // scale to decide in: the next precision)
      const double lower = magnitude[i].lower();
      if (!(lower > 0)) return false;
      const double r = std::max(value[i].radius(), magnitude[i].radius()) / lower;
      if (!(r <= kDecided)) return false;
      *ratio = std::max(*ratio, r);
    }
    return true;
  }
};

/// One rung of the Ziv loop.
class Rung {
 public:
  Rung(const AttentionBackwardGroup& g, mpfr_prec_t p)
      : g_(g),
        p_(p),
        dq_(static_cast<std::size_t>(g.rows * g.head_dim), p),
        dk_(static_cast<std::size_t>(g.kv_len * g.head_dim), p),
        dv_(static_cast<std::size_t>(g.kv_len * g.v_dim), p),
        delta_(static_cast<std::size_t>(g.rows), p),
        dsink_(static_cast<std::size_t>(g.rows), p) {}

  /// False when a denominator's enclosure is not positive (too wide at this precision).
  bool run() {
    for (std::int64_t i = 0; i < g_.rows; ++i)
      if (!row(i)) return false;
    const double scale = g_.scale;
    for (std::size_t x = 0; x < dk_.value.size(); ++x) {
      dk_.value[x].mul(dk_.value[x], scale);
      dk_.magnitude[x].mul(dk_.magnitude[x], std::fabs(scale));
    }
    return true;
  }

  /// The decided outputs into r, with r.error; false when one is undecided.
  bool write(AttentionBackwardReference& r) const {
    double ratio = 0;
    if (!dq_.write(r.dq, r.dq_magnitude, &ratio) || !dk_.write(r.dk, r.dk_magnitude, &ratio) ||
        !dv_.write(r.dv, r.dv_magnitude, &ratio) ||
        !delta_.write(r.delta, r.delta_magnitude, &ratio) ||
        !dsink_.write(r.dsink, r.dsink_magnitude, &ratio))
      return false;
    r.error = 1.01 * (ratio + 0x1p-53);
    return true;
  }

 private:
  /// w_rj (and t_rj with a softcap) of the kept key j.
  void weighed_score(std::int64_t i, std::int64_t j, MpInterval& w, MpInterval& t) const {
    MpValue s = exact_dot(g_.q + i * g_.head_dim, g_.k + j * g_.head_dim, g_.head_dim, g_.scale);
    const bool alibi = g_.alibi_slope != nullptr;
    const std::int64_t distance = alibi ? std::llabs(g_.alibi_position[i] - j) : 0;
    t.set(1.0);
    if (g_.softcap <= 0) {
      if (alibi)
        detail::require_exact(detail::subtract_alibi_bias(s.get(), g_.alibi_slope[i], distance),
                              "score + ALiBi bias");
      w.set(s.get());
      return;
    }
    MpInterval th(p_);
    th.set(s.get());
    th.div(th, g_.softcap);
    th.tanh(th);
    w.mul(th, g_.softcap);
    th.square(th);
    t.sub(t, th);
    if (alibi) {
      MpValue b(p_ + 128);
      mpfr_set_zero(b.get(), 1);
      detail::require_exact(detail::subtract_alibi_bias(b.get(), g_.alibi_slope[i], distance),
                            "ALiBi bias");
      MpInterval bias(p_);
      bias.set(b.get());
      w.add(w, bias);
    }
  }

  bool row(std::int64_t i) {
    std::vector<std::int64_t> keys;
    for (std::int64_t j = 0; j < g_.kv_len; ++j)
      if (detail::keeps(g_, i, j)) keys.push_back(j);
    if (keys.empty()) return true;  // dq = 0, delta = 0, dsink = 0
    const std::size_t n = keys.size();
    std::vector<MpInterval> w = zeros(n, p_), t = zeros(n, p_), e = zeros(n, p_);
    MpValue m(p_);
    for (std::size_t x = 0; x < n; ++x) {
      weighed_score(i, keys[x], w[x], t[x]);
      if (x == 0 || mpfr_greater_p(w[x].hi(), m.get())) mpfr_set(m.get(), w[x].hi(), MPFR_RNDN);
    }
    const bool has_sink = g_.sink != nullptr;
    if (has_sink && mpfr_cmp_d(m.get(), g_.sink[i]) < 0)
      mpfr_set_flt(m.get(), g_.sink[i], MPFR_RNDN);  // (exact)
    MpInterval shift(p_), d(p_), tmp(p_), sink(p_);
    shift.set(m.get());  // (exact: m has p bits)
    for (std::size_t x = 0; x < n; ++x) {
      e[x].sub(w[x], shift);
      e[x].exp(e[x]);
      d.add(d, e[x]);
    }
    if (has_sink) {
      sink.set(static_cast<double>(g_.sink[i]));
      sink.sub(sink, shift);
      sink.exp(sink);
      d.add(d, sink);
    }
    if (!d.positive()) return false;
    // P (in e), dP, |dP|, delta and its magnitude.
    std::vector<MpInterval> dp = zeros(n, p_), a = zeros(n, p_);
    MpInterval& delta = delta_.value[static_cast<std::size_t>(i)];
    MpInterval& delta_mag = delta_.magnitude[static_cast<std::size_t>(i)];
    const float* dout = g_.dout + i * g_.v_dim;
    for (std::size_t x = 0; x < n; ++x) {
      e[x].div(e[x], d);
      const float* v = g_.v + keys[x] * g_.v_dim;
      dp[x].set(exact_dot(dout, v, g_.v_dim, 1).get());
      a[x].set(exact_dot(dout, v, g_.v_dim, 1, true).get());
      tmp.mul(e[x], dp[x]);
      delta.add(delta, tmp);
      tmp.mul(e[x], a[x]);
      delta_mag.add(delta_mag, tmp);
    }
    if (has_sink) {  // -P_sink delta and P_sink delta_mag
      sink.div(sink, d);
      MpInterval& dsink = dsink_.value[static_cast<std::size_t>(i)];
      tmp.mul(sink, delta);
      dsink.sub(dsink, tmp);  // (from [0, 0])
      dsink_.magnitude[static_cast<std::size_t>(i)].mul(sink, delta_mag);
    }
    // dS (in dp), S (in a), and the sums.
    const float* q = g_.q + i * g_.head_dim;
    for (std::size_t x = 0; x < n; ++x) {
      dp[x].sub(dp[x], delta);
      dp[x].mul(dp[x], e[x]);
      dp[x].mul(dp[x], t[x]);
      a[x].add(a[x], delta_mag);
      a[x].mul(a[x], e[x]);
      a[x].mul(a[x], t[x]);
      const auto j = static_cast<std::size_t>(keys[x]);
      const float* k = g_.k + keys[x] * g_.head_dim;
      for (int c = 0; c < g_.head_dim; ++c) {
        const auto at_q = static_cast<std::size_t>(i * g_.head_dim + c);
        const std::size_t at_k = j * static_cast<std::size_t>(g_.head_dim) + c;
        accumulate(dq_, at_q, dp[x], a[x], k[c], tmp);
        accumulate(dk_, at_k, dp[x], a[x], q[c], tmp);
      }
      for (int c = 0; c < g_.v_dim; ++c)
        accumulate(dv_, j * static_cast<std::size_t>(g_.v_dim) + c, e[x], e[x], dout[c], tmp);
    }
    for (int c = 0; c < g_.head_dim; ++c) {
      const auto at = static_cast<std::size_t>(i * g_.head_dim + c);
      dq_.value[at].mul(dq_.value[at], g_.scale);
      dq_.magnitude[at].mul(dq_.magnitude[at], std::fabs(double{g_.scale}));
    }
    return true;
  }

  /// out.value[at] += value x, out.magnitude[at] += magnitude |x|.
  static void accumulate(Outputs& out, std::size_t at, const MpInterval& value,
                         const MpInterval& magnitude, float x, MpInterval& tmp) {
    tmp.mul(value, x);
    out.value[at].add(out.value[at], tmp);
    tmp.mul(magnitude, std::fabs(double{x}));
    out.magnitude[at].add(out.magnitude[at], tmp);
  }

  const AttentionBackwardGroup& g_;
  const mpfr_prec_t p_;
  Outputs dq_, dk_, dv_, delta_, dsink_;
};

}  // namespace

AttentionBackwardReference attention_backward_reference_mpfr(const AttentionBackwardGroup& g) {
  AttentionBackwardReference r = detail::backward_outline(g);
  if (!r.finite) return r;
  const detail::WidestExponents widest;
  for (const mpfr_prec_t p : kZivBits) {
    Rung rung(g, p);
    if (rung.run() && rung.write(r)) return r;
  }
  throw std::runtime_error(
      "attention backward reference: an output is undecided at 8192 bits (the enclosures did not "
      "narrow as attention_backward_mpfr.cpp argues)");
}

}  // namespace osvs::oracle
