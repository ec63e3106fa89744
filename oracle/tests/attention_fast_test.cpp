// The attention reference's fast path (src/attention_fast.cpp) against its MPFR path, and its
// pieces against MPFR: the rounding of a double to each type, double-double division and exp.
// Both paths round correctly, so every rounded output must be the same bits; the doubles within
// what attention_reference.h promises.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "attention_fast.h"
#include "double_double.h"
#include "exp_double_double.h"
#include "mpfr_value.h"

namespace osvs::oracle {
namespace {

using detail::DoubleDouble;
using detail::MpValue;

constexpr double kU = 0x1p-53;

std::uint32_t bits(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

/// |x - (h + l)| / |x| at 400 bits.
double relative_error(mpfr_srcptr x, DoubleDouble y) {
  MpValue diff(400);
  mpfr_sub_d(diff.get(), x, y.h, MPFR_RNDN);
  mpfr_sub_d(diff.get(), diff.get(), y.l, MPFR_RNDN);
  mpfr_div(diff.get(), diff.get(), x, MPFR_RNDN);
  return std::fabs(mpfr_get_d(diff.get(), MPFR_RNDN));
}

TEST(AttentionFast, RoundDoubleToIsMpfrsRounding) {
  // Doubles in every region of each type: normal, subnormal, below its smallest subnormal, past
  // its largest finite value, and exact midpoints (a value of p + 1 bits), both signs.
  std::mt19937_64 rng(20261203);
  const DType types[] = {DType::F32, DType::BF16, DType::F16};
  int checked = 0;
  for (DType t : types) {
    const int p = precision_of(t), e_min = min_exponent_of(t);
    const int e_max = t == DType::F16 ? 15 : 127;
    for (int i = 0; i < 20000; ++i) {
      const int e = e_min - p - 3 +
                    static_cast<int>(rng() % static_cast<std::uint64_t>(e_max - e_min + p + 6));
      double x = std::ldexp(1.0 + static_cast<double>(rng() >> 12) * 0x1p-52, e);
      if (i % 4 == 0) {  // a midpoint of the type at this binade
        const int q = std::max(e, e_min) - (p - 1);
        x = std::ldexp(std::floor(std::ldexp(x, -q)) + 0.5, q);
      }
      if (rng() % 2) x = -x;
      MpValue exact(64);
      mpfr_set_d(exact.get(), x, MPFR_RNDN);
      const float want = detail::round_to_type(exact.get(), t);
      const float got = detail::round_double_to(x, t);
      ASSERT_EQ(bits(got), bits(want)) << std::hexfloat << x << " to " << to_string(t);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 60000);
}

TEST(AttentionFast, DoubleDoubleDivisionWithin32uSquared) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(-1, 1);
  double worst = 0;
  for (int i = 0; i < 20000; ++i) {
    const auto dd = [&](int e) {
      return detail::two_sum(std::ldexp(unit(rng), e), std::ldexp(unit(rng), e - 60));
    };
    const DoubleDouble a = dd(static_cast<int>(rng() % 400) - 200),
                       b = dd(static_cast<int>(rng() % 400) - 200);
    if (b.h == 0) continue;
    MpValue x(400), y(400);
    mpfr_set_d(x.get(), a.h, MPFR_RNDN);
    mpfr_add_d(x.get(), x.get(), a.l, MPFR_RNDN);
    mpfr_set_d(y.get(), b.h, MPFR_RNDN);
    mpfr_add_d(y.get(), y.get(), b.l, MPFR_RNDN);
    mpfr_div(x.get(), x.get(), y.get(), MPFR_RNDN);
    const DoubleDouble q = detail::dd_div(a, b);
    worst = std::max(worst, relative_error(x.get(), q));
    ASSERT_LE(std::fabs(q.l), kU * std::fabs(q.h)) << "normalized";
  }
  EXPECT_LE(worst, 32 * kU * kU);
  EXPECT_GT(worst, 0.0) << "some quotient is inexact in double-double";
}

TEST(AttentionFast, ExpOfADoubleDoubleWithinItsBound) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> arg(-129, 129);
  double worst = 0;
  for (int i = 0; i < 20000; ++i) {
    const double h = arg(rng);
    const DoubleDouble g =
        detail::two_sum(h, h * kU * std::uniform_real_distribution<>(-1, 1)(rng));
    DoubleDouble e;
    ASSERT_TRUE(detail::exp_dd(g, &e)) << std::hexfloat << g.h;
    MpValue x(400);
    mpfr_set_d(x.get(), g.h, MPFR_RNDN);
    mpfr_add_d(x.get(), x.get(), g.l, MPFR_RNDN);
    mpfr_exp(x.get(), x.get(), MPFR_RNDN);
    worst = std::max(worst, relative_error(x.get(), e));
  }
  EXPECT_LE(worst, detail::kExpGapDdRelErr);
  DoubleDouble unused;
  EXPECT_FALSE(detail::exp_dd({130, 0}, &unused)) << "outside its range: refused";
}

struct Query {
  std::vector<float> q, k, v;
  std::vector<std::uint8_t> masked;
  int head_dim = 1, v_dim = 1;
  float scale = 1, sink = 0, alibi_slope = 0, k_scale = 1, v_scale = 1;
  std::int64_t alibi_position = 0;
  bool has_sink = false;
  LseBase base = LseBase::E;
  DType out = DType::F32;
  AttentionQuery view() const {
    AttentionQuery a;
    a.q = q.data();
    a.k = k.data();
    a.v = v.data();
    a.masked = masked.data();
    a.kv_len = static_cast<std::int64_t>(masked.size());
    a.head_dim = head_dim;
    a.v_dim = v_dim;
    a.scale = scale;
    a.base = base;
    a.out = out;
    a.has_sink = has_sink;
    a.sink = sink;
    a.alibi_slope = alibi_slope;
    a.alibi_position = alibi_position;
    a.k_scale = k_scale;
    a.v_scale = v_scale;
    return a;
  }
};

/// The same bits from both paths, and the doubles within 2^-51 M_c (o) and 2^-51 |lse| of each
/// other (each within 2^-52 of the exact value). Returns whether the fast path decided.
bool expect_paths_agree(const Query& query, const std::string& what) {
  const AttentionQuery a = query.view();
  const AttentionReference got = attention_reference(a);
  const AttentionReference want = attention_reference_mpfr(a);
  EXPECT_EQ(got.outcome, want.outcome) << what;
  EXPECT_EQ(got.unmasked, want.unmasked) << what;
  EXPECT_EQ(bits(got.lse_rounded), bits(want.lse_rounded))
      << what << ": lse " << std::hexfloat << got.lse_rounded << " vs " << want.lse_rounded;
  EXPECT_LE(std::fabs(got.lse - want.lse), 0x1p-51 * std::fabs(want.lse)) << what;
  for (std::size_t c = 0; c < want.o_rounded.size(); ++c) {
    const bool nan = std::isnan(want.o_rounded[c]);
    EXPECT_EQ(std::isnan(got.o_rounded[c]), nan) << what;
    if (nan) continue;
    EXPECT_EQ(bits(got.o_rounded[c]), bits(want.o_rounded[c]))
        << what << ": o[" << c << "] " << std::hexfloat << got.o_rounded[c] << " vs "
        << want.o_rounded[c];
    EXPECT_LE(std::fabs(got.o[c] - want.o[c]), 0x1p-51 * want.magnitude[c]) << what;
    EXPECT_LE(std::fabs(got.magnitude[c] - want.magnitude[c]), 0x1p-51 * want.magnitude[c]) << what;
  }
  return !got.mpfr;
}

/// A random query of one class of values.
enum class Values { Gaussian, Bf16Gaussian, SmallIntegers, WideExponents, FarKeys, Fp8 };

Query random_query(std::mt19937& rng, Values values, int dim, int len) {
  Query q;
  q.head_dim = dim;
  q.v_dim = rng() % 4 == 0 ? 1 + static_cast<int>(rng() % 9) : dim;
  const DType types[] = {DType::F32, DType::BF16, DType::F16};
  q.out = types[rng() % 3];
  q.base = rng() % 2 ? LseBase::E : LseBase::Two;
  q.scale = 1.0f / std::sqrt(static_cast<float>(dim));
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const float far_scale = rng() % 2 ? 10.0f : 30.0f;
  const auto value = [&](bool is_v) -> float {
    switch (values) {
      case Values::Gaussian:
        return normal(rng);
      case Values::Bf16Gaussian:
        return round_to(DType::BF16, normal(rng));
      case Values::SmallIntegers:
        return static_cast<float>(static_cast<int>(rng() % 5) - 2);
      case Values::WideExponents:
        return std::ldexp(normal(rng), static_cast<int>(rng() % 61) - 30);
      case Values::FarKeys:  // scores hundreds apart: weights below e^-128 and e^-600
        return is_v ? normal(rng) : normal(rng) * far_scale;
      case Values::Fp8:  // K/V in e4m3 or e5m2 (q too: no matter), of their whole range
        return round_to(rng() % 2 ? DType::E4M3 : DType::E5M2,
                        std::ldexp(normal(rng), static_cast<int>(rng() % 13) - 6));
    }
    return 0.0f;
  };
  for (int c = 0; c < dim; ++c) q.q.push_back(value(false));
  for (int j = 0; j < len * dim; ++j) q.k.push_back(value(false));
  for (int j = 0; j < len * q.v_dim; ++j) q.v.push_back(round_to(q.out, value(true)));
  if (values == Values::Fp8) {  // powers of two, 1.5, and floats of 24 significant bits
    const float scales[] = {1.0f, 0x1p-4f, 1.5f, 0x1.24924ap-9f, 0x1.6a09e6p+3f};
    q.k_scale = scales[rng() % 5];
    q.v_scale = scales[rng() % 5];
  }
  for (int j = 0; j < len; ++j) q.masked.push_back(j > 0 && rng() % 5 == 0);
  if (rng() % 6 == 0) {
    q.has_sink = true;
    q.sink = value(false);
  }
  if (rng() % 4 == 0) {  // ALiBi: a slope of its own or of 24 bits, the diagonal anywhere near
    const float slopes[] = {0.5f, 0x1p-8f, 0.3f, 3.0f};
    q.alibi_slope = slopes[rng() % 4];
    q.alibi_position = static_cast<std::int64_t>(rng() % static_cast<unsigned>(len + 4)) - 2;
  }
  return q;
}

/// The largest gap m - s_j of the query's kept keys (scores in double: enough to classify).
double largest_gap(const Query& q) {
  double top = -INFINITY, bottom = INFINITY;
  for (std::size_t j = 0; j < q.masked.size(); ++j) {
    if (q.masked[j]) continue;
    double s = 0;
    for (int c = 0; c < q.head_dim; ++c)
      s += double{q.q[static_cast<std::size_t>(c)]} *
           q.k[j * static_cast<std::size_t>(q.head_dim) + static_cast<std::size_t>(c)];
    s *= q.scale * q.k_scale;
    top = std::max(top, s);
    bottom = std::min(bottom, s);
  }
  return top - bottom;
}

TEST(AttentionFast, AgreesWithTheMpfrPathOnEveryClass) {
  std::mt19937 rng(20261203);
  const int dims[] = {1, 2, 5, 16, 64, 128};
  const struct {
    Values values;
    const char* name;
  } classes[] = {{Values::Gaussian, "gaussian"},
                 {Values::Bf16Gaussian, "bf16 gaussian"},
                 {Values::SmallIntegers, "small integers"},
                 {Values::WideExponents, "wide exponents"},
                 {Values::FarKeys, "far keys"},
                 {Values::Fp8, "fp8 with scales"}};
  for (const auto& cls : classes) {
    int fast = 0, total = 0, reduced = 0, left_out = 0;
    for (int round = 0; round < 12; ++round)
      for (int dim : dims) {
        const int len = 1 + static_cast<int>(rng() % 40);
        const Query q = random_query(rng, cls.values, dim, len);
        const double gap = largest_gap(q);
        reduced += gap > 130 ? 1 : 0;   // a weight below e^-128: exp by e^-128 J
        left_out += gap > 610 ? 1 : 0;  // a key left out (e^-600)
        fast += expect_paths_agree(q, std::string(cls.name) + " dim " + std::to_string(dim) +
                                          " keys " + std::to_string(len))
                    ? 1
                    : 0;
        ++total;
      }
    std::printf("%-16s fast path decided %d of %d queries (gaps past 130: %d, past 610: %d)\n",
                cls.name, fast, total, reduced, left_out);
    if (cls.values == Values::FarKeys) {
      EXPECT_GT(reduced, 0) << "the far class reaches the reduced exp";
      EXPECT_GT(left_out, 0) << "and keys the fast path leaves out";
    }
    if (cls.values == Values::Gaussian || cls.values == Values::Bf16Gaussian ||
        cls.values == Values::FarKeys)
      // An output the fast path leaves to MPFR lies within about 2^-50 relative of a rounding
      // boundary of its type (or is +-0 from underflow): for continuous values, probability
      // below 2^-24 per output, far below one in these few thousand outputs.
      EXPECT_EQ(fast, total) << cls.name;
    else
      EXPECT_GT(fast, 0) << cls.name << ": the fast path decides some of them";
  }
}

TEST(AttentionFast, LeavesWhatItCannotCertifyToMpfr) {
  // Equal scores and v = {1, 1 + 2^(1-p)}: o is the midpoint between two values of the type,
  // which no finite interval decides; a softcap; a query whose only key is masked with a sink.
  Query q;
  q.head_dim = q.v_dim = 1;
  q.q = {1.0f};
  q.k = {2.0f, 2.0f};
  q.v = {1.0f, 1.0f + 0x1p-23f};
  q.masked = {0, 0};
  EXPECT_FALSE(expect_paths_agree(q, "midpoint"));
  Query capped = q;
  capped.v = {1.0f, 2.0f};
  AttentionQuery a = capped.view();
  a.softcap = 5;
  EXPECT_TRUE(attention_reference(a).mpfr);
  Query sink_only = q;
  sink_only.masked = {1, 1};
  sink_only.has_sink = true;
  sink_only.sink = 0.5f;
  EXPECT_FALSE(expect_paths_agree(sink_only, "sink alone"));
  // Not leaving everything: the same query off the midpoint is the fast path's.
  Query off = q;
  off.v = {1.0f, 1.0f + 0x1p-22f};
  EXPECT_TRUE(expect_paths_agree(off, "off the midpoint"));
}

}  // namespace
}  // namespace osvs::oracle
