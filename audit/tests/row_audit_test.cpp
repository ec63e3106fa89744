#include "osvs/audit/row_audit.h"

#include <gtest/gtest.h>

#include <cmath>

#include "osvs/kernels/executor.h"
#include "osvs/kernels/exp.h"

namespace osvs::audit {
namespace {

const KernelUnderTest kHardened{KernelKind::TwoPass, CombineKind::Hardened};

SoftmaxResult run(const std::vector<float>& x) {
  SoftmaxBatch b;
  b.kernel = kHardened.kernel;
  b.combine = kHardened.combine;
  b.block = 32;
  b.rows = 1;
  b.cols = std::ssize(x);
  b.x = x;
  return make_cpu_executor()->softmax(b);
}

TEST(RowAudit, TheCpuModelIsWithinItsBound) {
  const std::vector<float> x = {0.5f, -3.0f, 2.25f, 10.0f, -40.0f};
  const SoftmaxResult r = run(x);
  ErrorStats stats;
  const RowAudit a = audit_row(kHardened, 32, x.data(), std::ssize(x), r.y.data(), r.row_state[0],
                               kexp_max_ulp(false), &stats);
  EXPECT_TRUE(a.ok) << a.explanation;
  EXPECT_EQ(stats.count(), 5);
  EXPECT_LE(a.ratio, 1.0);
  EXPECT_GT(a.y_bound_max, 0.0);
}

// A perturbed output must be caught: y[3] moved by 1000 ulps is far outside any bound for this
// row (the bounds are a few ulps for |x - m| <= 50).
TEST(RowAudit, APerturbedOutputIsAViolation) {
  const std::vector<float> x = {0.5f, -3.0f, 2.25f, 10.0f, -40.0f};
  SoftmaxResult r = run(x);
  for (int k = 0; k < 1000; ++k) r.y[3] = std::nextafter(r.y[3], 0.0f);
  const RowAudit a = audit_row(kHardened, 32, x.data(), std::ssize(x), r.y.data(), r.row_state[0],
                               kexp_max_ulp(false), nullptr);
  EXPECT_FALSE(a.ok);
  EXPECT_EQ(a.worst_ulp.index, 3);
  EXPECT_GT(a.ratio, 1.0);
  EXPECT_NE(a.explanation.find("ulp"), std::string::npos);
}

TEST(RowAudit, AWrongDIsAViolation) {
  const std::vector<float> x = {1.0f, 2.0f};
  SoftmaxResult r = run(x);
  r.row_state[0].d *= 1.01f;
  const RowAudit a = audit_row(kHardened, 32, x.data(), 2, r.y.data(), r.row_state[0],
                               kexp_max_ulp(false), nullptr);
  EXPECT_FALSE(a.ok);
  EXPECT_NEAR(a.d_rel, 0.01, 1e-6);
}

TEST(RowAudit, SpecialRowsAreHeldToTheDocumentedOutputs) {
  const std::vector<float> nan_row = {1.0f, NAN};
  const std::vector<float> all_nan = {NAN, NAN}, zeros = {0.0f, 0.0f};
  EXPECT_TRUE(audit_row(kHardened, 32, nan_row.data(), 2, all_nan.data(), State{}, 1, nullptr).ok);
  EXPECT_FALSE(audit_row(kHardened, 32, nan_row.data(), 2, zeros.data(), State{}, 1, nullptr).ok);
  // A fully masked row: the hardened 2-pass kernel documents 0, the seed NaN (documented.h).
  const std::vector<float> masked = {-INFINITY, -INFINITY};
  EXPECT_TRUE(audit_row(kHardened, 32, masked.data(), 2, zeros.data(), State{}, 1, nullptr).ok);
  EXPECT_FALSE(audit_row(kHardened, 32, masked.data(), 2, all_nan.data(), State{}, 1, nullptr).ok);
  const KernelUnderTest seed{KernelKind::TwoPass, CombineKind::Seed};
  EXPECT_TRUE(audit_row(seed, 32, masked.data(), 2, all_nan.data(), State{}, 1, nullptr).ok);
  EXPECT_FALSE(audit_row(seed, 32, masked.data(), 2, zeros.data(), State{}, 1, nullptr).ok);
}

}  // namespace
}  // namespace osvs::audit
