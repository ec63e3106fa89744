// The audit's attention section: it judges cases on the CPU model, and a violation (or a law that
// judged nothing) fails the release gate.
#include <gtest/gtest.h>

#include "osvs/audit/attention_audit.h"
#include "osvs/audit/report.h"

namespace osvs::audit {
namespace {

TEST(AttentionAudit, JudgesEveryBoundedLawOnTheCpuModel) {
  const AttentionAudit a = audit_attention("cpu", 20261130, 8);
  ASSERT_TRUE(a.not_run.empty()) << a.not_run;
  ASSERT_EQ(a.laws.size(), 6u);
  for (const AttentionLawAudit& l : a.laws) {
    EXPECT_GT(l.cases, 0) << l.law;
    EXPECT_EQ(l.tightness.size(), static_cast<std::size_t>(l.cases)) << l.law;
    EXPECT_LE(l.worst_tightness, 1.0) << l.law;
    EXPECT_EQ(l.violations, 0) << l.law << ": " << l.first_violation;
  }
  EXPECT_TRUE(a.passes());
}

TEST(AttentionAudit, AViolationOrANothingJudgedLawFailsTheGate) {
  AuditReport r;
  r.attention.executor = "cpu";
  r.attention.laws.push_back({"merge_accuracy", 3, 0, 0.5, {0.1, 0.5, 0.2}, 0, ""});
  EXPECT_TRUE(release_passes(r));
  r.attention.laws.push_back({"decode_accuracy", 2, 0, 1.5, {1.5, 0.3}, 1, "o[0] outside"});
  EXPECT_FALSE(release_passes(r));
  r.attention.laws.pop_back();
  r.attention.laws.push_back({"decode_permutation", 0, 9, 0, {}, 0, ""});
  EXPECT_FALSE(release_passes(r));
  r.attention.not_run = "--no-attention";  // said in the report; the softmax sections gate
  EXPECT_TRUE(release_passes(r));
}

}  // namespace
}  // namespace osvs::audit
