// The cascade law (attention_cascade_law.cpp): on osvs's tiled kernel a shared prefix's partial
// and the suffix's, merged by osvs's merge, give the one call within the merge bound; a merge
// that drops the partials' weights fails it with the element and the bound named; a case with
// no shared prefix is not judged (vacuous), and the declarations that rule the law out say why.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "builtin_merge.h"
#include "law_run.h"
#include "one_sequence_case.h"
#include "osvs/api/attention_laws.h"
#include "osvs/api/kind.h"
#include "osvs/api/registry.h"
#include "tiled_attention.h"

namespace osvs::test {
namespace {

using builtin::TiledAttention;

/// One sequence of 2 queries and 5 keys, head_dim 2, bottom-right causal: every query sees keys
/// 0 ... 3, so prefixes of 1 to 3 keys are shared.
AttentionCase causal_case() {
  AttentionCase c =
      one_sequence(2, 5, 2, {0.5f, 1, -1, 0.25f}, {1, 2, 3, -1, 0.5f, 0.5f, -2, 1, 1, 1},
                   {1, -1, 2, 0.5f, -3, 1, 0.25f, 4, 2, 2});
  c.mask = {MaskKind::Causal, MaskAlign::BottomRight, -1, -1};
  return c;
}

/// A merge that averages the partials' o, ignoring their lse: right only for equal weights.
void unweighted_merge(const MergeProblem& p) {
  for (std::int64_t r = 0; r < p.rows; ++r) {
    for (int c = 0; c < p.head_dim; ++c)
      p.o_out<float>()[r * p.head_dim + c] =
          (p.o_a<float>()[r * p.head_dim + c] + p.o_b<float>()[r * p.head_dim + c]) / 2;
    p.lse_out[r] = std::max(p.lse_a[r], p.lse_b[r]);
  }
}

const char* kUnweighted = "osvs.test.unweighted_merge";
const char* kModel = "osvs.merge_states.cpu_model";

AttentionKernel tiled(const char* name, const std::string& merge) {
  if (find_registered<MergeKernel>(kUnweighted) == nullptr) {
    register_kernel(MergeKernel(kUnweighted, Where::Host).run(unweighted_merge));
    register_kernel(builtin::merge_cpu_model_kernel());  // (this program links no builtin entry)
  }
  return builtin::declare_tiled_attention(name, builtin::tiled_attention<TiledAttention>)
      .cascade_merge(merge);
}

const AttentionLaw& cascade() {
  return *AttentionKind::find_law("cascade");
}

TEST(Cascade, HoldsOnTheTiledKernelMergedByOsvsMerge) {
  const AttentionKernel k = tiled("osvs.test.tiled", kModel);
  ASSERT_EQ(why_skipped<AttentionKind>(k, cascade()), "");
  const Verdict v = AttentionKind::check(cascade(), k, causal_case());
  EXPECT_TRUE(v.holds()) << v.explanation;
}

TEST(Cascade, AMergeThatDropsTheWeightsFails) {
  const AttentionKernel k = tiled("osvs.test.tiled_unweighted", kUnweighted);
  const Verdict v = AttentionKind::check(cascade(), k, causal_case());
  ASSERT_TRUE(v.fails()) << v.explanation;
  EXPECT_NE(v.explanation.find("merged by osvs.test.unweighted_merge"), std::string::npos)
      << v.explanation;
  EXPECT_NE(v.explanation.find("merge bound"), std::string::npos) << v.explanation;
  // The property run finds it too and shrinks it to one sequence of a few keys.
  const auto run =
      testbed::run_law<AttentionKind>(cascade(), k, 5, [](const Verdict&, const AttentionCase&) {});
  ASSERT_FALSE(run.errored()) << run.property_failure;
  ASSERT_TRUE(run.failed());
  EXPECT_EQ(run.smallest->seqs.size(), 1u) << AttentionKind::summary(*run.smallest);
  EXPECT_LE(run.smallest->seqs[0].k_len, 4) << AttentionKind::summary(*run.smallest);
}

TEST(Cascade, NoSharedPrefixIsNotJudged) {
  const AttentionKernel k = tiled("osvs.test.tiled", kModel);
  AttentionCase window = causal_case();
  window.mask = {MaskKind::Window, MaskAlign::BottomRight, 1, 0};
  EXPECT_FALSE(AttentionKind::check(cascade(), k, window).judged());
  AttentionCase sinks = causal_case();
  sinks.sinks = {0.5f};
  const Verdict v = AttentionKind::check(cascade(), k, sinks);
  EXPECT_FALSE(v.judged());
  EXPECT_NE(v.explanation.find("sinks"), std::string::npos) << v.explanation;
}

TEST(Cascade, ExclusionsSayWhy) {
  const AttentionKernel none =
      builtin::declare_tiled_attention("osvs.test.none", builtin::tiled_attention<TiledAttention>)
          .cascade_merge("");
  EXPECT_NE(why_skipped<AttentionKind>(none, cascade()).find("names no cascade merge"),
            std::string::npos);
  const AttentionKernel unknown = tiled("osvs.test.unknown", "osvs.no_such_merge");
  EXPECT_NE(why_skipped<AttentionKind>(unknown, cascade()).find("not registered"),
            std::string::npos);
  AttentionKernel no_lse = AttentionKernel("osvs.test.no_lse", Where::Host)
                               .run(builtin::tiled_attention<TiledAttention>)
                               .cascade_merge(kModel);
  EXPECT_NE(declaration_problem(no_lse).find("writes no lse"), std::string::npos)
      << declaration_problem(no_lse);
}

}  // namespace
}  // namespace osvs::test
