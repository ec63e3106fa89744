// osvs's attention backward kernel (api/builtin/tiled_attention_backward.h) on hand-built cases of
// one sequence of 2 queries and 3 keys, head_dim 2, through the runner (which gives it the
// forward's o and lse as the oracle rounds them): bits derived by hand where the kernel's
// roundings vanish, the bits its GQA path promises, and the accuracy law (the exact gradients,
// attention_backward_reference.h, against the contract derived beside the kernel) on the masks,
// bases and modifiers it declares, sinks and their gradient included; and its device executor's
// threads run on the host, which give the host executor's bits on the sample cases. Its mutants
// are attention_backward_mutants_test.cpp's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "attention_sample_cases.h"

#include "one_sequence_case.h"
#include "osvs/api/attention_laws.h"
#include "osvs/api/attention_runner.h"
#include "osvs/api/kind.h"
#include "osvs/kernels/hex.h"
#include "same_bits.h"
#include "tiled_attention_backward.h"

namespace osvs::test {
namespace {

AttentionKernel tiled_backward() {
  return builtin::declare_tiled_attention_backward(
      "osvs.test.tiled_backward",
      builtin::tiled_attention_backward<builtin::TiledAttentionBackward>);
}

/// One sequence of 2 queries and 3 keys, head_dim 2, `heads_q` query heads over one kv head,
/// f32, values exact in every type.
AttentionCase two_by_three(int heads_q) {
  AttentionCase c =
      one_sequence(2, 3, 2, {1, 2, -1, 0.5f}, {0.5f, 1, 2, -1, 3, 1.5f}, {1, -2, 0.25f, 4, 7, -3});
  c.heads_q = heads_q;
  c.dout = {3, -1, 0.5f, 2};
  if (heads_q == 2) {  // (token, head, component)
    c.q = {1, 2, 0.75f, -1.5f, -1, 0.5f, 2, 0.125f};
    c.dout = {3, -1, -2, 1, 0.5f, 2, 1.5f, -0.25f};
  }
  return c;
}

/// Bits equal (so +0 and -0 differ), printed readably.
void expect_bits(float got, float want, const char* what, std::size_t index) {
  EXPECT_EQ(std::signbit(got), std::signbit(want))
      << what << "[" << index << "]: " << readable(got);
  EXPECT_TRUE(got == want || (std::isnan(got) && std::isnan(want)))
      << what << "[" << index << "]: " << readable(got) << ", want " << readable(want);
}

void expect_accurate(const AttentionKernel& k, const AttentionCase& c) {
  const Verdict v = AttentionKind::check(*AttentionKind::find_law("accuracy"), k, c);
  EXPECT_TRUE(v.holds()) << AttentionKind::summary(c) << ": " << v.explanation;
}

// Window (0, 0) top-left: row i keeps key i alone, key 2 no row. With one kept key P = 1, o = v_i
// (exact) and lse = its score (exact: small integers), so dP - delta = 0 bit for bit (the same fma
// chain): dq = 0, dk = 0, dv_i = dout_i, delta_i = dout_i . v_i, and dk_2 = dv_2 = +0.
TEST(TiledAttentionBackward, OneKeptKeyGivesDvDoutAndZeroDq) {
  AttentionKernel k = tiled_backward();
  k.mask_align(MaskAlign::TopLeft);
  AttentionCase c = two_by_three(1);
  c.k = {0.5f, 1, 2, -1, 3, 3};
  c.v = {1, -2, 0.25f, 4, 7, 7};
  c.mask = {MaskKind::Window, MaskAlign::TopLeft, 0, 0};
  const AttentionOutputs out = run_attention_kernel(k, c);
  for (std::size_t e = 0; e < out.dq.size(); ++e) expect_bits(out.dq[e], 0.0f, "dq", e);
  for (std::size_t e = 0; e < out.dk.size(); ++e) expect_bits(out.dk[e], 0.0f, "dk", e);
  const std::vector<float> dv = {3, -1, 0.5f, 2, 0, 0};
  for (std::size_t e = 0; e < dv.size(); ++e) expect_bits(out.dv[e], dv[e], "dv", e);
  expect_bits(out.delta[0], 3 * 1 + -1 * -2, "delta", 0);
  expect_bits(out.delta[1], 0.5f * 0.25f + 2 * 4, "delta", 1);
}

// dout = 0: delta, dP and dS vanish, and every gradient is +0 whatever the scores.
TEST(TiledAttentionBackward, ZeroDoutGivesZeroGradients) {
  AttentionCase c = two_by_three(2);
  c.dout.assign(c.dout.size(), 0.0f);
  c.scale = 0.5f;
  const AttentionOutputs out = run_attention_kernel(tiled_backward(), c);
  for (const auto& [what, x] : {std::pair{"dq", &out.dq}, std::pair{"dk", &out.dk},
                                std::pair{"dv", &out.dv}, std::pair{"delta", &out.delta}})
    for (std::size_t e = 0; e < x->size(); ++e) expect_bits((*x)[e], 0.0f, what, e);
}

// Within the derived contract of the exact gradients: no mask; causal with a base-2 lse and two
// query heads on one kv head; a softcap with ALiBi (at c = 1 the scores reach |s| / c ~ 1, where
// the softcap's derivative matters).
TEST(TiledAttentionBackward, WithinItsContract) {
  const AttentionKernel k = tiled_backward();
  AttentionCase plain = two_by_three(1);
  plain.scale = 0.5f;
  expect_accurate(k, plain);
  AttentionCase causal = two_by_three(2);
  causal.mask = {MaskKind::Causal, MaskAlign::BottomRight, -1, -1};
  causal.base = LseBase::Two;
  causal.scale = 0.75f;
  expect_accurate(k, causal);
  AttentionCase capped = two_by_three(2);
  capped.alibi_slopes = {0.5f, 0.25f};
  capped.scale = 2;
  for (const float cap : {5.0f, 1.0f}) {
    capped.softcap = cap;
    expect_accurate(k, capped);
  }
  // Sinks: about the scores (their gradient dsinks judged too), and one that dominates scores
  // near 0 (scale 2^-6): the lse is then ~80, and P = e^(w - lse) may err by up to 1.5 u |lse|
  // ~ 120 u from the lse's rounding and the subtraction, which the contract carries in
  // S = max(S, |sink|) (AttentionGradAccuracy).
  AttentionCase sunk = two_by_three(2);
  sunk.sinks = {0.75f, -1.5f};
  expect_accurate(k, sunk);
  sunk.scale = 0x1p-6f;
  sunk.sinks = {80, 80};
  expect_accurate(k, sunk);
}

// f16 with o and dout below f16's normals (2^-14): the kernel forms delta = sum_c dout_c o_c from
// the given o, rounded to f16, which a subnormal o leaves within 2^-25 absolutely, not 2^-11
// relatively: delta errs by up to 2^-25 sum_c |dout_c|, and dq and dk by that times |scale k| and
// |scale q| (tiled_attention_backward.h derives it; AttentionGradAccuracy's underflow term carries
// it). Three keys of equal scores (q = 0: P = 1/3) or nearly so (q small), values of v whose
// averages fall between f16's subnormals (2^-24 / 3, 11 2^-24 / 3, (2^-14 + 2^-24) / 3), and dout
// from 2^-24 to 60000 (the largest term the rounded o leaves out: 60000 2^-24 / 3); with and
// without a sink (dsinks reads delta too).
TEST(TiledAttentionBackward, SubnormalF16OAndDoutWithinItsContract) {
  const AttentionKernel k = tiled_backward();
  const float tiny = 0x1p-24f;  // f16's smallest subnormal
  AttentionCase c;
  c.in_type = DType::F16;
  c.seqs = {{2, 3}};
  c.head_dim_qk = c.head_dim_v = 4;
  c.scale = 0.5f;
  c.k = {1, -1, 0.5f, 0, -0.5f, 0.25f, 1, 1, 0, 0.75f, -1, 0.5f};
  // (key, component): component 0 averages 2^-24 / 3, 1 11 2^-24 / 3, 2 (2^-14 + 2^-24) / 3
  // (subnormal), 3 1/6 (normal)
  c.v = {tiny, 7 * tiny, 0x1p-14f, 1, 0, tiny, tiny, -1, 0, 3 * tiny, 0, 0.5f};
  int subnormal_rounded = 0, judged = 0;
  for (const float big : {60000.0f, 1024.0f, 1.0f})
    for (const bool q_zero : {true, false})
      for (const bool sink : {false, true}) {
        c.q = q_zero ? std::vector<float>(8, 0.0f)
                     : std::vector<float>{0x1p-6f, 0, -0x1p-7f, 0x1p-5f, 0, 0x1p-8f, 0, -0x1p-6f};
        c.dout = {big, tiny, 1024, -3 * 0x1p-20f, -big, 5 * tiny, -2, 0x1p-15f};
        c.sinks = sink ? std::vector<float>{-0.5f} : std::vector<float>{};
        ASSERT_EQ(attention_case_problem(c), "");
        const AttentionExact e = exact_attention(c, DType::F16);
        for (std::size_t i = 0; i < e.o.size(); ++i)
          subnormal_rounded +=
              std::fabs(e.o_rounded[i]) < 0x1p-14f && static_cast<double>(e.o_rounded[i]) != e.o[i]
                  ? 1
                  : 0;
        expect_accurate(k, c);
        ++judged;
      }
  EXPECT_EQ(judged, 12);
  EXPECT_GE(subnormal_rounded, 24);  // the two subnormal components at least, in every case
}

// Two equal keys get equal gradients, bit for bit (the same operations on the same bits).
TEST(TiledAttentionBackward, EqualKeysEqualGradients) {
  AttentionCase c = two_by_three(1);
  c.k = {0.5f, 1, 0.5f, 1, 3, 1.5f};
  c.v = {1, -2, 1, -2, 7, -3};
  const AttentionOutputs out = run_attention_kernel(tiled_backward(), c);
  for (std::size_t x = 0; x < 2; ++x) {
    expect_bits(out.dk[2 + x], out.dk[x], "dk", 2 + x);
    expect_bits(out.dv[2 + x], out.dv[x], "dv", 2 + x);
  }
}

// A kv head with one query head gives the bits of that head alone, and GQA the left-to-right sum
// of its heads' own: dk of two query heads on one kv head is fl(dk_a + dk_b) of the run with a
// copy of the kv head each; dq is each head's own.
TEST(TiledAttentionBackward, GqaSumsTheCopiesBits) {
  const AttentionCase shared = two_by_three(2);
  AttentionCase copies = shared;
  copies.heads_kv = 2;
  copies.k = {0.5f, 1, 0.5f, 1, 2, -1, 2, -1, 3, 1.5f, 3, 1.5f};
  copies.v = {1, -2, 1, -2, 0.25f, 4, 0.25f, 4, 7, -3, 7, -3};
  const AttentionOutputs a = run_attention_kernel(tiled_backward(), shared);
  const AttentionOutputs b = run_attention_kernel(tiled_backward(), copies);
  for (std::size_t e = 0; e < a.dq.size(); ++e) expect_bits(a.dq[e], b.dq[e], "dq", e);
  for (std::size_t j = 0; j < 3; ++j)
    for (std::size_t x = 0; x < 2; ++x) {
      expect_bits(a.dk[j * 2 + x], b.dk[j * 4 + x] + b.dk[j * 4 + 2 + x], "dk", j * 2 + x);
      expect_bits(a.dv[j * 2 + x], b.dv[j * 4 + x] + b.dv[j * 4 + 2 + x], "dv", j * 2 + x);
    }
}

// The device executor's thread of a token row finds its sequence by walking the prefix sums:
// sequences without queries or keys are passed over (two of five tokens, none, three).
TEST(TiledAttentionBackward, TokensFindTheirSequencePastEmptyOnes) {
  const std::int32_t cu[] = {0, 2, 2, 5};
  const int want[] = {0, 0, 2, 2, 2};
  for (std::int64_t t = 0; t < 5; ++t)
    EXPECT_EQ(builtin::backward_sequence_of(cu, t), want[t]) << "token " << t;
}

/// The device executor's threads (tiled_attention_backward_elements.h) run on the host, every one
/// of each launch, in reverse order: each element is its thread's alone, so any order gives the
/// same bits.
void device_threads_on_host(const AttentionProblem& p) {
  using builtin::TiledAttentionBackward;
  builtin::check_tiled_backward_problem(p);
  for (std::int64_t t = p.total_q * p.heads_q; t-- > 0;)
    builtin::tiled_attention_backward_row_thread<TiledAttentionBackward, builtin::LibraryMath>(p,
                                                                                               t);
  for (std::int64_t t = p.total_k * p.heads_kv; t-- > 0;)
    builtin::tiled_attention_backward_key_thread<TiledAttentionBackward, builtin::LibraryMath>(
        p, t, false);
  for (int h = p.heads_q; p.sinks != nullptr && h-- > 0;)
    builtin::tiled_attention_backward_sink<TiledAttentionBackward, builtin::LibraryMath>(p, h,
                                                                                         false);
}

// The device's thread mapping, run on the host with the host's elementary functions, gives the
// host executor's bits on the 400 sample cases fitted to the backward (varlen batches with
// sequences without queries or keys, GQA, every mask, softcap, sinks, ALiBi, both bases): what
// the GPU test adds is the device's arithmetic, not the indexing.
TEST(TiledAttentionBackward, DeviceThreadsGiveTheHostsBits) {
  AttentionKernel host = tiled_backward();
  AttentionKernel threads =
      builtin::declare_tiled_attention_backward("osvs.test.device_threads", device_threads_on_host);
  expect_same_bits_on_every_case(host, threads, attention_backward_sample_cases(400, 20261203));
}

}  // namespace
}  // namespace osvs::test
