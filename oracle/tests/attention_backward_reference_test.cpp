// The exact attention gradients (attention_backward_reference.h): the fast path against the MPFR
// interval path, closed forms derived by hand, central finite differences of
// f = sum_rc dout_rc o_rc computed in MPFR (of q, k and the sinks), the sink's terms against a
// plain 2000-bit MPFR evaluation on adversarial rows, non-finite inputs, and independence from the
// number of threads. Every comparison allows exactly what the header promises: error * magnitude +
// 2^-1000 per value.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "mpfr_value.h"
#include "osvs/oracle/attention_backward_reference.h"

namespace osvs::oracle {
namespace {

using detail::MpValue;

constexpr double kAbs = 0x1p-1000;

/// A group's data, owned.
struct Data {
  std::int64_t rows = 0, keys = 0;
  int dim = 1, v_dim = 1;
  std::vector<float> q, dout, k, v, slope;
  std::vector<float> sink;  // empty: no sinks; else one a row
  std::vector<std::int64_t> position;
  std::vector<std::uint8_t> masked;  // empty: every row keeps every key
  float scale = 1, softcap = 0;

  Data(std::int64_t r, std::int64_t n, int d, int dv) : rows(r), keys(n), dim(d), v_dim(dv) {
    q.assign(static_cast<std::size_t>(r * d), 0.0f);
    dout.assign(static_cast<std::size_t>(r * dv), 0.0f);
    k.assign(static_cast<std::size_t>(n * d), 0.0f);
    v.assign(static_cast<std::size_t>(n * dv), 0.0f);
  }
  bool kept(std::int64_t i, std::int64_t j) const {
    return masked.empty() || masked[static_cast<std::size_t>(i * keys + j)] == 0;
  }
  AttentionBackwardGroup group() const {
    AttentionBackwardGroup g;
    g.rows = rows;
    g.kv_len = keys;
    g.head_dim = dim;
    g.v_dim = v_dim;
    g.q = q.data();
    g.dout = dout.data();
    g.k = k.data();
    g.v = v.data();
    g.masked = masked.empty() ? nullptr : masked.data();
    g.scale = scale;
    g.softcap = softcap;
    if (!slope.empty()) {
      g.alibi_slope = slope.data();
      g.alibi_position = position.data();
    }
    g.sink = sink.empty() ? nullptr : sink.data();
    return g;
  }
};

/// Random floats: normal times 2^e, e in [-lo, hi].
void fill(std::vector<float>& x, std::mt19937_64& rng, int spread) {
  std::normal_distribution<float> normal;
  std::uniform_int_distribution<int> e(-spread, spread);
  for (float& y : x) y = std::ldexp(normal(rng), e(rng));
}

/// A group of the given shape with q, k, v and dout filled in that order (spread 1), no mask.
Data unit_data(std::mt19937_64& rng, std::int64_t rows, std::int64_t keys, int dim, int v_dim) {
  Data d(rows, keys, dim, v_dim);
  fill(d.q, rng, 1);
  fill(d.k, rng, 1);
  fill(d.v, rng, 1);
  fill(d.dout, rng, 1);
  return d;
}

Data random_data(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> rows(1, 6), keys(1, 8), dim(1, 5), pick(0, 5);
  Data d(rows(rng), keys(rng), dim(rng), dim(rng));
  fill(d.q, rng, 2);
  fill(d.k, rng, 2);
  fill(d.v, rng, 3);
  fill(d.dout, rng, 3);
  if (pick(rng) == 0)  // large scores: keys far below the maximum (e^-745 and beyond)
    for (float& x : d.q) x *= 256;
  const float scales[] = {1.0f, 0.5f, -0.25f, 0.70710678f, 3.0f, 0.125f};
  d.scale = scales[pick(rng)];
  if (pick(rng) < 4) {  // a mask: some rows fully masked, some keys never attended
    std::bernoulli_distribution masked(pick(rng) < 3 ? 0.3 : 0.7);
    d.masked.resize(static_cast<std::size_t>(d.rows * d.keys));
    for (auto& m : d.masked) m = masked(rng) ? 1 : 0;
  }
  if (pick(rng) < 2) {  // ALiBi
    std::uniform_int_distribution<int> e(-8, 1);
    std::uniform_int_distribution<std::int64_t> pos(0, d.keys + 3);
    for (std::int64_t i = 0; i < d.rows; ++i) {
      d.slope.push_back(std::ldexp(1.0f, e(rng)));
      d.position.push_back(pos(rng));
    }
  }
  if (pick(rng) < 3) {  // sinks: about the scores, dominating them, or far below them
    std::uniform_int_distribution<int> kind(0, 2);
    std::normal_distribution<float> normal;
    for (std::int64_t i = 0; i < d.rows; ++i) {
      const int k = kind(rng);
      d.sink.push_back(k == 0 ? normal(rng) : k == 1 ? 30 + normal(rng) : -700 + normal(rng));
    }
  }
  return d;
}

/// |a - b| <= tol * mag + abs for every element.
void expect_close(const std::vector<double>& a, const std::vector<double>& b,
                  const std::vector<double>& mag, double tol, double abs, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_LE(std::fabs(a[i] - b[i]), tol * mag[i] + abs)
        << what << "[" << i << "]: " << a[i] << " vs " << b[i] << " (magnitude " << mag[i] << ")";
}

std::vector<double> largest(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> m(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) m[i] = 1.01 * std::max(a[i], b[i]);
  return m;
}

/// fast and mpfr agree within both bounds.
void expect_agree(const AttentionBackwardReference& a, const AttentionBackwardReference& b) {
  const double tol = a.error + b.error, abs = 2 * kAbs;
  expect_close(a.dq, b.dq, largest(a.dq_magnitude, b.dq_magnitude), tol, abs, "dq");
  expect_close(a.dk, b.dk, largest(a.dk_magnitude, b.dk_magnitude), tol, abs, "dk");
  expect_close(a.dv, b.dv, largest(a.dv_magnitude, b.dv_magnitude), tol, abs, "dv");
  expect_close(a.delta, b.delta, largest(a.delta_magnitude, b.delta_magnitude), tol, abs, "delta");
  expect_close(a.dsink, b.dsink, largest(a.dsink_magnitude, b.dsink_magnitude), tol, abs, "dsink");
  const auto mags = [&](const std::vector<double>& x, const std::vector<double>& y,
                        const char* what) { expect_close(x, y, largest(x, y), tol, abs, what); };
  mags(a.dq_magnitude, b.dq_magnitude, "dq magnitude");
  mags(a.dk_magnitude, b.dk_magnitude, "dk magnitude");
  mags(a.dv_magnitude, b.dv_magnitude, "dv magnitude");
  mags(a.delta_magnitude, b.delta_magnitude, "delta magnitude");
  mags(a.dsink_magnitude, b.dsink_magnitude, "dsink magnitude");
  EXPECT_EQ(a.kept, b.kept);
  EXPECT_EQ(a.attended, b.attended);
}

TEST(AttentionBackwardReference, FastAgreesWithMpfrOnRandomGroups) {
  std::mt19937_64 rng(20240611);
  int fast = 0;
  for (int t = 0; t < 300; ++t) {
    SCOPED_TRACE(t);
    const Data d = random_data(rng);
    const AttentionBackwardReference a = attention_backward_reference(d.group());
    const AttentionBackwardReference b = attention_backward_reference_mpfr(d.group());
    ASSERT_TRUE(a.finite);
    ASSERT_TRUE(b.finite);
    EXPECT_LE(a.error, 0x1p-40);
    EXPECT_LE(b.error, 0x1p-51);
    EXPECT_FALSE(b.mpfr);
    fast += a.mpfr ? 0 : 1;
    expect_agree(a, b);
  }
  EXPECT_EQ(fast, 300);  // no softcap, moderate values: the fast path decides every group
}

/// Both paths: the reference (fast unless a softcap) and MPFR alone.
std::vector<AttentionBackwardReference> both(const Data& d) {
  return {attention_backward_reference(d.group()), attention_backward_reference_mpfr(d.group())};
}

TEST(AttentionBackwardReference, OneKeptKeyGivesZeroDqAndDvEqualToDout) {
  // Row r keeps key r only: P = 1, delta_r = dP_rr, dS = 0, so dq = dk = 0 and dv_r = dout_r.
  std::mt19937_64 rng(7);
  Data d = unit_data(rng, 4, 4, 3, 2);
  d.masked.assign(16, 1);
  for (int r = 0; r < 4; ++r) d.masked[static_cast<std::size_t>(r * 4 + r)] = 0;
  for (const AttentionBackwardReference& x : both(d)) {
    ASSERT_TRUE(x.finite);
    for (std::size_t i = 0; i < x.dq.size(); ++i) {
      EXPECT_LE(std::fabs(x.dq[i]), x.error * x.dq_magnitude[i] + kAbs);
      EXPECT_LE(std::fabs(x.dk[i]), x.error * x.dk_magnitude[i] + kAbs);
    }
    for (std::size_t i = 0; i < x.dv.size(); ++i) {
      EXPECT_LE(std::fabs(x.dv[i] - d.dout[i]), x.error * x.dv_magnitude[i] + kAbs);
      EXPECT_LE(std::fabs(x.dv_magnitude[i] - std::fabs(d.dout[i])),
                x.error * x.dv_magnitude[i] + kAbs);
    }
    for (int r = 0; r < 4; ++r) {
      double dp = 0;  // exact: two products of floats
      for (int c = 0; c < 2; ++c)
        dp += double{d.dout[static_cast<std::size_t>(r * 2 + c)]} *
              double{d.v[static_cast<std::size_t>(r * 2 + c)]};
      const auto at = static_cast<std::size_t>(r);
      EXPECT_LE(std::fabs(x.delta[at] - dp),
                x.error * x.delta_magnitude[at] + kAbs + 0x1p-52 * std::fabs(dp));
    }
  }
}

TEST(AttentionBackwardReference, EqualScoresGiveUniformWeights) {
  // q = 0: every score 0, P_rj = 1 / n_r. Then dv_j = sum_r dout_r / n_r,
  // dq_r = scale / n_r sum_j (dP_rj - delta_r) k_j with delta_r = sum_j dP_rj / n_r, and
  // dk = 0 with magnitude 0 (every q is 0). Expected values at 2000 bits.
  std::mt19937_64 rng(11);
  Data d(5, 6, 3, 4);
  fill(d.k, rng, 1);
  fill(d.v, rng, 1);
  fill(d.dout, rng, 1);
  d.scale = 0.375f;
  d.masked.assign(30, 0);
  for (int r = 0; r < 5; ++r)
    for (int j = r + 2; j < 6; ++j) d.masked[static_cast<std::size_t>(r * 6 + j)] = 1;  // causal
  constexpr mpfr_prec_t kBits = 2000;
  std::vector<double> dq(15), dv(24, 0.0);
  std::vector<MpValue> dv_exact;
  for (int i = 0; i < 24; ++i) {
    dv_exact.emplace_back(kBits);
    mpfr_set_zero(dv_exact.back().get(), 1);
  }
  MpValue x(kBits), delta(kBits), acc(kBits);
  for (int r = 0; r < 5; ++r) {
    const int n = std::min(r + 2, 6);
    std::vector<MpValue> dp;
    mpfr_set_zero(delta.get(), 1);
    for (int j = 0; j < n; ++j) {
      dp.emplace_back(kBits);
      mpfr_set_zero(dp.back().get(), 1);
      for (int c = 0; c < 4; ++c) {
        mpfr_set_flt(x.get(), d.dout[static_cast<std::size_t>(r * 4 + c)], MPFR_RNDN);
        mpfr_mul_d(x.get(), x.get(), d.v[static_cast<std::size_t>(j * 4 + c)], MPFR_RNDN);
        mpfr_add(dp.back().get(), dp.back().get(), x.get(), MPFR_RNDN);
        mpfr_set_flt(x.get(), d.dout[static_cast<std::size_t>(r * 4 + c)], MPFR_RNDN);
        mpfr_div_si(x.get(), x.get(), n, MPFR_RNDN);
        mpfr_add(dv_exact[static_cast<std::size_t>(j * 4 + c)].get(),
                 dv_exact[static_cast<std::size_t>(j * 4 + c)].get(), x.get(), MPFR_RNDN);
      }
      mpfr_add(delta.get(), delta.get(), dp.back().get(), MPFR_RNDN);
    }
    mpfr_div_si(delta.get(), delta.get(), n, MPFR_RNDN);
    for (int c = 0; c < 3; ++c) {
      mpfr_set_zero(acc.get(), 1);
      for (int j = 0; j < n; ++j) {
        mpfr_sub(x.get(), dp[static_cast<std::size_t>(j)].get(), delta.get(), MPFR_RNDN);
        mpfr_mul_d(x.get(), x.get(), d.k[static_cast<std::size_t>(j * 3 + c)], MPFR_RNDN);
        mpfr_add(acc.get(), acc.get(), x.get(), MPFR_RNDN);
      }
      mpfr_mul_d(acc.get(), acc.get(), d.scale / static_cast<double>(n), MPFR_RNDN);
      dq[static_cast<std::size_t>(r * 3 + c)] = mpfr_get_d(acc.get(), MPFR_RNDN);
    }
  }
  for (std::size_t i = 0; i < 24; ++i) dv[i] = mpfr_get_d(dv_exact[i].get(), MPFR_RNDN);
  for (const AttentionBackwardReference& y : both(d)) {
    ASSERT_TRUE(y.finite);
    // (the expectations are rounded to double: u of them more)
    std::vector<double> mq(dq.size()), mv(dv.size());
    for (std::size_t i = 0; i < dq.size(); ++i)
      mq[i] = y.dq_magnitude[i] + 0x1p-52 * std::fabs(dq[i]) / std::max(y.error, 0x1p-60);
    for (std::size_t i = 0; i < dv.size(); ++i)
      mv[i] = y.dv_magnitude[i] + 0x1p-52 * std::fabs(dv[i]) / std::max(y.error, 0x1p-60);
    expect_close(y.dq, dq, mq, y.error, kAbs, "dq");
    expect_close(y.dv, dv, mv, y.error, kAbs, "dv");
    for (std::size_t i = 0; i < y.dk.size(); ++i) {
      EXPECT_EQ(y.dk_magnitude[i], 0.0);
      EXPECT_LE(std::fabs(y.dk[i]), kAbs);
    }
  }
}

TEST(AttentionBackwardReference, ZeroUpstreamGradientGivesZeros) {
  std::mt19937_64 rng(3);
  Data d(3, 5, 4, 3);
  fill(d.q, rng, 1);
  fill(d.k, rng, 1);
  fill(d.v, rng, 1);  // dout = 0: dP = delta = dS = 0
  for (const AttentionBackwardReference& x : both(d)) {
    ASSERT_TRUE(x.finite);
    for (const auto* out : {&x.dq, &x.dk, &x.dv, &x.delta, &x.dq_magnitude, &x.dk_magnitude,
                            &x.dv_magnitude, &x.delta_magnitude})
      for (double y : *out) EXPECT_EQ(y, 0.0);
  }
}

/// f = sum_rc dout_rc o_rc in MPFR at kFdBits for real q, k and sinks (the header's forward:
/// scores, softcap, ALiBi, the softmax over kept keys and the row's sink; `z` empty: none).
constexpr mpfr_prec_t kFdBits = 1500;

void forward_f(const Data& d, const std::vector<MpValue>& q, const std::vector<MpValue>& k,
               const std::vector<MpValue>& z, mpfr_ptr f) {
  MpValue s(kFdBits), x(kFdBits), m(kFdBits), den(kFdBits), num(kFdBits);
  mpfr_set_zero(f, 1);
  for (std::int64_t r = 0; r < d.rows; ++r) {
    std::vector<MpValue> w;
    std::vector<std::int64_t> keys;
    for (std::int64_t j = 0; j < d.keys; ++j) {
      if (!d.kept(r, j)) continue;
      keys.push_back(j);
      mpfr_set_zero(s.get(), 1);
      for (int c = 0; c < d.dim; ++c) {
        mpfr_mul(x.get(), q[static_cast<std::size_t>(r * d.dim + c)].get(),
                 k[static_cast<std::size_t>(j * d.dim + c)].get(), MPFR_RNDN);
        mpfr_add(s.get(), s.get(), x.get(), MPFR_RNDN);
      }
      mpfr_mul_d(s.get(), s.get(), d.scale, MPFR_RNDN);
      if (d.softcap > 0) {
        mpfr_div_d(s.get(), s.get(), d.softcap, MPFR_RNDN);
        mpfr_tanh(s.get(), s.get(), MPFR_RNDN);
        mpfr_mul_d(s.get(), s.get(), d.softcap, MPFR_RNDN);
      }
      if (!d.slope.empty())
        mpfr_sub_d(s.get(), s.get(),
                   double{d.slope[static_cast<std::size_t>(r)]} *
                       static_cast<double>(std::llabs(d.position[static_cast<std::size_t>(r)] - j)),
                   MPFR_RNDN);
      w.emplace_back(kFdBits);
      mpfr_set(w.back().get(), s.get(), MPFR_RNDN);
    }
    if (keys.empty()) continue;
    mpfr_set(m.get(), w[0].get(), MPFR_RNDN);
    for (const MpValue& y : w) mpfr_max(m.get(), m.get(), y.get(), MPFR_RNDN);
    mpfr_set_zero(den.get(), 1);
    mpfr_set_zero(num.get(), 1);
    if (!z.empty()) {  // the sink's term of the denominator
      mpfr_sub(x.get(), z[static_cast<std::size_t>(r)].get(), m.get(), MPFR_RNDN);
      mpfr_exp(den.get(), x.get(), MPFR_RNDN);
    }
    for (std::size_t i = 0; i < keys.size(); ++i) {
      mpfr_sub(x.get(), w[i].get(), m.get(), MPFR_RNDN);
      mpfr_exp(x.get(), x.get(), MPFR_RNDN);
      mpfr_add(den.get(), den.get(), x.get(), MPFR_RNDN);
      double dp = 0;  // dout_r . v_j: small exact test values
      for (int c = 0; c < d.v_dim; ++c)
        dp += double{d.dout[static_cast<std::size_t>(r * d.v_dim + c)]} *
              double{d.v[static_cast<std::size_t>(keys[i] * d.v_dim + c)]};
      mpfr_mul_d(x.get(), x.get(), dp, MPFR_RNDN);
      mpfr_add(num.get(), num.get(), x.get(), MPFR_RNDN);
    }
    mpfr_div(num.get(), num.get(), den.get(), MPFR_RNDN);
    mpfr_add(f, f, num.get(), MPFR_RNDN);
  }
}

std::vector<MpValue> to_mp(const std::vector<float>& x) {
  std::vector<MpValue> y;
  for (float v : x) {
    y.emplace_back(kFdBits);
    mpfr_set_flt(y.back().get(), v, MPFR_RNDN);
  }
  return y;
}

enum class Of { Q, K, Sink };

/// (f(x + h e_i) - f(x - h e_i)) / 2h, h = 2^-60, for x = q, k or the rows' sinks.
double central_difference(const Data& d, Of of, std::size_t i) {
  std::vector<MpValue> q = to_mp(d.q), k = to_mp(d.k), z = to_mp(d.sink);
  mpfr_ptr x = (of == Of::Q ? q : of == Of::K ? k : z)[i].get();
  MpValue plus(kFdBits), minus(kFdBits);
  mpfr_add_d(x, x, 0x1p-60, MPFR_RNDN);
  forward_f(d, q, k, z, plus.get());
  mpfr_sub_d(x, x, 0x1p-59, MPFR_RNDN);
  forward_f(d, q, k, z, minus.get());
  mpfr_sub(plus.get(), plus.get(), minus.get(), MPFR_RNDN);
  mpfr_mul_2si(plus.get(), plus.get(), 59, MPFR_RNDN);
  return mpfr_get_d(plus.get(), MPFR_RNDN);
}

/// dq, dk and (with sinks) each row's dsink against central differences: the truncation error is
/// O(h^2) = O(2^-120), far below the bound (2^-80 allowed for it).
void expect_finite_differences(const Data& d, const AttentionBackwardReference& x) {
  ASSERT_TRUE(x.finite);
  struct Gradient {
    const char* name;
    Of of;
    std::size_t count;  // the sinks' only where the group has them
    const std::vector<double>& value;
    const std::vector<double>& magnitude;
  };
  for (const Gradient& g : {Gradient{"dsink", Of::Sink, d.sink.size(), x.dsink, x.dsink_magnitude},
                            Gradient{"dq", Of::Q, x.dq.size(), x.dq, x.dq_magnitude},
                            Gradient{"dk", Of::K, x.dk.size(), x.dk, x.dk_magnitude}})
    for (std::size_t i = 0; i < g.count; ++i)
      EXPECT_LE(std::fabs(g.value[i] - central_difference(d, g.of, i)),
                x.error * g.magnitude[i] + 0x1p-52 * std::fabs(g.value[i]) + 0x1p-80)
          << g.name << "[" << i << "]";
}

Data finite_difference_data() {
  std::mt19937_64 rng(5);
  Data d(3, 3, 2, 2);
  // v and dout small multiples of 1/8: dout . v exact in double (forward_f)
  std::uniform_int_distribution<int> small(-16, 16);
  for (float& y : d.v) y = static_cast<float>(small(rng)) / 8;
  for (float& y : d.dout) y = static_cast<float>(small(rng)) / 8;
  fill(d.q, rng, 0);
  fill(d.k, rng, 0);
  d.scale = 0.70710678f;
  d.masked = {0, 0, 1, 0, 0, 0, 1, 0, 0};
  d.slope = {0.5f, 0.25f, 0.0f};
  d.position = {0, 1, 2};
  return d;
}

TEST(AttentionBackwardReference, GradientsMatchFiniteDifferences) {
  const Data d = finite_difference_data();
  for (const AttentionBackwardReference& x : both(d)) expect_finite_differences(d, x);
}

// A sink on every row (-1, 0.75 and 3, about the scores' size): its own gradient, and dq and dk
// through the larger denominator; then with a softcap.
TEST(AttentionBackwardReference, SinkGradientsMatchFiniteDifferences) {
  Data d = finite_difference_data();
  d.sink = {-1.0f, 0.75f, 3.0f};
  for (const AttentionBackwardReference& x : both(d)) {
    EXPECT_FALSE(x.mpfr);
    expect_finite_differences(d, x);
  }
  d.softcap = 1.5f;  // (MPFR decides)
  for (const AttentionBackwardReference& x : both(d)) expect_finite_differences(d, x);
}

TEST(AttentionBackwardReference, SoftcapGradientsMatchFiniteDifferences) {
  Data d = finite_difference_data();
  d.softcap = 1.5f;
  for (float& y : d.q) y *= 2;  // scores near the cap: t = 1 - tanh^2 well below 1
  const AttentionBackwardReference x = attention_backward_reference(d.group());
  EXPECT_TRUE(x.mpfr);  // the fast path has no certified tanh
  expect_finite_differences(d, x);
  expect_finite_differences(d, attention_backward_reference_mpfr(d.group()));
}

// A saturated softcap (found by the laws on osvs's backward kernel): scores 591.2 under a cap of
// 5 put tanh within 2^-340 of 1, so t = sech^2(118.2) ~ 8e-103 and every dS is that small. At 128
// bits t's enclosure is [0, 2^-127]: its magnitude's lower end is 0 (MPFR's -0 once), which must
// send the loop to the next precision, not pass as decided. Two equal keys: P = 1/2, so
// dk_j = scale q P (dP_j - delta) t, delta the mean of dP, t computed here at 2000 bits.
TEST(AttentionBackwardReference, SaturatedSoftcapIsDecidedAtItsOwnScale) {
  Data d(1, 2, 1, 1);
  d.q = {-32};
  d.k = {-32, -32};
  d.v = {-32, -30.5f};
  d.dout = {-32};
  d.scale = 0x1.279a74p-1f;
  d.softcap = 5;
  MpValue t(2000), one(2000);
  mpfr_set_d(t.get(), 32.0 * 32.0, MPFR_RNDN);
  mpfr_mul_d(t.get(), t.get(), d.scale, MPFR_RNDN);  // exact: 10 + 24 bits
  mpfr_div_d(t.get(), t.get(), d.softcap, MPFR_RNDN);
  mpfr_sech(t.get(), t.get(), MPFR_RNDN);
  mpfr_sqr(t.get(), t.get(), MPFR_RNDN);
  const double sech2 = mpfr_get_d(t.get(), MPFR_RNDN);
  ASSERT_LT(sech2, 1e-100);
  // (delta's magnitude: sum_j P_j |dP_j| = 1000 as well; the expectations below are each a few
  // roundings of double arithmetic from exact, within 2^-50 of themselves)
  const double dp[] = {1024, 976}, delta = 1000, delta_magnitude = 1000;
  for (const AttentionBackwardReference& x : both(d)) {
    EXPECT_LE(x.error, 0x1p-40);
    for (std::size_t j = 0; j < 2; ++j) {
      const double common = double{d.scale} * 32.0 * 0.5 * sech2;
      const double exact = -common * (dp[j] - delta);
      const double magnitude = common * (dp[j] + delta_magnitude);
      EXPECT_NEAR(x.dk[j], exact,
                  x.error * x.dk_magnitude[j] + 0x1p-50 * (std::fabs(exact) + magnitude))
          << j;
      EXPECT_NEAR(x.dk_magnitude[j], magnitude, (x.error + 0x1p-50) * magnitude) << j;
    }
  }
}

/// Row r's sink term -P_sink delta and its magnitude P_sink delta_mag, plainly at 2000 bits from
/// the header's definitions (no shift: MPFR's exponent range holds e^(+-1000); no softcap or
/// ALiBi, which the rows below do not have): P_sink = e^z / D, delta = N / D, with D = e^z +
/// sum_j e^(s_j), N = sum_j e^(s_j) dP_j and A = sum_j e^(s_j) |dP|_j over the kept keys.
std::pair<double, double> plain_dsink(const Data& d, std::int64_t r) {
  constexpr mpfr_prec_t kBits = 2000;
  MpValue s(kBits), x(kBits), e(kBits), den(kBits), num(kBits), mag(kBits), dp(kBits),
      dp_abs(kBits);
  mpfr_set_flt(den.get(), d.sink[static_cast<std::size_t>(r)], MPFR_RNDN);
  mpfr_exp(den.get(), den.get(), MPFR_RNDN);
  MpValue sink_weight(kBits);
  mpfr_set(sink_weight.get(), den.get(), MPFR_RNDN);
  mpfr_set_zero(num.get(), 1);
  mpfr_set_zero(mag.get(), 1);
  for (std::int64_t j = 0; j < d.keys; ++j) {
    if (!d.kept(r, j)) continue;
    mpfr_set_zero(s.get(), 1);
    for (int c = 0; c < d.dim; ++c) {  // products of floats: exact at 2000 bits, and their sums
      mpfr_set_flt(x.get(), d.q[static_cast<std::size_t>(r * d.dim + c)], MPFR_RNDN);
      mpfr_mul_d(x.get(), x.get(), d.k[static_cast<std::size_t>(j * d.dim + c)], MPFR_RNDN);
      mpfr_add(s.get(), s.get(), x.get(), MPFR_RNDN);
    }
    mpfr_mul_d(s.get(), s.get(), d.scale, MPFR_RNDN);
    mpfr_exp(e.get(), s.get(), MPFR_RNDN);
    mpfr_add(den.get(), den.get(), e.get(), MPFR_RNDN);
    mpfr_set_zero(dp.get(), 1);
    mpfr_set_zero(dp_abs.get(), 1);
    for (int c = 0; c < d.v_dim; ++c) {
      mpfr_set_flt(x.get(), d.dout[static_cast<std::size_t>(r * d.v_dim + c)], MPFR_RNDN);
      mpfr_mul_d(x.get(), x.get(), d.v[static_cast<std::size_t>(j * d.v_dim + c)], MPFR_RNDN);
      mpfr_add(dp.get(), dp.get(), x.get(), MPFR_RNDN);
      mpfr_abs(x.get(), x.get(), MPFR_RNDN);
      mpfr_add(dp_abs.get(), dp_abs.get(), x.get(), MPFR_RNDN);
    }
    mpfr_fma(num.get(), e.get(), dp.get(), num.get(), MPFR_RNDN);
    mpfr_fma(mag.get(), e.get(), dp_abs.get(), mag.get(), MPFR_RNDN);
  }
  // e^z N / D^2 and e^z A / D^2
  mpfr_sqr(den.get(), den.get(), MPFR_RNDN);
  mpfr_mul(num.get(), num.get(), sink_weight.get(), MPFR_RNDN);
  mpfr_div(num.get(), num.get(), den.get(), MPFR_RNDN);
  mpfr_mul(mag.get(), mag.get(), sink_weight.get(), MPFR_RNDN);
  mpfr_div(mag.get(), mag.get(), den.get(), MPFR_RNDN);
  return {-mpfr_get_d(num.get(), MPFR_RNDN), mpfr_get_d(mag.get(), MPFR_RNDN)};
}

// Adversarial rows for the sink's terms, one group of 6 rows over 3 keys (keys 0 and 1 equal):
//   0: a sink of 40 over scores near 0 (P_sink within e^-37 of 1, every key's weight tiny);
//   1: a sink of -640 (P_sink ~ 2^-925: the weights' far branch, below e^-600, yet above the
//      promise's 2^-1000 floor);
//   2: a sink equal to the largest score (a tie for the shift);
//   3: dP = 2 and -2 on the two equal keys, key 2 masked: delta = 0 exactly beside a magnitude 2;
//   4: no kept key (the term is 0 whatever the sink);
//   5: scores near 300 over a sink of 0 (P_sink ~ e^-300).
// Both paths within error * magnitude + 2^-1000 of the 2000-bit values (each rounded to double:
// 2^-53 of itself more), the fast path deciding.
TEST(AttentionBackwardReference, SinkTermsMatchPlainMpfrOnAdversarialRows) {
  Data d(6, 3, 2, 2);
  d.k = {2, 0, 2, 0, -1, 3};
  d.v = {1, 2, -1, -2, 0.5f, -3};
  d.q = {0.01f, -0.02f, 0.25f, 0.5f, 1, 0, 0.75f, -0.5f, 1, 1, 150, 0.125f};
  d.dout = {1, -1, 0.5f, 2, -3, 0.25f, 1, 0.5f, 2, 2, -0.75f, 1.5f};
  d.sink = {40, -640, 2, 1, 1, 0};
  d.masked.assign(18, 0);
  d.masked[3 * 3 + 2] = 1;                                              // row 3: keys 0 and 1 only
  d.masked[4 * 3 + 0] = d.masked[4 * 3 + 1] = d.masked[4 * 3 + 2] = 1;  // row 4: none
  const std::vector<AttentionBackwardReference> paths = both(d);
  EXPECT_FALSE(paths[0].mpfr);
  for (const AttentionBackwardReference& x : paths) {
    ASSERT_TRUE(x.finite);
    for (std::int64_t r = 0; r < d.rows; ++r) {
      const auto [value, magnitude] = plain_dsink(d, r);
      const auto at = static_cast<std::size_t>(r);
      EXPECT_LE(std::fabs(x.dsink[at] - value),
                x.error * x.dsink_magnitude[at] + kAbs + 0x1p-53 * std::fabs(value))
          << "row " << r << ": " << x.dsink[at] << " vs " << value;
      EXPECT_LE(std::fabs(x.dsink_magnitude[at] - magnitude),
                x.error * x.dsink_magnitude[at] + kAbs + 0x1p-53 * magnitude)
          << "row " << r << ": " << x.dsink_magnitude[at] << " vs " << magnitude;
    }
    EXPECT_EQ(x.dsink[4], 0.0);  // no kept key: exactly 0
    EXPECT_EQ(x.dsink_magnitude[4], 0.0);
    EXPECT_GT(x.dsink_magnitude[3], 0.0);  // a cancelling delta keeps its scale
  }
}

TEST(AttentionBackwardReference, NonFiniteInputs) {
  std::mt19937_64 rng(9);
  Data d = unit_data(rng, 3, 4, 2, 2);
  d.masked = {0, 0, 1, 1,   //
              0, 0, 0, 1,   //
              1, 1, 1, 1};  // key 3 is never attended, row 2 keeps nothing
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const auto with = [&](std::vector<float> Data::*field, std::size_t at, float value) {
    Data e = d;
    (e.*field)[at] = value;
    return both(e);
  };
  for (const auto& x : with(&Data::q, 1, nan)) EXPECT_FALSE(x.finite);     // row 0 keeps keys
  for (const auto& x : with(&Data::dout, 2, inf)) EXPECT_FALSE(x.finite);  // row 1
  for (const auto& x : with(&Data::k, 4, -inf)) EXPECT_FALSE(x.finite);    // key 2, row 1's
  for (const auto& x : with(&Data::v, 0, nan)) EXPECT_FALSE(x.finite);     // key 0
  Data e = d;  // NaN where nothing is kept: key 3's k and v, row 2's q and dout
  e.k[6] = e.v[7] = e.q[4] = e.dout[5] = nan;
  for (const auto& x : both(e)) {
    ASSERT_TRUE(x.finite);
    for (std::size_t c = 6; c < 8; ++c) {
      EXPECT_EQ(x.dk[c], 0.0);
      EXPECT_EQ(x.dv[c], 0.0);
      EXPECT_EQ(x.dk_magnitude[c], 0.0);
      EXPECT_EQ(x.dv_magnitude[c], 0.0);
    }
    EXPECT_EQ(x.dq[4], 0.0);
    EXPECT_EQ(x.dq[5], 0.0);
    EXPECT_EQ(x.delta[2], 0.0);
    EXPECT_EQ(x.delta_magnitude[2], 0.0);
    EXPECT_EQ(x.kept[2], 0);
    EXPECT_EQ(x.attended[3], 0);
  }
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

TEST(AttentionBackwardReference, ResultDoesNotDependOnWorkers) {
  std::mt19937_64 rng(13);
  Data d = unit_data(rng, 70, 45, 8, 6);
  d.scale = 0.35355339f;
  d.masked.resize(static_cast<std::size_t>(70 * 45));
  std::bernoulli_distribution drop(0.2);
  for (std::int64_t r = 0; r < 70; ++r)
    for (std::int64_t j = 0; j < 45; ++j)
      d.masked[static_cast<std::size_t>(r * 45 + j)] = (j > r % 45 || drop(rng)) ? 1 : 0;
  const AttentionBackwardReference a = attention_backward_reference(d.group(), 1);
  const AttentionBackwardReference b = attention_backward_reference(d.group(), 4);
  ASSERT_FALSE(a.mpfr);
  EXPECT_TRUE(same_bits(a.dq, b.dq) && same_bits(a.dk, b.dk) && same_bits(a.dv, b.dv) &&
              same_bits(a.delta, b.delta) && same_bits(a.dq_magnitude, b.dq_magnitude) &&
              same_bits(a.dk_magnitude, b.dk_magnitude) &&
              same_bits(a.dv_magnitude, b.dv_magnitude) &&
              same_bits(a.delta_magnitude, b.delta_magnitude));
  EXPECT_EQ(a.error, b.error);
}

}  // namespace
}  // namespace osvs::oracle
