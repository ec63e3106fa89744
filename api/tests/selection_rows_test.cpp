// argmax and topk as row-wise kernels: the tie rule and the order a kernel declares are what the
// laws hold it to (a kernel returning the last of equal elements passes declared Ties::Any and
// fails declared Ties::Lowest; a topk in ascending order passes declared unsorted and fails
// declared sorted), the index arrays' declarations (an index type where the op has an index
// array, a value type elsewhere, in every kind) and the runner's refusals (k outside the row, a
// target that is not an integer).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

#include "builtin_row_reductions.h"
#include "law_run.h"
#include "osvs/api/registry.h"
#include "osvs/api/rowwise_laws.h"
#include "osvs/mutation/row_reduction_mutant_policies.h"
#include "rowwise_counterexample.h"

namespace osvs::test {
namespace {

using builtin::reference_row_kernel;

/// topk whose k indices come from the reference's (ties to the lowest index, descending), then
/// reversed: ascending.
RowwiseKernel ascending_topk(bool declared_sorted) {
  return RowwiseKernel("test.ascending_topk", Where::Host)
      .op(RowwiseOp::TopK)
      .types({DType::F32}, {DType::F32, DType::I64})
      .run([](const RowwiseProblem& p) {
        reference_row_kernel("inner", RowwiseOp::TopK, DType::F32)(p);
        for (std::int64_t i = 0; i < p.rows; ++i) {
          std::reverse(p.out<float>(0) + i * p.outputs[0].stride,
                       p.out<float>(0) + i * p.outputs[0].stride + p.k);
          std::reverse(p.out<std::int64_t>(1) + i * p.outputs[1].stride,
                       p.out<std::int64_t>(1) + i * p.outputs[1].stride + p.k);
        }
      })
      .sorted(declared_sorted);
}

bool passes(const RowwiseKernel& k, const char* law) {
  return !counterexample(k, law).has_value();
}

TEST(SelectionRows, TheDeclaredTieRuleIsWhatIsHeld) {
  RowwiseKernel last = reference_row_kernel<mutation::LastOfTies>("test.last_of_ties",
                                                                  RowwiseOp::Argmax, DType::F32);
  EXPECT_FALSE(passes(last, "accuracy"));  // declared Ties::Lowest, as the reference is
  last.ties(Ties::Any);
  EXPECT_TRUE(passes(last, "accuracy"));
  EXPECT_TRUE(passes(last, "permutation"));
  RowwiseKernel last_k =
      reference_row_kernel<mutation::LastOfTies>("test.last_k", RowwiseOp::TopK, DType::F32);
  last_k.ties(Ties::Any);
  EXPECT_TRUE(passes(last_k, "accuracy"));
}

TEST(SelectionRows, TheDeclaredOrderIsWhatIsHeld) {
  EXPECT_FALSE(passes(ascending_topk(true), "accuracy"));
  EXPECT_TRUE(passes(ascending_topk(false), "accuracy"));
}

TEST(SelectionRows, IndexArraysAreDeclaredWithIndexTypes) {
  const RowwiseKernel good = reference_row_kernel("test.ce", RowwiseOp::CrossEntropy, DType::F32);
  EXPECT_EQ(declaration_problem(good), "");
  EXPECT_EQ(good.in_types(), (std::vector<DType>{DType::F32, DType::I64}));
  RowwiseKernel float_target = good;
  float_target.types({DType::F32, DType::F32}, {DType::F32});
  EXPECT_NE(declaration_problem(float_target).find("target"), std::string::npos)
      << declaration_problem(float_target);
  RowwiseKernel index_values = reference_row_kernel("test.topk", RowwiseOp::TopK, DType::F32);
  index_values.types({DType::I64}, {DType::I64, DType::I64});
  EXPECT_NE(declaration_problem(index_values), "");
  RowwiseKernel narrow_values = reference_row_kernel("test.topk", RowwiseOp::TopK, DType::F32);
  narrow_values.types({DType::F32}, {DType::BF16, DType::I32});
  EXPECT_NE(declaration_problem(narrow_values).find("x's type"), std::string::npos);
  narrow_values.types({DType::F32}, {DType::F32, DType::I32});
  EXPECT_EQ(declaration_problem(narrow_values), "");  // i32 indices are an index type too
  // The other kinds take no index type for their values.
  RowKernel row("test.row_i64", Where::Host);
  row.types(DType::I64, DType::F32).run([](const RowProblem&) {});
  EXPECT_NE(declaration_problem(row).find("index type"), std::string::npos);
}

TEST(SelectionRows, TheRunnerRefusesWhatNoLaunchHas) {
  const RowwiseKernel topk = reference_row_kernel("test.topk", RowwiseOp::TopK, DType::F32);
  EXPECT_THROW(run_rowwise_kernel(topk, {{{1.0f, 2.0f}}}, {.k = 3}), std::invalid_argument);
  EXPECT_THROW(run_rowwise_kernel(topk, {{{1.0f, 2.0f}}}, {.k = 0}), std::invalid_argument);
  const RowwiseOutputs out = run_rowwise_kernel(topk, {{{1.0f, 2.0f, 2.0f}}}, {.k = 2});
  EXPECT_EQ(out.out[0], (std::vector<float>{2.0f, 2.0f}));
  EXPECT_EQ(out.out[1], (std::vector<float>{1.0f, 2.0f}));  // ties to the lowest index
  const RowwiseKernel ce = reference_row_kernel("test.ce", RowwiseOp::CrossEntropy, DType::F32);
  EXPECT_THROW(run_rowwise_kernel(ce, {{{1.0f, 2.0f}}, {{0.5f}}}), std::invalid_argument);
  EXPECT_THROW(run_rowwise_kernel(ce, {{{1.0f, 2.0f}}, {{0.0f}}}, {.label_smoothing = 2}),
               std::invalid_argument);
  const RowwiseOutputs ignored = run_rowwise_kernel(ce, {{{1.0f, 2.0f}}, {{-100.0f}}});
  EXPECT_EQ(ignored.out[0], (std::vector<float>{0.0f}));
}

}  // namespace
}  // namespace osvs::test
