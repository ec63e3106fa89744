// The attention laws across calls added for issue 31 (split_invariance, chunked_prefill,
// prefill_decode) on hand-made kernels: each law asks for the bits unless the kernel declares
// it not bitwise (then for the contract), and a kernel whose declaration rules a law out is told
// why. The property runs on osvs's own kernels are the builtin testbed's; the mutants they kill,
// attention_mutants_test.cpp's.
#include <gtest/gtest.h>

#include <cmath>

#include "osvs/api/attention_laws.h"
#include "osvs/api/kind.h"
#include "tiled_attention.h"

namespace osvs::test {
namespace {

using builtin::TiledAttention;

/// One sequence of 3 queries and 3 keys, head_dim 1, causal (bottom-right): chunks of it have
/// fewer queries than keys, its decode step is query 2 over the 3 keys.
AttentionCase causal_case() {
  AttentionCase c;
  c.seqs = {{3, 3}};
  c.q = {0.5f, 1, -1};
  c.k = {1, 2, 3};
  c.v = {1, -1, 2};
  c.mask = {MaskKind::Causal, MaskAlign::BottomRight, -1, -1};
  return c;
}

/// The tiled kernel with its first o element one ulp up where `nudged(p)` (a path that rounds
/// otherwise), split parameters ignored.
template <bool (*Nudged)(const AttentionProblem&)>
void nudged_where(const AttentionProblem& p) {
  AttentionProblem own = p;
  own.kv_splits = 0;
  builtin::tiled_attention<TiledAttention>(own);
  if (Nudged(p)) p.o<float>()[0] = std::nextafter(p.o<float>()[0], INFINITY);
}

/// A launch whose first sequence has fewer queries than keys: a chunk after the first.
bool chunk_after_the_first(const AttentionProblem& p) {
  return p.cu_seqlens_q[1] - p.cu_seqlens_q[0] < p.cu_seqlens_k[1] - p.cu_seqlens_k[0];
}
/// A launch of one query a sequence: a decode step.
bool decode_step(const AttentionProblem& p) {
  for (int s = 0; s < p.batch; ++s)
    if (p.cu_seqlens_q[s + 1] - p.cu_seqlens_q[s] != 1) return false;
  return true;
}
/// A launch that asks for a split parameter.
bool asks_for_splits(const AttentionProblem& p) {
  return p.kv_splits != 0;
}

AttentionKernel tiled(const char* name, void (*run)(const AttentionProblem&)) {
  return builtin::declare_tiled_attention(name, run);
}

struct BitwiseCase {
  const char* law;
  void (*run)(const AttentionProblem&);
  /// The declaration that asks for the contract instead of the bits.
  AttentionKernel& (*not_bitwise)(AttentionKernel&);
  /// What the failure names.
  const char* names;
};

const BitwiseCase kBitwiseCases[] = {
    {"chunked_prefill", nudged_where<chunk_after_the_first>,
     [](AttentionKernel& k) -> AttentionKernel& { return k.chunk_bitwise(false); },
     "chunks of 1 queries, chunk 1 against its KV prefix: o[token 1][head 0][0]"},
    {"prefill_decode", nudged_where<decode_step>,
     [](AttentionKernel& k) -> AttentionKernel& { return k.decode_bitwise(false); },
     "the prefill's last rows, then a decode step: o[token 2][head 0][0]"},
    {"split_invariance", nudged_where<asks_for_splits>,
     [](AttentionKernel& k) -> AttentionKernel& { return k.split_bitwise(false); },
     "its own split choice, then a split size of 4: o[token 0][head 0][0]"},
};

class AcrossCalls : public ::testing::TestWithParam<BitwiseCase> {};

TEST_P(AcrossCalls, IsBitwiseUnlessDeclaredOtherwise) {
  const BitwiseCase& b = GetParam();
  const AttentionLaw* law = AttentionKind::find_law(b.law);
  ASSERT_NE(law, nullptr);
  AttentionKernel k = tiled("nudged", b.run);
  k.split_bitwise(true);  // (the tiled kernel declares its splits not bitwise)
  ASSERT_EQ(why_skipped<AttentionKind>(k, *law), "");
  const Verdict bitwise = AttentionKind::check(*law, k, causal_case());
  EXPECT_TRUE(bitwise.fails()) << bitwise.explanation;
  EXPECT_NE(bitwise.explanation.find(b.names), std::string::npos) << bitwise.explanation;
  b.not_bitwise(k);
  const Verdict within = AttentionKind::check(*law, k, causal_case());
  EXPECT_TRUE(within.holds()) << within.explanation;
}

INSTANTIATE_TEST_SUITE_P(Laws, AcrossCalls, ::testing::ValuesIn(kBitwiseCases),
                         [](const auto& info) { return std::string(info.param.law); });

/// The unmutated kernel on the hand case: every law across calls holds bitwise where it
/// declares so (its splits within the contract).
TEST(AcrossCalls, HoldOnTheTiledKernel) {
  const AttentionKernel k = tiled("tiled", builtin::tiled_attention<TiledAttention>);
  for (const char* name : {"split_invariance", "chunked_prefill", "prefill_decode"}) {
    const Verdict v = AttentionKind::check(*AttentionKind::find_law(name), k, causal_case());
    EXPECT_TRUE(v.holds()) << name << ": " << v.explanation;
  }
}

/// A chunk of queries against its KV prefix sees what it sees in one call only where no query
/// sees a key right of its diagonal: an unmasked case is not judged (vacuous), not passed.
TEST(AcrossCalls, ChunksNeedACausalMask) {
  const AttentionKernel k = tiled("tiled", builtin::tiled_attention<TiledAttention>);
  AttentionCase c = causal_case();
  c.mask = {};
  const Verdict v = AttentionKind::check(*AttentionKind::find_law("chunked_prefill"), k, c);
  EXPECT_FALSE(v.judged()) << v.explanation;
  EXPECT_NE(v.explanation.find("right of its diagonal"), std::string::npos) << v.explanation;
}

/// The declarations that rule a law across calls out say why.
TEST(AcrossCalls, ExclusionsSayWhy) {
  AttentionKernel no_splits =
      tiled("osvs.test.no_splits", builtin::tiled_attention<TiledAttention>);
  no_splits = AttentionKernel(no_splits.name(), Where::Host)
                  .run(builtin::tiled_attention<TiledAttention>)
                  .masks({MaskKind::None});
  EXPECT_NE(why_skipped<AttentionKind>(no_splits, *AttentionKind::find_law("split_invariance"))
                .find("declares no KV splits"),
            std::string::npos);
  EXPECT_NE(why_skipped<AttentionKind>(no_splits, *AttentionKind::find_law("chunked_prefill"))
                .find("neither a causal mask nor a window"),
            std::string::npos);
  AttentionKernel top_left = tiled("osvs.test.top_left", builtin::tiled_attention<TiledAttention>);
  top_left.mask_align(MaskAlign::TopLeft);
  for (const char* law : {"chunked_prefill", "prefill_decode"})
    EXPECT_NE(why_skipped<AttentionKind>(top_left, *AttentionKind::find_law(law)).find("top-left"),
              std::string::npos)
        << law;
  AttentionKernel square = tiled("osvs.test.square", builtin::tiled_attention<TiledAttention>);
  square.square_masks();
  EXPECT_NE(why_skipped<AttentionKind>(square, *AttentionKind::find_law("chunked_prefill"))
                .find("square"),
            std::string::npos);
}

/// The new law names are names a declaration may skip; a misspelt one lists them.
TEST(AcrossCalls, TheirNamesAreDeclarable) {
  AttentionKernel k = tiled("osvs.test.skips", builtin::tiled_attention<TiledAttention>);
  k.skip("split_invariance", "a reason").skip("chunked_prefill", "a reason");
  k.known_defect("prefill_decode", "a reason");
  EXPECT_EQ(declaration_problem(k), "");
  k.skip("chunked_prefil", "typo");
  EXPECT_NE(declaration_problem(k).find("chunked_prefill, prefill_decode"), std::string::npos)
      << declaration_problem(k);
}

}  // namespace
}  // namespace osvs::test
