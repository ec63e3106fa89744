// Engines' shapes for merge kernels: tokens x heads rows, lse [tokens, heads] or [heads, tokens],
// o with padded heads and tokens, the head_dims a kernel takes. A kernel that declares its shape
// passes on every shape it declares; one that misreads its declared layout or strides is caught
// with a case that shows why (two heads and two tokens, or padding), and one that writes into
// the padding is named.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "law_run.h"
#include "osvs/api/kind.h"
#include "osvs/api/merge_host_io.h"
#include "osvs/api/merge_runner.h"
#include "osvs/api/registry.h"
#include "osvs/kernels/attention/merge_model.h"

namespace osvs::test {
namespace {

/// What the launches of one law run looked like.
struct Seen {
  std::set<std::int64_t> heads;
  std::set<int> head_dims;
  bool padded = false;
  bool both_layouts_differ = false;  ///< some launch had 2+ heads and 2+ tokens
};

/// A correct merge through the launch's strides and layout (merge_host_io.h), recording shapes.
MergeKernelFn engine_merge(Seen* seen) {
  return [seen](const MergeProblem& p) {
    seen->heads.insert(p.heads);
    seen->head_dims.insert(p.head_dim);
    seen->padded = seen->padded || p.o_head_stride > p.head_dim ||
                   p.o_token_stride > p.heads * p.o_head_stride;
    seen->both_layouts_differ = seen->both_layouts_differ || (p.heads > 1 && p.tokens() > 1);
    store_result(p, merge_states_model(operand_a(p), operand_b(p), p.base));
  };
}

/// The engine's declaration: lse [heads, tokens], padded o, head_dim 8, 64 or 128.
MergeKernel engine_kernel(const std::string& name, MergeKernelFn fn) {
  return MergeKernel(name, Where::Host)
      .run(std::move(fn))
      .lse_layout(LseLayout::HeadsTokens)
      .o_strided()
      .head_dims({8, 64, 128});
}

/// One law, shrinking for at most 2 s (the assertions below hold for any failing case).
testbed::LawRun<MergeCase> run(const MergeKernel& k, const std::string& law) {
  rc::detail::TestParams p;
  p.seed = 20261201;
  return testbed::run_law<MergeKind>(
      *MergeKind::find_law(law), k, 2, [](const Verdict&, const MergeCase&) {}, p);
}

TEST(MergeShapes, AKernelOfTheDeclaredShapePassesOnEveryShape) {
  Seen seen;
  const MergeKernel k = engine_kernel("test.engine_merge", engine_merge(&seen));
  for (const MergeLaw& law : merge_laws()) {
    if (law.name == "large_batch") continue;  // opt-in and of one shape: merge_large_law_test.cpp
    const auto r = run(k, law.name);
    EXPECT_FALSE(r.failed()) << law.name << ": " << r.smallest_verdict.explanation;
    EXPECT_FALSE(r.errored()) << law.name << ": " << r.property_failure;
    EXPECT_GT(r.judged, 0) << law.name;
  }
  EXPECT_EQ(seen.head_dims, (std::set<int>{8, 64, 128}));
  EXPECT_GT(*seen.heads.rbegin(), 1);
  EXPECT_TRUE(seen.padded);
  EXPECT_TRUE(seen.both_layouts_differ);
}

/// Reads and writes lse[r], the [tokens, heads] layout, whatever the launch says.
void tokens_heads_merge(const MergeProblem& p) {
  MergeProblem dense_lse = p;
  dense_lse.lse_layout = LseLayout::TokensHeads;
  store_result(dense_lse, merge_states_model(operand_a(dense_lse), operand_b(dense_lse), p.base));
}

TEST(MergeShapes, AnLseLayoutMisreadIsCaughtWithTwoHeadsAndTwoTokens) {
  const MergeKernel k = engine_kernel("test.lse_misread", tokens_heads_merge);
  const auto r = run(k, "accuracy");
  ASSERT_TRUE(r.failed());
  // [tokens, heads] and [heads, tokens] place every lse alike unless both counts exceed one.
  const MergeCase fitted = fit_to(k, *r.smallest);
  EXPECT_GT(fitted.shape.heads, 1) << MergeKind::summary(fitted);
  EXPECT_GT(fitted.parts[0].rows / fitted.shape.heads, 1) << MergeKind::summary(fitted);
  // The same kernel declared [tokens, heads] is correct.
  const MergeKernel honest = MergeKernel("test.tokens_heads", Where::Host)
                                 .run(tokens_heads_merge)
                                 .o_strided()
                                 .head_dims({8, 64, 128});
  EXPECT_FALSE(run(honest, "accuracy").failed());
}

/// Reads and writes o densely (row r at r * head_dim), whatever the strides.
void dense_o_merge(const MergeProblem& p) {
  MergeProblem dense = p;
  dense.o_head_stride = p.head_dim;
  dense.o_token_stride = p.heads * p.head_dim;
  store_result(dense, merge_states_model(operand_a(dense), operand_b(dense), p.base));
}

TEST(MergeShapes, IgnoredStridesAreCaughtWithAPaddedCase) {
  const auto r = run(engine_kernel("test.dense_o", dense_o_merge), "commutativity");
  ASSERT_TRUE(r.failed());
  const MergeShape& s = r.smallest->shape;
  EXPECT_TRUE(s.head_pad > 0 || s.token_pad > 0) << MergeKind::summary(*r.smallest);
}

TEST(MergeShapes, WritingIntoThePaddingIsNamed) {
  const MergeKernel k = engine_kernel("test.pad_writer", [](const MergeProblem& p) {
    store_result(p, merge_states_model(operand_a(p), operand_b(p), p.base));
    p.o_out<float>()[p.head_dim] = 0;  // the first padding element after head 0 of token 0
  });
  AttnStates a{2, 8, DType::F32, {0.5f, 1.0f}, std::vector<float>(16, 1.0f)};
  try {
    run_merge_kernel(k, a, a, LseBase::E, MergeShape{2, 1, 3});
    ADD_FAILURE() << "no failure";
  } catch (const KernelFailure& e) {
    EXPECT_NE(std::string(e.what()).find("wrote into the padding of o"), std::string::npos)
        << e.what();
  }
}

TEST(MergeShapes, UnusableShapesAreRefused) {
  const auto noop = [](const MergeProblem&) {};
  EXPECT_NE(declaration_problem(MergeKernel("none", Where::Host).run(noop).head_dims({300})), "");
  EXPECT_NE(declaration_problem(MergeKernel("none", Where::Host).run(noop).head_dim_multiple(512)),
            "");
  const MergeKernel eight =
      MergeKernel("eight", Where::Host).run(noop).head_dim_multiple(8).head_dims({8, 12, 16});
  EXPECT_EQ(eight.supported_head_dims(), (std::vector<int>{8, 16}));
  AttnStates a{3, 8, DType::F32, {0, 0, 0}, std::vector<float>(24, 1.0f)};
  EXPECT_THROW(run_merge_kernel(eight, a, a, LseBase::E, MergeShape{2, 0, 0}),
               std::invalid_argument);  // 2 heads do not divide 3 rows
  AttnStates narrow{1, 4, DType::F32, {0}, std::vector<float>(4, 1.0f)};
  EXPECT_THROW(run_merge_kernel(eight, narrow, narrow, LseBase::E), std::invalid_argument);
}

}  // namespace
}  // namespace osvs::test
