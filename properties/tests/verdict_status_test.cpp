// Vacuous and not-run verdicts are never passes: a case outside a law's domain is vacuous, and the
// laws that need a second party are not run on the CPU model.
#include <gtest/gtest.h>

#include <cfloat>
#include <limits>

#include "osvs/properties/checks.h"
#include "osvs/properties/exact_shift.h"
#include "perturbing_executor.h"

namespace osvs::test {
namespace {

Case one_row_case(std::vector<float> row) {
  Case c;
  c.block = 64;
  c.rows = {std::move(row)};
  return c;
}

TEST(VerdictStatus, OnlyHoldsIsAPass) {
  EXPECT_TRUE(Verdict::pass().holds());
  EXPECT_TRUE(Verdict::pass().judged());
  for (const Verdict& v : {Verdict::fail("f"), Verdict::vacuous("v"), Verdict::not_run("n")})
    EXPECT_FALSE(v.holds()) << to_string(v.status);
  EXPECT_FALSE(Verdict::vacuous("v").judged());
  EXPECT_FALSE(Verdict::not_run("n").judged());
  EXPECT_FALSE(Verdict::vacuous("v").fails());
}

TEST(VerdictStatus, DeterminismAndAgreementAreNotRunOnTheCpuModel) {
  auto model = make_cpu_executor();
  const Case c = one_row_case({1.0f, 2.0f, 3.0f});
  for (auto check : {&check_determinism, &check_executor_agreement}) {
    const Verdict v = check(c, *model);
    EXPECT_EQ(v.status, VerdictStatus::NotRun) << v.explanation;
    EXPECT_NE(v.explanation.find("second party"), std::string::npos) << v.explanation;
  }
  PerturbingExecutor second_party({});
  for (auto check : {&check_determinism, &check_executor_agreement})
    EXPECT_TRUE(check(c, second_party).holds());
}

TEST(VerdictStatus, AnEmptyRowIsVacuousForTheAccuracyLaws) {
  auto model = make_cpu_executor();
  const Case c = one_row_case({});
  for (auto check : {&check_softmax_accuracy, &check_softmax_sum, &check_softmax_range,
                     &check_permutation_equivariance, &check_shift_invariance})
    EXPECT_EQ(check(c, *model).status, VerdictStatus::Vacuous);
}

TEST(VerdictStatus, AShiftThatIsNotExactOrMovesNothingIsVacuous) {
  auto model = make_cpu_executor();
  Case c = one_row_case({0x1p30f, 1.0f});
  c.shift = 0.5f;  // 2^30 + 0.5 needs 32 bits
  EXPECT_EQ(check_shift_invariance(c, *model).status, VerdictStatus::Vacuous);
  c.shift = 0;
  EXPECT_EQ(check_shift_invariance(c, *model).status, VerdictStatus::Vacuous);
  const float inf = std::numeric_limits<float>::infinity();
  c = one_row_case({-inf, -inf});
  c.shift = 1;
  EXPECT_EQ(check_shift_invariance(c, *model).status, VerdictStatus::Vacuous);
  c = one_row_case({1.0f, inf});
  EXPECT_EQ(check_shift_invariance(c, *model).status, VerdictStatus::Vacuous);
}

TEST(ExactShift, AgreesWithDoubleArithmetic) {
  // Every pair below spans fewer than 53 bits (from 2^24 down to 2^-23), so its sum is exact in
  // double, and double arithmetic decides whether the float sum is exact.
  const float xs[] = {1.0f, 0x1.fffffep+0f, 0x1p24f, -3.25f, 0x1.8p+20f, -0x1.000002p+1f};
  const float cs[] = {0.5f, 0x1p-23f, 1.0f, 0x1p20f, 3.0f, -0x1p17f, 0x1.000002p+0f};
  for (float x : xs)
    for (float c : cs) {
      const double exact = static_cast<double>(x) + c;
      EXPECT_EQ(shift_is_exact(x, c), static_cast<double>(x + c) == exact) << x << " + " << c;
    }
  EXPECT_TRUE(shift_is_exact(-std::numeric_limits<float>::infinity(), 3.0f));
  EXPECT_FALSE(shift_is_exact(std::numeric_limits<float>::quiet_NaN(), 3.0f));
  EXPECT_FALSE(shift_is_exact(FLT_MAX, FLT_MAX));  // overflow
}

TEST(ExactShift, EveryGridShiftIsExactOnASnappedRow) {
  const std::vector<float> row = {0x1.234566p+40f, -0x1.fffffep+39f, 3.0f, -1e-30f, 0.0f};
  const float q = shift_quantum(row);
  const std::vector<float> snapped = snap_to_grid(row, q);
  for (std::int32_t k : {1, -1, kMaxShiftSteps, -kMaxShiftSteps, kMaxShiftSteps / 3})
    for (float x : snapped)
      EXPECT_TRUE(shift_is_exact(x, static_cast<float>(k) * q)) << x << " + " << k << " q";
  // The largest element keeps its value to 2^-21 relative.
  EXPECT_LE(std::fabs(snapped[0] - row[0]), 0x1p-22 * std::fabs(row[0]));
}

}  // namespace
}  // namespace osvs::test
