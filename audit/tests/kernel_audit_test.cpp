// The plugin audit's per-kernel report survives the trip from the child process to the parent,
// non-finite errors included (a kernel that returns inf or NaN), and the gate reads its status.
#include <gtest/gtest.h>

#include <cmath>

#include "misbehaving_kernels.h"
#include "osvs/audit/kernel_audit.h"

namespace osvs::test {
namespace {

TEST(RowAudit, ReportsRoundTripWithNonFiniteErrors) {
  KernelAudit a;
  a.kernel = "k";
  a.status = "violations";
  a.sweep.push_back({"normal_10", 7, 2, 14, INFINITY, NAN, 3, "y[0] = inf"});
  a.laws.push_back({.law = "accuracy", .status = "fails", .detail = "why"});
  a.laws.push_back({.law = "determinism",
                    .status = "fails",
                    .detail = "o[0] differs",
                    .asks = "bitwise",
                    .cases = 3,
                    .vacuous = 1,
                    .shape_classes = 2,
                    .minimal_case = "1 sequence (q x k: 1x2)"});
  const KernelAudit back = kernel_audit_from_json(to_json(a));
  ASSERT_EQ(back.sweep.size(), 1u);
  EXPECT_TRUE(std::isinf(back.sweep[0].worst_ulp));
  EXPECT_TRUE(std::isnan(back.sweep[0].worst_ratio));
  EXPECT_EQ(back.sweep[0].violations, 3);
  ASSERT_EQ(back.laws.size(), 2u);
  EXPECT_EQ(back.laws[1].asks, "bitwise");
  EXPECT_EQ(back.laws[1].shape_classes, 2);
  EXPECT_EQ(back.laws[1].minimal_case, "1 sequence (q x k: 1x2)");
  EXPECT_EQ(to_json(back), to_json(a));
  EXPECT_FALSE(gate_passes(back));
}

TEST(RowAudit, AnUnsafeKernelFailsTheGateAndACorrectOnePasses) {
  KernelAuditOptions o;
  o.quick = true;
  o.law_cases = 10;
  const auto bad = audit_kernel(host_kernel("unsafe", unsafe_softmax), o);
  EXPECT_EQ(bad.status, "violations");
  const auto good = audit_kernel(host_kernel("good", good_softmax), o);
  EXPECT_EQ(good.status, "passes") << to_json(good);
  const auto none = audit_kernel(RowKernel("none", Where::Host).run(good_softmax), o);
  EXPECT_EQ(none.status, "no contract");
  EXPECT_NE(plugin_audit_markdown({good, none}, "p").find("no contract declared"),
            std::string::npos);
}

/// Correct except on rows longer than 8192, where the last output is dropped (a path for long
/// rows that loses its last piece's tail).
void long_rows_lose_their_tail(const RowProblem& p) {
  good_softmax(p);
  if (p.cols > 8192)
    for (std::int64_t i = 0; i < p.rows; ++i) p.y<float>()[i * p.y_stride + p.cols - 1] = 0;
}

TEST(RowAudit, TheSweepReachesEveryDeclaredLayout) {
  KernelAuditOptions o;
  o.quick = true;
  o.law_cases = 1;
  RowKernel k = host_kernel("long_rows", long_rows_lose_their_tail);
  EXPECT_EQ(audit_kernel(k, o).status, "passes") << "the quick sweep's fixed lengths end at 4097";
  k.layout("one block", 1).layout("cluster", 8193, 4096);
  const KernelAudit a = audit_kernel(k, o);
  EXPECT_EQ(a.status, "violations");
  bool swept = false;
  for (const RowSweepCell& c : a.sweep)
    if (c.n == 8193) swept = swept || c.violations > 0;
  EXPECT_TRUE(swept) << to_json(a);
}

}  // namespace
}  // namespace osvs::test
