// Value conventions of row kernels: a kernel built with flush-to-zero (subnormal outputs ±0)
// fails accuracy undeclared, passes declared, and a real defect behind the convention is still
// found; an error floor accepts what it documents and nothing more.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <string>

#include "contract.h"
#include "exact_outputs.h"
#include "law_run.h"
#include "misbehaving_kernels.h"
#include "osvs/api/registry.h"
#include "osvs/kernels/exp.h"
#include "osvs/oracle/bounds.h"

namespace osvs::test {
namespace {

testbed::LawRun<RowCase> accuracy(const RowKernel& k) {
  rc::detail::TestParams p;
  p.seed = 20261201;
  return testbed::run_law<RowKind>(
      *find_row_law("accuracy"), k, 2, [](const Verdict&, const RowCase&) {}, p);
}

/// good_softmax with its subnormal outputs flushed to +0, as `-use_fast_math` does.
void flushing_softmax(const RowProblem& p) {
  good_softmax(p);
  for (std::int64_t i = 0; i < p.rows; ++i)
    for (std::int64_t j = 0; j < p.cols; ++j) {
      float& y = p.y<float>()[i * p.y_stride + j];
      if (std::fabs(y) < FLT_MIN) y = 0;
    }
}

TEST(RowConventions, AFlushedSubnormalIsAFindingUndeclaredAndHoldsDeclared) {
  RowKernel k = host_kernel("test.ftz_softmax", flushing_softmax);
  const auto undeclared = accuracy(k);
  ASSERT_TRUE(undeclared.failed()) << "the generated rows reach subnormal outputs";
  // Shrunk to two elements, one output flushed: "y[1] = 0x0p+0 (0) ... exact 0x1.6a5...p-139".
  const std::string& why = undeclared.smallest_verdict.explanation;
  EXPECT_NE(why.find("= 0x0p+0 (0) for"), std::string::npos) << why;
  EXPECT_EQ(undeclared.smallest->rows[0].size(), 2u) << why;
  k.flush_subnormal_outputs();
  const auto declared = accuracy(k);
  EXPECT_FALSE(declared.failed()) << declared.smallest_verdict.explanation;
  EXPECT_GT(declared.judged, 0);
}

/// Flushes as above and, its real defect, doubles y[0] of every row of two or more elements.
void flushing_and_wrong(const RowProblem& p) {
  flushing_softmax(p);
  if (p.cols >= 2)
    for (std::int64_t i = 0; i < p.rows; ++i) p.y<float>()[i * p.y_stride] *= 2;
}

TEST(RowConventions, TheDeclaredFlushHidesNoRealDefect) {
  const auto r =
      accuracy(host_kernel("test.ftz_and_wrong", flushing_and_wrong).flush_subnormal_outputs());
  ASSERT_TRUE(r.failed());
  EXPECT_EQ(r.smallest->rows[0].size(), 2u) << RowKind::summary(*r.smallest);
}

/// good_softmax with 2^-20 added to every output: within an error floor of 2^-20, not of 2^-21.
void offset_softmax(const RowProblem& p) {
  good_softmax(p);
  for (std::int64_t i = 0; i < p.rows; ++i)
    for (std::int64_t j = 0; j < p.cols; ++j) p.y<float>()[i * p.y_stride + j] += 0x1p-20f;
}

TEST(RowConventions, AnErrorFloorAcceptsWhatItDocumentsAndNoMore) {
  // y + 2^-20 rounds to within 2^-20 (1 + 2^-23) of y: a floor of 2^-19 holds it, 2^-21 not.
  EXPECT_FALSE(accuracy(host_kernel("test.atol", offset_softmax).error_floor(0x1p-19)).failed());
  EXPECT_TRUE(
      accuracy(host_kernel("test.atol_small", offset_softmax).error_floor(0x1p-21)).failed());
}

/// A derived contract takes the verified figure of the exp the kernel declares: CUDA expf's 2 ulp,
/// __expf's 2.5 + floor(1.173 |a|) at the row's range (here 30: 37.5 ulp), glibc's 1 ulp by
/// default for a host kernel; each is the oracle's bound at that figure.
TEST(RowConventions, ADeclaredExpTakesItsVerifiedFigure) {
  const std::vector<float> row = {0, -1, -30, -0.5f};
  const auto n = static_cast<std::int64_t>(row.size());
  const auto with_exp = [](const std::string& exp) {
    return host_kernel("test.exp_" + exp, good_softmax)
        .accuracy(Accuracy::derived({"two_pass", "hardened", 256, exp}));
  };
  const double slack = api::reference_slack_ulps(DType::F32);
  const std::pair<std::string, double> figures[] = {
      {"", GLIBC_EXPF_MAX_ULP}, {"cuda_expf", CUDA_EXPF_MAX_ULP}, {"cuda_fast_expf", 37.5}};
  std::vector<double> previous(row.size(), 0);
  for (const auto& [exp, figure] : figures) {
    const auto tol = api::tolerance_ulps(with_exp(exp), row.data(), n);
    ASSERT_TRUE(tol.has_value());
    const auto bound = oracle::softmax_bound(KernelKind::TwoPass, CombineKind::Hardened, 256,
                                             row.data(), n, figure);
    for (std::size_t j = 0; j < row.size(); ++j) {
      EXPECT_EQ((*tol)[j], bound.y_ulp[j] + slack) << exp << " y[" << j << "]";
      EXPECT_GT((*tol)[j], previous[j]) << exp << ": a less accurate exp, a wider bound";
      previous[j] = (*tol)[j];
    }
  }
  // A row of +-FLT_MAX: __expf's figure at |a| = 104 and no more (e^-104 underflows to 0).
  const std::vector<float> wide = {FLT_MAX, -FLT_MAX, 0};
  const auto capped = api::tolerance_ulps(with_exp("cuda_fast_expf"), wide.data(), 3);
  const auto at_104 =
      oracle::softmax_bound(KernelKind::TwoPass, CombineKind::Hardened, 256, wide.data(), 3, 123.5);
  ASSERT_TRUE(capped.has_value());
  for (std::size_t j = 0; j < wide.size(); ++j) {
    EXPECT_EQ((*capped)[j], at_104.y_ulp[j] + slack);
    EXPECT_GT((*capped)[j], 0);
  }
  EXPECT_NE(declaration_problem(with_exp("expf_guess")).find("no exp 'expf_guess'"),
            std::string::npos);
  EXPECT_NE(
      declaration_problem(host_kernel("test.fast_exp", good_softmax)
                              .accuracy(Accuracy::derived({"fast", "hardened", 256, "cuda_expf"})))
          .find("its own"),
      std::string::npos);
}

}  // namespace
}  // namespace osvs::test
