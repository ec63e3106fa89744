// The attention combine and merge on hand-picked operands: the exact laws their headers claim
// (identity on either side, empty (+) empty = empty, canonical NaN, bitwise commutativity on ties
// and signed zeros) and the CPU model's split decode on cases whose result is exact. Random
// operands are the property tests' (properties/tests/attention_laws_test.cpp).
#include <gtest/gtest.h>

#include <cmath>

#include "osvs/kernels/attention/attention_executor.h"
#include "osvs/kernels/attention/attention_state.h"
#include "osvs/kernels/attention/merge_states.h"
#include "osvs/kernels/validate.h"

namespace osvs {
namespace {

constexpr float kInf = INFINITY;
constexpr LseBase kBases[] = {LseBase::E, LseBase::Two};

TEST(AttentionCombine, EmptyIsAnExactIdentityOnEitherSide) {
  const State empty = identity_state();
  const State s{0x1.8p-3f, 0x1.4p+1f};
  for (LseBase base : kBases) {
    for (const bool left : {true, false}) {
      const AttnWeights w = left ? attn_combine(empty, s, base) : attn_combine(s, empty, base);
      EXPECT_TRUE(bitwise_equal(w.s, s));
      const float o = -0.0f;  // -0 + 0 would be +0: the empty side must be selected away
      const float got = left ? attn_combine_o(w, 1e30f, o) : attn_combine_o(w, o, NAN);
      EXPECT_EQ(float_bits(got), float_bits(o));
    }
    const AttnWeights both = attn_combine(empty, empty, base);
    EXPECT_TRUE(bitwise_equal(both.s, empty));
    EXPECT_EQ(float_bits(attn_combine_o(both, NAN, kInf)), float_bits(0.0f));
    EXPECT_EQ(attn_lse(both.s, base), -kInf);
    EXPECT_EQ(float_bits(attn_normalise(0.0f, both.s)), float_bits(0.0f));
  }
}

TEST(AttentionCombine, TiesAndSignedZerosCommuteBitwise) {
  const State a{-0.0f, 3.0f}, b{0.0f, 0x1.000002p+0f};
  for (LseBase base : kBases) {
    const AttnWeights ab = attn_combine(a, b, base), ba = attn_combine(b, a, base);
    EXPECT_TRUE(bitwise_equal(ab.s, ba.s));
    EXPECT_EQ(float_bits(ab.s.m), float_bits(0.0f));
    EXPECT_EQ(float_bits(attn_combine_o(ab, 0x1p-149f, -3.0f)),
              float_bits(attn_combine_o(ba, -3.0f, 0x1p-149f)));
  }
}

TEST(AttentionCombine, NanOperandsGiveTheCanonicalNan) {
  const State nan_state{bits_float(0xffc00001u), 1.0f};
  for (LseBase base : kBases) {
    const AttnWeights w = attn_combine(identity_state(), nan_state, base);
    EXPECT_EQ(float_bits(w.s.m), float_bits(canonical_nan()));
    EXPECT_EQ(float_bits(attn_combine_o(w, 0.0f, 1.0f)), float_bits(canonical_nan()));
    EXPECT_TRUE(std::isnan(attn_lift(kInf).m));
    EXPECT_TRUE(bitwise_equal(attn_lift(-kInf), identity_state()));
  }
}

TEST(MergeStates, EmptyPartialsAndSpecials) {
  for (LseBase base : kBases) {
    const LseMerge left = merge_lse(-kInf, 0x1.8p+2f, base);
    EXPECT_EQ(float_bits(left.lse), float_bits(0x1.8p+2f));
    EXPECT_EQ(float_bits(merge_o(left, NAN, -0.0f)), float_bits(-0.0f));
    const LseMerge right = merge_lse(0x1.8p+2f, -kInf, base);
    EXPECT_EQ(float_bits(merge_o(right, -0.0f, kInf)), float_bits(-0.0f));
    const LseMerge both = merge_lse(-kInf, -kInf, base);
    EXPECT_EQ(both.lse, -kInf);
    EXPECT_EQ(float_bits(merge_o(both, NAN, NAN)), float_bits(0.0f));
    for (const float bad : {NAN, kInf, bits_float(0x7fa00000u)}) {
      const LseMerge m = merge_lse(bad, 1.0f, base);
      EXPECT_EQ(float_bits(m.lse), float_bits(canonical_nan()));
      EXPECT_EQ(float_bits(merge_o(m, 1.0f, 1.0f)), float_bits(canonical_nan()));
    }
  }
}

TEST(MergeStates, EqualLseMergesToTheMeanWithLogOfTwo) {
  // e = b^0 = 1 exactly, d = 2: o = fl(o_a + o_b) / 2, lse = lse + log_b(2); log2(2) = 1 exactly.
  const LseMerge two = merge_lse(5.0f, 5.0f, LseBase::Two);
  EXPECT_EQ(two.lse, 6.0f);
  EXPECT_EQ(merge_o(two, 1.0f, 2.0f), 1.5f);
  const LseMerge e = merge_lse(-0.0f, 0.0f, LseBase::E);
  EXPECT_EQ(float_bits(e.lse), float_bits(merge_lse(0.0f, -0.0f, LseBase::E).lse));
  EXPECT_NEAR(e.lse, std::log(2.0), 1e-7);
}

TEST(CpuSplitDecode, OneKeyGivesItsScoreAndItsValue) {
  // One unmasked key: m = its score, d = 1, lse = m + log(1) = m, o = v / 1 = v; every other
  // split is empty and merges as the identity.
  DecodeProblem p;
  p.head_dim = 3;
  p.kv_len = 4;
  p.q = {1.0f, 2.0f, 0.5f};
  p.k.assign(12, 0.0f);
  p.v.assign(12, 7.0f);
  p.masked = {1, 1, 0, 1};
  p.k[6] = 0.25f;  // key 2: dot = 1 * 0.25
  p.v[6] = -1.5f;
  p.v[7] = 0x1p-140f;
  p.v[8] = 3.0f;
  p.scale = 2.0f;
  const auto cpu = make_cpu_attention_executor();
  SplitPlan plan{{0, 2, 2, 4}, {{0, 2}, {0, 1}}};
  const DecodeResult r = cpu->split_decode(p, plan);
  EXPECT_EQ(r.out.lse[0], 0.5f);
  EXPECT_EQ(r.out.o, (std::vector<float>{-1.5f, 0x1p-140f, 3.0f}));
  EXPECT_EQ(r.partials[0].lse[0], -kInf);
  EXPECT_EQ(r.partials[1].o, (std::vector<float>{0.0f, 0.0f, 0.0f}));
}

TEST(CpuSplitDecode, FullyMaskedQueryGivesTheEmptyResult) {
  DecodeProblem p;
  p.head_dim = 2;
  p.kv_len = 2;
  p.q = {1.0f, NAN};
  p.k = {NAN, 1.0f, 2.0f, 3.0f};
  p.v = {NAN, NAN, kInf, 1.0f};
  p.masked = {1, 1};
  const auto cpu = make_cpu_attention_executor();
  const DecodeResult r = cpu->split_decode(p, SplitPlan{{0, 1, 2}, {{0, 1}}});
  EXPECT_EQ(r.out.lse[0], -kInf);
  EXPECT_EQ(float_bits(r.out.o[0]), float_bits(0.0f));
  EXPECT_EQ(float_bits(r.out.o[1]), float_bits(0.0f));
}

TEST(SplitDecodeValidation, RejectsInconsistentPlans) {
  DecodeProblem p;
  p.head_dim = 2;
  p.kv_len = 3;
  p.q = {1.0f, 1.0f};
  p.k.assign(6, 1.0f);
  p.v.assign(6, 1.0f);
  const auto cpu = make_cpu_attention_executor();
  const auto rejects = [&](const SplitPlan& plan) {
    EXPECT_THROW(cpu->split_decode(p, plan), InvalidLaunch);
  };
  rejects(SplitPlan{{0, 2}, {}});                      // does not end at kv_len
  rejects(SplitPlan{{0, 2, 1, 3}, {{0, 1}, {0, 2}}});  // decreasing offsets
  rejects(SplitPlan{{0, 1, 3}, {}});                   // two splits, no merge
  rejects(SplitPlan{{0, 1, 3}, {{1, 0}}});             // merged into slot 1, not 0
  rejects(SplitPlan{{0, 1, 2, 3}, {{0, 1}, {0, 1}}});  // slot 1 merged twice
  DecodeProblem wide = p;  // consistent sizes, head_dim beyond the kernel's 256
  wide.head_dim = 257;
  wide.q.assign(257, 1.0f);
  wide.k.assign(3 * 257, 1.0f);
  wide.v.assign(3 * 257, 1.0f);
  EXPECT_THROW(cpu->split_decode(wide, SplitPlan{{0, 3}, {}}), InvalidLaunch);
  EXPECT_NO_THROW(cpu->split_decode(p, SplitPlan{{0, 3}, {}}));
}

}  // namespace
}  // namespace osvs
