// The row-wise mutants under the row-wise laws: the softmax backward ones
// (mutation/include/osvs/mutation/softmax_backward_mutant_policies.h) and the row reduction ones
// (row_reduction_mutant_policies.h), each declared as its original (osvs.softmax_backward,
// osvs.log_softmax_backward, osvs.logsumexp_row, osvs.layer_norm, osvs.rms_norm, osvs.mean_var,
// osvs.mean_var_unbiased, osvs.cross_entropy, osvs.cross_entropy_mean, osvs.cross_entropy_sum,
// osvs.argmax, osvs.topk, f32) is, at least two an op (EveryOpHasTwoMutants): the law
// named below must kill each mutant (run on its own: another law may kill it too, as accuracy
// kills most), its counterexample shrunk to one row of at most three elements (two rows for a
// batch mean that counts the ignored row: one counted, one ignored). The shrunk cases
// are saved
// (OSVS_REGRESSION_DIR); the committed ones (reports/regressions/rowwise/) are replayed and must
// still fail.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "builtin_row_reductions.h"
#include "builtin_softmax_backward.h"
#include "law_run.h"
#include "osvs/api/regression.h"
#include "osvs/mutation/row_reduction_mutant_policies.h"
#include "osvs/mutation/softmax_backward_mutant_policies.h"
#include "osvs/testing/source_file.h"
#include "testbed_settings.h"

