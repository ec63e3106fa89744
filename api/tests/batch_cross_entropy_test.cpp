// The cross-entropy's batch reductions (cross_entropy_mean, cross_entropy_sum) of the row-wise
// kind: osvs's reference kernels keep the batch's conventions (an ignored row counts for
// nothing, a batch with no row counted and a batch of no rows give the empty sum 0 and the mean
// 0 / 0 = NaN, or the declared 0), the runner's one value for the batch and its launch of no
// rows, the declarations of conventions an op does not have, and the batch laws failing on
// kernels that break them (their mutants: softmax_backward_mutants_test.cpp; their derived
// bounds measured: row_reductions_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "builtin_row_reductions.h"
#include "law_run.h"
#include "osvs/api/rowwise_ops.h"
#include "osvs/mutation/row_reduction_mutant_policies.h"
#include "rowwise_counterexample.h"

namespace osvs::test {
namespace {

using builtin::reference_row_kernel;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kIgnored = -100;

RowwiseKernel mean_kernel() {
  return reference_row_kernel("test.ce_mean", RowwiseOp::CrossEntropyMean, DType::F32);
}
RowwiseKernel sum_kernel() {
  return reference_row_kernel("test.ce_sum", RowwiseOp::CrossEntropySum, DType::F32);
}

TEST(BatchCrossEntropy, TheReferenceKeepsTheBatchConventions) {
  // Two rows of two equal logits (each loss log 2, in binary64 exactly double's log(2)) and an
  // ignored row holding NaN: the mean is over the two counted rows, log 2; the sum 2 log 2, whose
  // rounding is twice log 2's.
  const std::vector<Rows> batch = {{{0, 0}, {kNaN, 1}, {7, 7}}, {{0}, {kIgnored}, {1}}};
  const float log2f = static_cast<float>(std::log(2.0));
  const RowwiseOutputs mean = run_rowwise_kernel(mean_kernel(), batch);
  EXPECT_EQ(mean.widths, (std::vector<std::int64_t>{1}));
  EXPECT_EQ(mean.out[0], (std::vector<float>{log2f}));
  EXPECT_EQ(run_rowwise_kernel(sum_kernel(), batch).out[0], (std::vector<float>{2 * log2f}));
  // Every row ignored: no row counted.
  const std::vector<Rows> ignored = {{{0, 0}, {kNaN, 1}}, {{kIgnored}, {kIgnored}}};
  EXPECT_TRUE(std::isnan(run_rowwise_kernel(mean_kernel(), ignored).out[0][0]));
  const float empty_sum = run_rowwise_kernel(sum_kernel(), ignored).out[0][0];
  EXPECT_EQ(empty_sum, 0.0f);
  EXPECT_FALSE(std::signbit(empty_sum));
  // No row at all, of three columns.
  EXPECT_TRUE(std::isnan(run_rowwise_empty_batch(mean_kernel(), 3).out[0][0]));
  EXPECT_EQ(run_rowwise_empty_batch(sum_kernel(), 3).out[0][0], 0.0f);
}

TEST(BatchCrossEntropy, TheMeanOfNoneIsTheDeclaredConvention) {
  using mutation::MeanOfNoneZero;
  const RowwiseKernel zero = reference_row_kernel<MeanOfNoneZero>(
                                 "test.ce_mean_zero", RowwiseOp::CrossEntropyMean, DType::F32)
                                 .mean_of_none(MeanOfNone::Zero);
  EXPECT_EQ(run_rowwise_empty_batch(zero, 2).out[0][0], 0.0f);
  EXPECT_FALSE(counterexample(zero, "empty_rows"));  // 0 where 0 is declared
  // NaN where 0 is declared, and 0 where NaN is (the mutant ce_mean_of_none_zero): both fail.
  EXPECT_TRUE(
      counterexample(RowwiseKernel(mean_kernel()).mean_of_none(MeanOfNone::Zero), "empty_rows"));
  EXPECT_TRUE(counterexample(RowwiseKernel(zero).mean_of_none(MeanOfNone::Nan), "empty_rows"));
}

TEST(BatchCrossEntropy, TheRunnerHoldsTheBatchValueAndItsEmptyBatch) {
  const RowwiseKernel mean = mean_kernel();
  const std::vector<Rows> batch = {{{1, 2}, {3, 4}}, {{0}, {1}}};
  // The batch's one value has no row to pad; a batch of no rows goes through
  // run_rowwise_empty_batch, which only a batch reduction has a use for.
  EXPECT_THROW(run_rowwise_kernel(mean, batch, {}, {0, 0, 1}), std::invalid_argument);
  EXPECT_NO_THROW(run_rowwise_kernel(mean, batch, {}, {1, 2, 0}));
  EXPECT_THROW(run_rowwise_kernel(mean, {{}, {}}), std::invalid_argument);
  EXPECT_THROW(run_rowwise_empty_batch(mean, 0), std::invalid_argument);
  const RowwiseKernel per_row =
      reference_row_kernel("test.ce", RowwiseOp::CrossEntropy, DType::F32);
  EXPECT_THROW(run_rowwise_empty_batch(per_row, 3), std::invalid_argument);
  // What the kernel is handed for the empty batch, and what it must still write.
  RowwiseProblem seen;
  RowwiseKernel lazy("test.ce_mean_lazy", Where::Host);
  lazy.op(RowwiseOp::CrossEntropyMean)
      .types({DType::F32, DType::I64}, {DType::F32})
      .run([&seen](const RowwiseProblem& p) {
        seen = p;
        if (p.rows > 0) *p.out<float>(0) = 1;
      });
  try {
    run_rowwise_empty_batch(lazy, 5);
    FAIL() << "an unwritten batch value passed";
  } catch (const KernelFailure& e) {
    EXPECT_EQ(std::string(e.what()), "kernel 'test.ce_mean_lazy' left loss[0][0] unwritten");
  }
  EXPECT_EQ(seen.rows, 0);
  EXPECT_EQ(seen.cols, 5);
  EXPECT_EQ(seen.outputs.at(0).stride, 0);
  RowwiseKernel past("test.ce_mean_past", Where::Host);
  past.op(RowwiseOp::CrossEntropyMean)
      .types({DType::F32, DType::I64}, {DType::F32})
      .run([](const RowwiseProblem& p) {
        for (std::int64_t i = 0; i <= p.rows; ++i) p.out<float>(0)[i] = 0;  // one a row, and one
      });
  EXPECT_THROW(run_rowwise_kernel(past, batch), KernelFailure);
}

TEST(BatchCrossEntropy, AConventionTheOpHasNotIsARegistrationError) {
  EXPECT_EQ(declaration_problem(RowwiseKernel(mean_kernel()).mean_of_none(MeanOfNone::Zero)), "");
  EXPECT_NE(declaration_problem(sum_kernel().mean_of_none(MeanOfNone::Zero))
                .find("mean_of_none zero, a convention of cross_entropy_mean, not of "
                      "cross_entropy_sum"),
            std::string::npos);
  EXPECT_NE(declaration_problem(mean_kernel().inf_row(InfRow::Ieee)).find("inf_row ieee"),
            std::string::npos);
  EXPECT_EQ(
      declaration_problem(
          reference_row_kernel("test.rms", RowwiseOp::RmsNorm, DType::F32).inf_row(InfRow::Ieee)),
      "");
}

TEST(BatchCrossEntropy, TheBatchLawsCanFail) {
  using namespace mutation;
  // Losses summed in binary32 in the rows' order, declared batch invariant: three rows reordered
  // give another rounding.
  RowwiseKernel float_sum("test.ce_sum_in_float", Where::Host);
  float_sum.op(RowwiseOp::CrossEntropySum)
      .types({DType::F32, DType::I64}, {DType::F32})
      .accuracy(builtin::reference_row_reduction_bound(RowwiseOp::CrossEntropySum))
      .run([](const RowwiseProblem& p) {
        float sum = 0;
        for (std::int64_t i = 0; i < p.rows; ++i) {
          const auto t = p.in<std::int64_t>(1)[i * p.inputs[1].stride];
          if (t != p.ignore_index)
            sum +=
                static_cast<float>(cross_entropy_row(p.in<float>(0) + i * p.inputs[0].stride,
                                                     p.cols, t, p.ignore_index, p.label_smoothing));
        }
        *p.out<float>(0) = sum;
      });
  EXPECT_TRUE(counterexample(float_sum, "batch_invariance"));
  // exp(x) without the max overflows once x + c passes 88.7: the batch's value with it.
  EXPECT_TRUE(
      counterexample(reference_row_kernel<LseWithoutMax>("test.ce_mean_without_max",
                                                         RowwiseOp::CrossEntropyMean, DType::F32),
                     "shift_invariance"));
  // The mean over every row, the ignored one included: its shrunk counterexample (the mutant's
  // test) is a batch of ignored rows (0 / 1 = 0 for NaN); on one counted row (loss log 2) and
  // one ignored, it halves the mean.
  RowwiseCase halved;
  halved.inputs = {{{0, 0}, {1, 2}}, {{0}, {kIgnored}}};
  const RowwiseKernel counts_ignored = reference_row_kernel<MeanCountsIgnoredRows>(
      "test.ce_mean_counts_ignored", RowwiseOp::CrossEntropyMean, DType::F32);
  EXPECT_EQ(run_rowwise_kernel(counts_ignored, halved.inputs).out[0][0],
            static_cast<float>(std::log(2.0) / 2));
  const Verdict v = RowwiseKind::check(*RowwiseKind::find_law("accuracy"), counts_ignored, halved);
  EXPECT_TRUE(v.fails()) << v.explanation;
  EXPECT_TRUE(
      RowwiseKind::check(*RowwiseKind::find_law("accuracy"), mean_kernel(), halved).holds());
  // An ignored row's NaN let into the sum.
  EXPECT_TRUE(
      counterexample(reference_row_kernel<IgnoreIndexIgnored>(
                         "test.ce_sum_ignore_ignored", RowwiseOp::CrossEntropySum, DType::F32),
                     "special_values"));
}

}  // namespace
}  // namespace osvs::test
