// The attention reference against a plain MPFR evaluation: no error analysis, no Ziv loop, no
// rational detection, 3000 bits, and rounding to the output type by MPFR's own exponent-range
// emulation (mpfr_check_range + mpfr_subnormalize) instead of attention_reference.cpp's
// round_to_type. The outputs must be identical; the rational cases (equal scores, exact means,
// midpoints between floats) are where the two methods differ most.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <random>
#include <vector>

#include "mpfr_value.h"
#include "osvs/oracle/attention_reference.h"

namespace osvs::oracle {
namespace {

using detail::MpValue;

constexpr mpfr_prec_t kPlainBits = 3000;

/// x rounded to type t by MPFR's emulation of a p-bit format with subnormals.
float plain_round(mpfr_srcptr x, DType t) {
  const int p = precision_of(t);
  const mpfr_exp_t old_min = mpfr_get_emin(), old_max = mpfr_get_emax();
  const int e_max = t == DType::F16 ? 15 : 127;
  mpfr_set_emin(min_exponent_of(t) - p + 2);
  mpfr_set_emax(e_max + 1);
  MpValue y(p);
  int ternary = mpfr_set(y.get(), x, MPFR_RNDN);
  ternary = mpfr_check_range(y.get(), ternary, MPFR_RNDN);
  mpfr_subnormalize(y.get(), ternary, MPFR_RNDN);
  mpfr_set_emin(old_min);
  mpfr_set_emax(old_max);
  return mpfr_get_flt(y.get(), MPFR_RNDN);
}

struct Plain {
  float lse;
  std::vector<float> o;
};

/// Straight from the definition, at 3000 bits (fp8 K/V: the scores times k_scale, every value
/// times v_scale, as docs/semantics.md §9 defines them).
Plain plain_attention(const AttentionQuery& a) {
  std::vector<MpValue> s;
  MpValue prod(kPlainBits), m(kPlainBits), d(kPlainBits), e(kPlainBits), t(kPlainBits);
  std::vector<std::int64_t> keys;
  for (std::int64_t j = 0; j < a.kv_len; ++j) {
    if (a.masked && a.masked[j]) continue;
    keys.push_back(j);
    s.emplace_back(kPlainBits);
    mpfr_set_zero(s.back().get(), 1);
    for (int c = 0; c < a.head_dim; ++c) {
      mpfr_set_flt(prod.get(), a.q[c], MPFR_RNDN);
      mpfr_mul_d(prod.get(), prod.get(), a.k[j * a.head_dim + c], MPFR_RNDN);
      mpfr_add(s.back().get(), s.back().get(), prod.get(), MPFR_RNDN);
    }
    mpfr_mul_d(s.back().get(), s.back().get(), a.scale, MPFR_RNDN);
    mpfr_mul_d(s.back().get(), s.back().get(), a.k_scale, MPFR_RNDN);
  }
  mpfr_set(m.get(), s[0].get(), MPFR_RNDN);
  for (auto& x : s) mpfr_max(m.get(), m.get(), x.get(), MPFR_RNDN);
  mpfr_set_zero(d.get(), 1);
  std::vector<MpValue> num;
  for (int c = 0; c < a.head_dim; ++c) {
    num.emplace_back(kPlainBits);
    mpfr_set_zero(num.back().get(), 1);
  }
  for (std::size_t i = 0; i < keys.size(); ++i) {
    mpfr_sub(t.get(), s[i].get(), m.get(), MPFR_RNDN);
    mpfr_exp(e.get(), t.get(), MPFR_RNDN);
    mpfr_add(d.get(), d.get(), e.get(), MPFR_RNDN);
    for (int c = 0; c < a.head_dim; ++c) {
      mpfr_mul_d(prod.get(), e.get(), a.v[keys[i] * a.head_dim + c], MPFR_RNDN);
      mpfr_mul_d(prod.get(), prod.get(), a.v_scale, MPFR_RNDN);
      mpfr_add(num[static_cast<std::size_t>(c)].get(), num[static_cast<std::size_t>(c)].get(),
               prod.get(), MPFR_RNDN);
    }
  }
  Plain r;
  for (auto& x : num) {
    mpfr_div(x.get(), x.get(), d.get(), MPFR_RNDN);
    r.o.push_back(plain_round(x.get(), a.out));
  }
  mpfr_log(t.get(), d.get(), MPFR_RNDN);
  mpfr_add(t.get(), t.get(), m.get(), MPFR_RNDN);
  if (a.base == LseBase::Two) {
    mpfr_const_log2(e.get(), MPFR_RNDN);
    mpfr_div(t.get(), t.get(), e.get(), MPFR_RNDN);
  }
  r.lse = plain_round(t.get(), DType::F32);
  return r;
}

struct Query {
  std::vector<float> q, k, v;
  std::vector<std::uint8_t> masked;
  AttentionQuery view(int head_dim, float scale, LseBase base, DType out) const {
    return AttentionQuery{q.data(),
                          k.data(),
                          v.data(),
                          masked.data(),
                          static_cast<std::int64_t>(masked.size()),
                          head_dim,
                          scale,
                          base,
                          out};
  }
};

void expect_same(const AttentionQuery& a, const char* what, bool mpfr_path = false) {
  const AttentionReference ref = mpfr_path ? attention_reference_mpfr(a) : attention_reference(a);
  ASSERT_EQ(ref.outcome, AttnOutcome::Finite) << what;
  const Plain plain = plain_attention(a);
  EXPECT_EQ(ref.lse_rounded, plain.lse) << what;
  EXPECT_NEAR(ref.lse, plain.lse, 1e-6 * (1 + std::fabs(ref.lse))) << what;
  for (int c = 0; c < a.head_dim; ++c) {
    EXPECT_EQ(ref.o_rounded[c], plain.o[c]) << what << " component " << c;
    EXPECT_LE(std::fabs(ref.o[c]), ref.magnitude[c] * (1 + 0x1p-50)) << what;
  }
}

TEST(AttentionReference, AgreesWithPlainMpfrOnRandomQueries) {
  std::mt19937 rng(20261130);
  const int dims[] = {1, 3, 8, 33, 64, 100, 256};
  const DType types[] = {DType::F32, DType::BF16, DType::F16};
  int cases = 0;
  for (int round = 0; round < 6; ++round)
    for (int dim : dims)
      for (DType t : types) {
        const int len = 1 + static_cast<int>(rng() % 24);
        const double sigma = std::ldexp(1.0, static_cast<int>(rng() % 9) - 4);
        std::normal_distribution<float> value(0.0f, static_cast<float>(sigma));
        Query q;
        for (int c = 0; c < dim; ++c) q.q.push_back(value(rng));
        for (int j = 0; j < len * dim; ++j) {
          q.k.push_back(value(rng));
          q.v.push_back(round_to(t, value(rng)));
        }
        for (int j = 0; j < len; ++j) q.masked.push_back(j > 0 && rng() % 4 == 0);
        const LseBase base = rng() % 2 ? LseBase::E : LseBase::Two;
        expect_same(q.view(dim, 1.0f / std::sqrt(static_cast<float>(dim)), base, t), "random");
        ++cases;
      }
  EXPECT_EQ(cases, 126);
}

TEST(AttentionReference, AgreesWithPlainMpfrOnRationalOutputs) {
  // Equal scores: o_c is the mean of v_jc, a rational the Ziv loop alone could not decide at a
  // midpoint. v = {1, 1 + 2^(1-p)}: the mean 1 + 2^-p is the midpoint of two values of the type
  // (ties to even: 1). With one group of equal scores the plain evaluation is exact too (every
  // e^0 = 1); with two groups of equal means (rational, but through e^1.5 and e^3) only the
  // exact mean decides it, which plain_round gives from the exact midpoint.
  const DType types[] = {DType::F32, DType::BF16, DType::F16};
  for (DType t : types) {
    const float step = std::ldexp(1.0f, 1 - precision_of(t));
    Query q;
    q.q = {1.0f, 0.5f};
    q.k = {1.0f, 1.0f, 1.0f, 1.0f, 3.0f, 0.0f, 3.0f, 0.0f};  // scores 1.5, 1.5, 3, 3
    q.v = {1.0f, -2.0f, 1.0f + step, 2.0f, 1.0f, 0.0f, 1.0f + step, 0.0f};
    q.masked = {0, 0, 1, 1};
    for (LseBase base : {LseBase::E, LseBase::Two})
      expect_same(q.view(2, 1.0f, base, t), "one group");
    MpValue midpoint(64);
    mpfr_set_flt(midpoint.get(), 1.0f, MPFR_RNDN);
    mpfr_add_d(midpoint.get(), midpoint.get(), step / 2, MPFR_RNDN);  // exact
    const float even = plain_round(midpoint.get(), t);
    EXPECT_EQ(even, 1.0f);
    q.masked = {0, 0, 0, 0};
    for (LseBase base : {LseBase::E, LseBase::Two}) {
      const AttentionReference two_groups = attention_reference(q.view(2, 1.0f, base, t));
      EXPECT_EQ(two_groups.o_rounded[0], even) << "equal means, a midpoint";
      EXPECT_EQ(two_groups.o_rounded[1], 0.0f) << "equal means 0";
      EXPECT_EQ(two_groups.lse_rounded, plain_attention(q.view(2, 1.0f, base, t)).lse);
    }
  }
}

TEST(AttentionReference, AgreesWithPlainMpfrWithFp8Scales) {
  // fp8 K/V: k and v random e4m3 / e5m2 values, the scales drawn from powers of two, 1.5 and
  // floats of 24 significant bits (whose products with the values are no floats): both paths
  // against the plain evaluation of the scaled definition.
  std::mt19937 rng(20260311);
  const float scales[] = {1.0f, 0.5f, 0x1p-7f, 1.5f, 0x1.24924ap-9f, 0x1.6a09e6p+3f};
  const DType kv_types[] = {DType::E4M3, DType::E5M2};
  const DType types[] = {DType::F32, DType::BF16, DType::F16};
  int cases = 0;
  for (int round = 0; round < 6; ++round)
    for (int dim : {1, 4, 16})
      for (DType t : types) {
        const DType kv = kv_types[rng() % 2];
        const int len = 1 + static_cast<int>(rng() % 12);
        std::normal_distribution<float> value(0.0f, 2.0f);
        Query q;
        for (int c = 0; c < dim; ++c) q.q.push_back(round_to(t, value(rng)));
        for (int j = 0; j < len * dim; ++j) {
          q.k.push_back(round_to(kv, value(rng)));
          q.v.push_back(round_to(kv, value(rng)));
        }
        for (int j = 0; j < len; ++j) q.masked.push_back(j > 0 && rng() % 4 == 0);
        AttentionQuery a = q.view(dim, 0.5f, rng() % 2 ? LseBase::E : LseBase::Two, t);
        a.k_scale = scales[rng() % 6];
        a.v_scale = scales[rng() % 6];
        expect_same(a, "fp8 K/V");
        expect_same(a, "fp8 K/V, MPFR path", true);
        ++cases;
      }
  EXPECT_EQ(cases, 54);
}

TEST(AttentionReference, ScalesOfFewBitsGiveTheDequantisedAttention) {
  // With scales of at most 2 significant bits k_scale k_jc and v_scale v_jc are floats: the
  // scaled query and the one of the dequantised floats are the same attention, bit for bit in
  // the rounded outputs, the doubles within their promise (2^-52 each).
  std::mt19937 rng(20260312);
  std::normal_distribution<float> value(0.0f, 3.0f);
  for (int round = 0; round < 20; ++round) {
    const int dim = 1 + static_cast<int>(rng() % 8), len = 1 + static_cast<int>(rng() % 10);
    const float scales[] = {0.25f, 1.5f, 0x1p-7f, 3.0f};
    const float ks = scales[rng() % 4], vs = scales[rng() % 4];
    Query stored, dequantised;
    for (int c = 0; c < dim; ++c) stored.q.push_back(value(rng));
    dequantised.q = stored.q;
    for (int j = 0; j < len * dim; ++j) {
      stored.k.push_back(round_to(DType::E4M3, value(rng)));
      stored.v.push_back(round_to(DType::E4M3, value(rng)));
      dequantised.k.push_back(ks * stored.k.back());  // exact: 4 + 2 bits, no underflow
      dequantised.v.push_back(vs * stored.v.back());
    }
    stored.masked = dequantised.masked = std::vector<std::uint8_t>(static_cast<std::size_t>(len));
    AttentionQuery a = stored.view(dim, 0.75f, LseBase::E, DType::F32);
    a.k_scale = ks;
    a.v_scale = vs;
    const AttentionReference got = attention_reference(a);
    const AttentionReference want =
        attention_reference(dequantised.view(dim, 0.75f, LseBase::E, DType::F32));
    EXPECT_EQ(got.lse_rounded, want.lse_rounded) << round;
    for (int c = 0; c < dim; ++c) {
      EXPECT_EQ(got.o_rounded[c], want.o_rounded[c]) << round << " component " << c;
      EXPECT_LE(std::fabs(got.o[c] - want.o[c]), 0x1p-51 * want.magnitude[c]) << round;
      EXPECT_LE(std::fabs(got.magnitude[c] - want.magnitude[c]), 0x1p-51 * want.magnitude[c]);
    }
  }
}

TEST(AttentionReference, AScaledMeanAtAMidpointRoundsToEven) {
  // Two keys of equal scores and v = 1 each: o = v_scale exactly, a rational. v_scale =
  // 1 + 3 2^-8 is the bf16 midpoint between 1 + 2^-7 (odd) and 1 + 2^-6 (even): no interval
  // decides it, the exact mean of the scaled values does (to the even 1 + 2^-6); unscaled it
  // would be 1.
  Query q;
  q.q = {1.0f};
  q.k = {2.0f, 2.0f};
  q.v = {1.0f, 1.0f};
  q.masked = {0, 0};
  AttentionQuery a = q.view(1, 1.0f, LseBase::E, DType::BF16);
  a.v_scale = 1.0f + 3 * 0x1p-8f;
  a.k_scale = 0x1p-3f;
  const AttentionReference r = attention_reference(a);
  EXPECT_TRUE(r.mpfr) << "a midpoint: the fast path cannot decide it";
  EXPECT_EQ(r.o_rounded[0], 1.0f + 0x1p-6f);
  EXPECT_EQ(r.o[0], 1.0 + 3 * 0x1p-8);
  expect_same(a, "a scaled midpoint");
}

TEST(AttentionReference, SpecialOutcomes) {
  Query q;
  q.q = {1.0f};
  q.k = {NAN, 2.0f};
  q.v = {NAN, INFINITY};
  q.masked = {1, 1};
  const AttentionReference empty = attention_reference(q.view(1, 1.0f, LseBase::E, DType::F32));
  EXPECT_EQ(empty.outcome, AttnOutcome::Empty);
  EXPECT_EQ(empty.lse_rounded, -INFINITY);
  EXPECT_EQ(empty.o_rounded[0], 0.0f);
  q.masked = {1, 0};
  const AttentionReference inf_v = attention_reference(q.view(1, 1.0f, LseBase::E, DType::F32));
  EXPECT_EQ(inf_v.outcome, AttnOutcome::Finite);
  EXPECT_FALSE(inf_v.o_finite[0]);
  EXPECT_EQ(inf_v.lse_rounded, 2.0f) << "one key: lse is its score exactly";
  q.masked = {0, 0};
  EXPECT_EQ(attention_reference(q.view(1, 1.0f, LseBase::E, DType::F32)).outcome,
            AttnOutcome::NotFinite);
}

TEST(MergeReference, IsTheAttentionOfTheUnion) {
  // Two single-key partials (lse = score, o = v) merge to the attention over both keys.
  Query q;
  q.q = {0.75f, -1.25f};
  q.k = {1.0f, 2.0f, -3.0f, 0.5f};
  q.v = {0.5f, -4.0f, 3.0f, 0x1p-3f};
  q.masked = {0, 0};
  for (LseBase base : {LseBase::E, LseBase::Two}) {
    const AttentionReference whole = attention_reference(q.view(2, 1.0f, base, DType::F32));
    const double beta = base == LseBase::E ? 1.0 : 1.0 / std::log(2.0);
    const float s0 = static_cast<float>((0.75 - 2.5) * beta),
                s1 = static_cast<float>((-2.25 - 0.625) * beta);
    const MergeReference m =
        merge_reference({s0, s1, -INFINITY}, {{0.5f, -4.0f}, {3.0f, 0x1p-3f}, {NAN, NAN}}, 2, base);
    ASSERT_EQ(m.outcome, AttnOutcome::Finite);
    // s0, s1 are the scores rounded to float: the merge is exact for those, so compare loosely.
    EXPECT_NEAR(m.lse, whole.lse, 1e-6);
    for (int c = 0; c < 2; ++c) EXPECT_NEAR(m.o[c], whole.o[c], 1e-6);
  }
  EXPECT_EQ(merge_reference({-INFINITY, -INFINITY}, {{1.0f}, {2.0f}}, 1, LseBase::E).outcome,
            AttnOutcome::Empty);
  EXPECT_EQ(merge_reference({NAN, 1.0f}, {{1.0f}, {2.0f}}, 1, LseBase::E).outcome,
            AttnOutcome::NotFinite);
}

}  // namespace
}  // namespace osvs::oracle