namespace osvs::test {
namespace {

constexpr double kShrinkSeconds = 10;
constexpr std::int64_t kMaxShrunkColumns = 3;

struct BackwardMutant {
  const char* name;
  const char* bug;
  const char* killed_by;  ///< the law that must kill it
  RowwiseKernel (*declare)(std::string name, RowwiseOp op, DType t);
  RowwiseOp op;
  std::int64_t max_rows = 1;  ///< of the shrunk counterexample
};

template <class Policy>
constexpr auto kDeclare = &builtin::reference_backward<Policy>;
template <class Policy>
constexpr auto kDeclareReduction = &builtin::reference_row_kernel<Policy>;

const std::vector<BackwardMutant>& mutants() {
  using namespace mutation;
  static const std::vector<BackwardMutant> all = {
      {"row_term_dropped", "the row term sum_j y_j dy_j dropped: dx = y dy", "accuracy",
       kDeclare<RowTermDropped>, RowwiseOp::SoftmaxBackward},
      {"row_term_over_dy_only", "the row term summed over dy only: s = sum_j dy_j", "accuracy",
       kDeclare<RowTermOverDyOnly>, RowwiseOp::SoftmaxBackward},
      {"sign_flipped", "the sign flipped: dx = y (s - dy)", "accuracy", kDeclare<SignFlipped>,
       RowwiseOp::SoftmaxBackward},
      {"log_weight_is_input", "log-softmax backward uses its input z in place of exp(z)",
       "accuracy", kDeclare<LogWeightIsInput>, RowwiseOp::LogSoftmaxBackward},
      {"log_row_term_in_float", "log-softmax backward's row term sum_j dy_j in binary32",
       "accuracy", kDeclare<LogRowTermInFloat>, RowwiseOp::LogSoftmaxBackward},
      {"row_term_in_float", "the row term accumulated in binary32", "accuracy",
       kDeclare<RowTermInFloat>, RowwiseOp::SoftmaxBackward},
      {"row_term_renormalised", "the row term divided by sum_j y_j: 0 / 0 on a masked row",
       "empty_rows", kDeclare<RowTermRenormalised>, RowwiseOp::SoftmaxBackward},
      {"row_term_skips_nan", "NaN terms skipped in the row term", "special_values",
       kDeclare<RowTermSkipsNan>, RowwiseOp::SoftmaxBackward},
      {"lse_without_max", "logsumexp without the max subtracted: exp(x) overflows", "accuracy",
       kDeclareReduction<LseWithoutMax>, RowwiseOp::Logsumexp},
      {"lse_empty_row_nan", "logsumexp of a row of -inf as -inf - (-inf): NaN", "empty_rows",
       kDeclareReduction<LseEmptyRowNan>, RowwiseOp::Logsumexp},
      {"one_pass_variance", "LayerNorm's variance as E[x^2] - mu^2 in binary32", "accuracy",
       kDeclareReduction<OnePassVariance>, RowwiseOp::LayerNorm},
      {"unbiased_variance", "LayerNorm's variance divided by n - 1", "accuracy",
       kDeclareReduction<UnbiasedVariance>, RowwiseOp::LayerNorm},
      {"eps_outside_sqrt", "RMSNorm's eps added after the square root", "accuracy",
       kDeclareReduction<EpsOutsideSqrt>, RowwiseOp::RmsNorm},
      {"rms_mean_square_over_n_minus_1", "RMSNorm's mean square divided by n - 1", "accuracy",
       kDeclareReduction<UnbiasedVariance>, RowwiseOp::RmsNorm},
      {"rms_weight_before_normalising",
       "RMSNorm normalises x w: x_i w_i / sqrt(mean_j (x_j w_j)^2 + eps)", "accuracy",
       kDeclareReduction<WeightBeforeNormalising>, RowwiseOp::RmsNorm},
      {"statistics_in_float", "LayerNorm's mean and variance in binary32", "accuracy",
       kDeclareReduction<StatisticsInFloat>, RowwiseOp::LayerNorm},
      {"var_mean_one_pass", "the variance of var_mean as E[x^2] - mu^2 in binary32", "accuracy",
       kDeclareReduction<OnePassVariance>, RowwiseOp::MeanVar},
      {"var_mean_correction_ignored", "var_mean's unbiased variance divided by n", "accuracy",
       kDeclareReduction<BiasedForUnbiased>, RowwiseOp::MeanVarUnbiased},
      {"var_mean_biased_over_n_minus_1", "var_mean's biased variance divided by n - 1", "accuracy",
       kDeclareReduction<UnbiasedVariance>, RowwiseOp::MeanVar},
      {"var_mean_unbiased_one_pass",
       "the unbiased variance of var_mean as E[x^2] - mu^2 in binary32, times n / (n - 1)",
       "accuracy", kDeclareReduction<OnePassVariance>, RowwiseOp::MeanVarUnbiased},
      {"ce_ignore_index_ignored", "cross_entropy never compares the target with ignore_index",
       "empty_rows", kDeclareReduction<IgnoreIndexIgnored>, RowwiseOp::CrossEntropy},
      {"ce_smoothing_dropped", "cross_entropy accepts label_smoothing and drops it", "accuracy",
       kDeclareReduction<SmoothingDropped>, RowwiseOp::CrossEntropy},
      {"ce_loss_from_rounded_lse", "cross_entropy as lse - x_t in binary32", "accuracy",
       kDeclareReduction<LossFromRoundedLse>, RowwiseOp::CrossEntropy},
      {"argmax_nan_passed_over", "argmax passes NaN over (x > best)", "special_values",
       kDeclareReduction<NanPassedOver>, RowwiseOp::Argmax},
      {"argmax_last_of_ties", "argmax keeps the last of equal elements (x >= best)", "accuracy",
       kDeclareReduction<LastOfTies>, RowwiseOp::Argmax},
      {"topk_last_of_ties", "topk keeps the last of equal elements, declared lowest-first",
       "accuracy", kDeclareReduction<LastOfTies>, RowwiseOp::TopK},
      {"topk_nan_passed_over", "topk passes NaN over (x > best)", "special_values",
       kDeclareReduction<NanPassedOver>, RowwiseOp::TopK},
      {"topk_positive_zero_first", "topk ranks +0 above -0 (by the bits), declared equal",
       "accuracy", kDeclareReduction<PositiveZeroAboveNegative>, RowwiseOp::TopK},
      {"ce_mean_counts_ignored_rows",
       "cross_entropy_mean divides by every row, the ignored ones included", "accuracy",
       kDeclareReduction<MeanCountsIgnoredRows>, RowwiseOp::CrossEntropyMean, 2},
      {"ce_mean_of_none_zero",
       "cross_entropy_mean gives 0 where no row is counted, declared NaN (0 / 0)", "empty_rows",
       kDeclareReduction<MeanOfNoneZero>, RowwiseOp::CrossEntropyMean},
      {"ce_sum_adds_ignored_rows", "cross_entropy_sum adds the ignored rows' losses", "empty_rows",
       kDeclareReduction<IgnoreIndexIgnored>, RowwiseOp::CrossEntropySum},
      {"ce_sum_from_rounded_lse", "cross_entropy_sum of losses lse - x_t in binary32", "accuracy",
       kDeclareReduction<LossFromRoundedLse>, RowwiseOp::CrossEntropySum},
  };
  return all;
}

RowwiseKernel declared(const BackwardMutant& m) {
  const bool backward = is_backward(m.op);
  return m
      .declare(
          std::string(backward ? "osvs.backward_mutant." : "osvs.row_reduction_mutant.") + m.name,
          m.op, DType::F32)
      .description(m.bug);
}

class BackwardMutantTest : public ::testing::TestWithParam<BackwardMutant> {};

TEST_P(BackwardMutantTest, IsKilledWithASmallCounterexample) {
  const BackwardMutant& m = GetParam();
  const RowwiseKernel k = declared(m);
  const RowwiseLaw& law = *RowwiseKind::find_law(m.killed_by);
  ASSERT_EQ(why_skipped<RowwiseKind>(k, law), "");
  const auto run = testbed::run_law<RowwiseKind>(law, k, kShrinkSeconds,
                                                 [](const Verdict&, const RowwiseCase&) {});
  ASSERT_FALSE(run.errored()) << run.property_failure;
  ASSERT_TRUE(run.failed()) << k.name() << " survived " << law.name << ": " << m.bug;
  const RowwiseCase& c = *run.smallest;
  std::cout << "[ osvs     ] " << k.name() << " (" << m.bug << ") killed by " << law.name << ": "
            << RowwiseKind::summary(c) << " after " << run.shrink_steps
            << " shrinking steps: " << run.smallest_verdict.explanation.substr(0, 400) << "\n";
  EXPECT_LE(c.rows(), m.max_rows) << RowwiseKind::summary(c);
  EXPECT_LE(c.cols(), kMaxShrunkColumns) << RowwiseKind::summary(c);
  Regression<RowwiseKind> r =
      testbed::regression_of<RowwiseKind>(k, law, run, "row-wise mutant gate, host");
  r.expect_holds = false;
  r.note = std::string("mutant: ") + m.bug;
  std::cout << "[ osvs     ] saved " << write_regression(r, testbed::regression_root()) << "\n";
}

INSTANTIATE_TEST_SUITE_P(Every, BackwardMutantTest, ::testing::ValuesIn(mutants()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(BackwardMutants, EveryOpHasTwoMutants) {
  for (const RowwiseOp op : kRowwiseOps) {
    int mine = 0;
    for (const BackwardMutant& m : mutants()) mine += m.op == op ? 1 : 0;
    EXPECT_GE(mine, 2) << to_string(op) << " has " << mine << " mutant(s)";
  }
}

TEST(BackwardMutants, CommittedCounterexamplesStillFail) {
  const std::filesystem::path committed = osvs::testing::source_file("reports/regressions/rowwise");
  int replayed = 0;
  for (const BackwardMutant& m : mutants()) {
    const RowwiseKernel k = declared(m);
    int mine = 0;
    for (const auto& [path, r] : read_regressions<RowwiseKind>(committed.string(), k.name())) {
      EXPECT_FALSE(r.expect_holds) << path << ": a mutant's case must expect the law to fail";
      EXPECT_EQ(replay_regression<RowwiseKind>(k, r), "") << path;
      ++mine;
    }
    EXPECT_GE(mine, 1) << m.name << " has no committed counterexample under " << committed;
    replayed += mine;
  }
  std::cout << "[ osvs     ] " << replayed << " committed row-wise mutant counterexamples\n";
}

}  // namespace
}  // namespace osvs::test
