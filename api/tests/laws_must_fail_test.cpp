// Every black-box law can fail: a kernel that breaks it is caught, with the case generator the
// testbed uses, and a correct kernel passes the same law.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <atomic>

#include "large_batch_law.h"
#include "misbehaving_kernels.h"
#include "osvs/api/row_cases.h"
#include "osvs/api/row_laws.h"
#include "scoped_env.h"

namespace osvs::test {
namespace {

/// Whether the law finds a counterexample for k within 200 generated cases (fixed seed).
bool law_fails(const RowKernel& k, const std::string& law_name) {
  const RowLaw* law = find_row_law(law_name);
  EXPECT_NE(law, nullptr);
  const auto cases = testbed::row_case(k, law_name);
  rc::detail::TestParams params;
  params.seed = 20261130;
  params.maxSuccess = 200;
  params.disableShrinking = true;
  const auto result = rc::detail::checkTestable(
      [&] {
        const RowCase c = *cases;
        Verdict v;
        try {
          v = law->check(k, c);
        } catch (const KernelFailure& e) {
          v = Verdict::fail(e.what());
        }
        RC_ASSERT(v.holds());
      },
      rc::detail::TestMetadata{}, params);
  return result.template is<rc::detail::FailureResult>();
}

/// log-softmax as x - lse with lse in double: cancels for a dominant element.
void naive_log_softmax(const RowProblem& p) {
  for_each_row(p, [](const float* x, float* y, std::int64_t n, float m) {
    double s = 0;
    for (std::int64_t j = 0; j < n; ++j) s += std::exp(static_cast<double>(x[j]) - m);
    const double lse = m + std::log(s);
    for (std::int64_t j = 0; j < n; ++j) y[j] = static_cast<float>(x[j] - lse);
  });
}

/// Sums in float from left to right: correct to a few ulps, but order-dependent in its bits.
void float_sum_softmax(const RowProblem& p) {
  for_each_row(p, [](const float* x, float* y, std::int64_t n, float m) {
    float s = 0;
    for (std::int64_t j = 0; j < n; ++j) s += std::exp(x[j] - m);
    for (std::int64_t j = 0; j < n; ++j) y[j] = std::exp(x[j] - m) / s;
  });
}

TEST(RowLaws, AccuracyCatchesTheUnsafeSoftmax) {
  EXPECT_TRUE(law_fails(host_kernel("unsafe", unsafe_softmax), "accuracy"));
  EXPECT_FALSE(law_fails(host_kernel("good", good_softmax), "accuracy"));
}

TEST(RowLaws, AccuracyCatchesTheCancellingLogSoftmax) {
  EXPECT_TRUE(law_fails(host_kernel("naive_log", naive_log_softmax).log_softmax(), "accuracy"));
}

TEST(RowLaws, AccuracyHoldsKernelsToTheirConventions) {
  // good_softmax gives NaN for a fully masked row; declaring 0 must be caught.
  EXPECT_TRUE(
      law_fails(host_kernel("masked", good_softmax).masked_rows(MaskedRow::Zero), "accuracy"));
}

/// Found by the fuzzer over the registry: on a row of N = 0 the law asked the derived contract
/// for a bound before seeing that the row has no outputs, and threw ("softmax_bound: bounds are
/// for finite rows"); an empty or special row has nothing to sum: not judged, not an error.
TEST(RowLaws, SumToOneOnRowsWithoutOutputsIsNotJudged) {
  const auto derived = RowKernel("derived", Where::Host)
                           .run(good_softmax)
                           .accuracy(Accuracy::derived({"two_pass", "seed", 256}));
  const RowLaw* law = find_row_law("sum_to_one");
  const Verdict empty = law->check(derived, RowCase::of({{}}));
  EXPECT_TRUE(is_not_judged(empty)) << empty.explanation;
  const Verdict masked = law->check(derived, RowCase::of({{-INFINITY, -INFINITY}}));
  EXPECT_TRUE(is_not_judged(masked)) << masked.explanation;
  EXPECT_TRUE(law->check(derived, RowCase::of({{1, 2}})).holds());
}

/// Found by the fuzzer over the registry: a NaN shift passed the exactness check (x_j + NaN is
/// not finite) and the law compared the NaN bits of x + NaN with those of x's outputs.
TEST(RowLaws, ShiftInvarianceJudgesRealShiftsOnly) {
  const auto k = host_kernel("good", good_softmax).exact_shift_invariant();
  const RowLaw* law = find_row_law("shift_invariance");
  RowCase c = RowCase::of({{1, 2, 3}});
  for (const float shift : {NAN, INFINITY, -INFINITY}) {
    c.shift = shift;
    EXPECT_TRUE(is_not_judged(law->check(k, c))) << shift;
  }
  c.shift = 4;
  EXPECT_TRUE(law->check(k, c).holds());
  // Found by the fuzzer too: -800 + -0x1.c5a22p+86 rounds in double already, so comparing the
  // double sum with its float rounding called it exact; it is not, and the law does not judge.
  c.rows = {{-800, 1}};
  c.shift = -0x1.c5a22p+86f;
  EXPECT_TRUE(is_not_judged(law->check(k, c)));
}

TEST(RowLaws, SumToOneCatchesAMissingNormalisation) {
  auto k = host_kernel("halved", [](const RowProblem& p) {
    good_softmax(p);
    for (std::int64_t i = 0; i < p.rows; ++i)
      for (std::int64_t j = 0; j < p.cols; ++j) p.y<float>()[i * p.y_stride + j] *= 0.5f;
  });
  EXPECT_TRUE(law_fails(k, "sum_to_one"));
}

TEST(RowLaws, DeterminismCatchesALaunchCounter) {
  static std::atomic<int> launches{0};
  const auto k = host_kernel("counter", [](const RowProblem& p) {
    good_softmax(p);
    if (p.rows * p.cols > 0 && launches++ % 2)
      p.y<float>()[0] = std::nextafter(p.y<float>()[0], 2.0f);
  });
  EXPECT_TRUE(law_fails(k, "determinism"));
}

TEST(RowLaws, BatchInvarianceCatchesRowsThatInteract) {
  const auto k = host_kernel("shared_max", [](const RowProblem& p) {
    good_softmax(p);
    if (p.rows > 1 && p.cols > 0)
      p.y<float>()[p.y_stride] = std::nextafter(p.y<float>()[p.y_stride], 2.0f);
  });
  EXPECT_TRUE(law_fails(k, "batch_invariance"));
  EXPECT_FALSE(law_fails(host_kernel("good", good_softmax), "batch_invariance"));
}

TEST(RowLaws, PermutationCatchesAnOrderDependentKernelThatClaimsOrderIndependence) {
  EXPECT_TRUE(
      law_fails(host_kernel("float_sum", float_sum_softmax).order_independent(), "permutation"));
}

TEST(RowLaws, ShiftInvarianceCatchesAKernelWithoutTheMaxSubtraction) {
  EXPECT_TRUE(
      law_fails(host_kernel("unsafe", unsafe_softmax).exact_shift_invariant(), "shift_invariance"));
  EXPECT_FALSE(
      law_fails(host_kernel("good", good_softmax).exact_shift_invariant(), "shift_invariance"));
}

TEST(RowLaws, StridedCatchesAKernelThatDeclaresStridesItIgnores) {
  const auto k = host_kernel("dense_x", [](const RowProblem& p) {
    RowProblem dense = p;
    dense.x_stride = p.cols;
    good_softmax(dense);
  });
  EXPECT_TRUE(law_fails(k, "strided"));
}

TEST(RowLaws, WithoutAContractAccuracyIsNotJudgedNotPassed) {
  const auto k = RowKernel("no_contract", Where::Host).run(good_softmax);
  const Verdict v = find_row_law("accuracy")->check(k, RowCase::of({{1, 2, 3}}));
  EXPECT_TRUE(is_not_judged(v)) << v.explanation;
  EXPECT_NE(v.explanation.find("no accuracy contract declared"), std::string::npos);
}

/// A kernel whose row offset wraps at `bits` bits (the int32 `row * N` bug at 2^bits elements):
/// rows past the wrap read the inputs of an earlier row.
template <int Bits>
void wrapping_offset_softmax(const RowProblem& p) {
  for (std::int64_t i = 0; i < p.rows; ++i) {
    const std::int64_t offset = (i * p.x_stride) & ((std::int64_t{1} << Bits) - 1);
    RowProblem one = p;
    one.rows = 1;
    one.x_ptr = p.x<float>() + offset;
    one.y_ptr = p.y<float>() + i * p.y_stride;
    good_softmax(one);
  }
}

TEST(RowLaws, LargeBatchIsOptInAndCatchesAnOffsetThatWraps) {
  const RowLaw* law = find_row_law("large_batch");
  ASSERT_NE(law, nullptr);
  const auto good = host_kernel("good", good_softmax);
  EXPECT_NE(law->excluded(good).find("OSVS_LARGE_LAWS=1"), std::string::npos);
  // The law at 2^20 elements instead of 2^31: the same rows judged, 1/2048 of the memory.
  const ScopedEnv opt_in("OSVS_LARGE_LAWS", "1"), small("OSVS_LARGE_LAWS_ELEMENTS", "1048576");
  EXPECT_EQ(law->excluded(good), "");
  EXPECT_TRUE(law->single_case);
  const Verdict holds = law->check(good, api::large_batch_case(good));
  EXPECT_TRUE(holds.holds()) << holds.explanation;
  EXPECT_FALSE(holds.evidence.empty());
  const auto wrapping = host_kernel("wrapping", wrapping_offset_softmax<20>);
  const Verdict fails = law->check(wrapping, api::large_batch_case(wrapping));
  EXPECT_TRUE(fails.fails()) << fails.explanation;
  EXPECT_NE(fails.explanation.find("row 256 of 257"), std::string::npos) << fails.explanation;
}

}  // namespace
}  // namespace osvs::test
