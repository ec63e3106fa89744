// The reduction kind itself: declarations refused with the valid choices named, regression files
// round-tripped and malformed ones named, the schedule's depth, and the tightness of osvs's own
// reductions' derived tolerances (worst observed error / tolerance over seeded random schedules,
// which must not exceed 1 and is printed: a bound never approached is as suspicious as one
// exceeded).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <random>

#include "builtin_reductions.h"
#include "law_run.h"
#include "osvs/api/regression.h"
#include "osvs/kernels/hex.h"
#include "osvs/kernels/merge_trees.h"
#include "reduction_mutants.h"
#include "regression_record.h"

namespace osvs::test {
namespace {

ReductionKernel lse() {
  return builtin::logsumexp_kernel<builtin::LogsumexpReduction>("test.lse");
}

// The CPU model the cpu_model law's reductions below name (registered, as a device reduction's
// CPU model is).
OSVS_REGISTER_REDUCTION(test_lse_model) {
  return lse();
}

/// The cpu_model law's run on k (5 s of shrinking at most).
testbed::LawRun<ReductionCase> cpu_model_run(const ReductionKernel& k) {
  return testbed::run_law<ReductionKind>(*ReductionKind::find_law("cpu_model"), k, 5,
                                         [](const Verdict&, const ReductionCase&) {});
}

TEST(ReductionKind, TheCpuModelLawHoldsForTheSameCombineAndShrinksAnother) {
  using builtin::logsumexp_kernel;
  const ReductionKernel none = lse();
  EXPECT_EQ(why_skipped<ReductionKind>(none, *ReductionKind::find_law("cpu_model")),
            "test.lse declares no CPU model");
  const auto same = cpu_model_run(
      logsumexp_kernel<builtin::LogsumexpReduction>("test.lse_again").cpu_model("test.lse"));
  EXPECT_FALSE(same.failed()) << same.smallest_verdict.explanation;
  EXPECT_GT(same.judged, 0);
  const auto other =
      cpu_model_run(logsumexp_kernel<LseWithoutShift>("test.lse_unshifted").cpu_model("test.lse"));
  ASSERT_TRUE(other.failed());
  EXPECT_LE(other.smallest->schedule.row.size(), 2u) << ReductionKind::summary(*other.smallest);
  EXPECT_NE(other.smallest_verdict.explanation.find("but test.lse gives (lse "), std::string::npos)
      << other.smallest_verdict.explanation;
}

TEST(ReductionKind, ACpuModelThatIsNotRegisteredOrIsItselfIsNamed) {
  const auto missing =
      cpu_model_run(builtin::logsumexp_kernel<builtin::LogsumexpReduction>("test.lse_orphan")
                        .cpu_model("test.nowhere"));
  ASSERT_TRUE(missing.failed());
  EXPECT_NE(missing.smallest_verdict.explanation.find(
                "test.lse_orphan's CPU model 'test.nowhere' is not a registered reduction"),
            std::string::npos)
      << missing.smallest_verdict.explanation;
  EXPECT_EQ(declaration_problem(lse().cpu_model("test.lse")),
            "reduction 'test.lse' names itself as its CPU model");
}

TEST(ReductionKind, ADeviceReductionWithoutADeviceIsUnavailableNotAFailure) {
  std::string why;
  if (device_available(&why)) GTEST_SKIP() << "a device is usable here: the GPU tests run it";
  const ReductionKernel k = detail::declared_reduction<builtin::LogsumexpReduction>(
      "test.lse.device", Where::Device, [](const ReductionProblem&) {});
  EXPECT_FALSE(runnable(k, nullptr));
  EXPECT_EQ(why_skipped<ReductionKind>(k, *ReductionKind::find_law("accuracy")), why);
  HarnessCase h = in_order_schedule({0, 1}, {});
  h.row = {1.0f};
  EXPECT_THROW(run_reduction_kernel(k, {h}), DeviceUnavailable);
}

TEST(ReductionKind, ASkipNamingNoLawIsRefusedWithTheLaws) {
  ReductionKernel k = lse();
  k.skip("associativty", "typo");
  const std::string why = declaration_problem(k);
  EXPECT_NE(why.find("'associativty' is not a reduction law (commutativity, identity, "
                     "special_values, accuracy, associativity, cpu_model)"),
            std::string::npos)
      << why;
}

TEST(ReductionKind, ADeclarationWithoutExactReferenceIsRefused) {
  ReductionKernel k("test.no_exact", Where::Host);
  k.run([](const ReductionProblem&) {}).state_fields({{"x", FieldType::F32}});
  k.result_fields({{"x", FieldType::F32}});
  EXPECT_NE(declaration_problem(k).find("no exact reference"), std::string::npos);
}

TEST(ReductionKind, ScheduleDepthCountsTheFoldAndTheMerges) {
  HarnessCase h = in_order_schedule({0, 3, 4, 4}, left_deep_tree(3));
  h.row.assign(4, 1.0f);
  EXPECT_EQ(schedule_depth(h), 5);  // chunk 0 folds 3 elements, then two merges into slot 0
  h.merges = balanced_tree(3);
  EXPECT_EQ(schedule_depth(h), 5);
  EXPECT_EQ(schedule_problem(h), "");
  h.merges.push_back({0, 7});
  EXPECT_NE(schedule_problem(h).find("a merge names slots 0 <- 7 of 3"), std::string::npos);
}

TEST(ReductionKind, RegressionFilesRoundTripAndMalformedOnesAreNamed) {
  Regression<ReductionKind> r = regression_record<ReductionKind>("test.lse", "associativity");
  r.input.schedule = in_order_schedule({0, 1, 3}, left_deep_tree(2));
  r.input.schedule.row = {0x1.8p+3f, -0.0f, std::numeric_limits<float>::quiet_NaN()};
  const std::string text = to_json(r);
  EXPECT_EQ(regression_kind(text), "reduction");
  const auto back = regression_from_json<ReductionKind>(text);
  EXPECT_EQ(to_json(back), text);
  EXPECT_TRUE(std::signbit(back.input.schedule.row[1]));
  std::string bad = text;
  bad.replace(bad.find("\"root\": 0"), 9, "\"root\": 4");
  EXPECT_THROW(
      {
        try {
          regression_from_json<ReductionKind>(bad);
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("the root names no slot"), std::string::npos);
          throw;
        }
      },
      std::runtime_error);
  std::string unknown = text;
  unknown.replace(unknown.find("\"associativity\""), 15, "\"associative\"");
  EXPECT_THROW(regression_from_json<ReductionKind>(unknown), std::runtime_error);
}

/// The worst |result - exact| / tolerance of field `f` over `cases` random schedules of rows of
/// 1 ... 300 values drawn by `draw`, seed fixed.
template <class Draw>
double tightness(const ReductionKernel& k, std::size_t f, int cases, Draw draw) {
  std::mt19937_64 rng(20261203);
  double worst = 0;
  for (int i = 0; i < cases; ++i) {
    const std::int64_t n = std::uniform_int_distribution<std::int64_t>(1, 300)(rng);
    const int chunks = std::uniform_int_distribution<int>(1, 16)(rng);
    HarnessCase h = random_schedule(n, chunks, uniform_below(rng));
    for (std::int64_t j = 0; j < n; ++j) h.row.push_back(draw(rng));
    const ReductionOutputs out = run_reduction_kernel(k, {h});
    const std::vector<double> exact = k.exact()(h.row);
    const ReductionShape shape{h.row, schedule_depth(h), &exact};
    const double err =
        std::fabs(field_value(k.result_fields()[f].type, out.results[0][f]) - exact[f]);
    worst = std::max(worst, err / k.tolerance(f, shape));
  }
  return worst;
}

TEST(ReductionKind, OwnTolerancesHoldAndTheirTightnessIsReported) {
  const ReductionKernel w = builtin::welford_kernel<builtin::WelfordReduction>("test.welford");
  const auto normal = [](double mean, double sigma) {
    return [=](std::mt19937_64& rng) {
      return static_cast<float>(std::normal_distribution<double>(mean, sigma)(rng));
    };
  };
  struct Row {
    const char* what;
    const ReductionKernel& k;
    std::size_t field;
    double worst;
  };
  const ReductionKernel l = lse();
  const Row rows[] = {
      {"logsumexp, x ~ N(0, 10)", l, 0, tightness(l, 0, 300, normal(0, 10))},
      {"logsumexp, x ~ N(500, 1)", l, 0, tightness(l, 0, 300, normal(500, 1))},
      {"welford mean, x ~ N(0, 1)", w, 1, tightness(w, 1, 300, normal(0, 1))},
      {"welford var, x ~ N(0, 1)", w, 2, tightness(w, 2, 300, normal(0, 1))},
      {"welford var, x ~ N(1e6, 1)", w, 2, tightness(w, 2, 300, normal(1e6, 1))},
  };
  for (const Row& r : rows) {
    std::cout << "[ osvs     ] " << r.what << ": worst error / tolerance " << digits9(r.worst)
              << "\n";
    EXPECT_LE(r.worst, 1.0) << r.what;
  }
}

}  // namespace
}  // namespace osvs::test
