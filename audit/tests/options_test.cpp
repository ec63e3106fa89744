#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "osvs/audit/options.h"
#include "osvs/audit/plan.h"

namespace osvs::audit {
namespace {

TEST(Budget, SecondsMinutesAndElements) {
  EXPECT_DOUBLE_EQ(*parse_budget("300s").seconds, 300);
  EXPECT_DOUBLE_EQ(*parse_budget("5m").seconds, 300);
  EXPECT_EQ(*parse_budget("1e9").elements, 1000000000);
  EXPECT_EQ(*parse_budget("2^30").elements, std::int64_t{1} << 30);
}

TEST(Budget, BadTextIsAClearError) {
  for (const char* bad : {"", "fast", "10x", "0s", "-5", "2^"})
    EXPECT_THROW(parse_budget(bad), std::invalid_argument) << bad;
}

TEST(Plan, SelectsKernelsAndRejectsUnknownOnes) {
  AuditOptions opt;
  opt.quick = true;
  opt.kernels = {"three_pass"};
  const Plan p = make_plan(opt, false);
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].label(), "three_pass");
  opt.kernels = {"four_pass"};
  EXPECT_THROW(make_plan(opt, false), std::invalid_argument);
  opt.kernels = {};
  opt.blocks = {48};
  EXPECT_THROW(make_plan(opt, false), std::invalid_argument);
}

TEST(Plan, ElementBudgetIsSharedByEveryConfiguration) {
  AuditOptions opt;
  opt.quick = true;
  opt.budget.elements = std::int64_t{1} << 24;
  const Plan p = make_plan(opt, false);
  const std::int64_t per_config = opt.budget.elements.value() / std::ssize(p.configs);
  for (const Config& c : p.configs)
    EXPECT_EQ(c.rows, std::clamp<std::int64_t>(per_config / c.n, 1, 4096));
  EXPECT_LE(p.elements, *opt.budget.elements + std::ssize(p.configs) * 4097);
}

}  // namespace
}  // namespace osvs::audit

namespace osvs::audit {
namespace {

TEST(Plan, TheGpuPlanReachesTwoToTheTwentyFourAtTheLessonsBlockSizes) {
  const Plan p = make_plan(AuditOptions{}, true);
  EXPECT_EQ(p.sizes.back(), std::int64_t{1} << 24);
  for (const Config& c : p.configs) {
    // The fast kernel's plan picks its own threads (fast_plan.h): it runs at one block size.
    if (c.n > 65537 && c.kut.kernel != KernelKind::Fast) {
      EXPECT_TRUE(c.block == 256 || c.block == 1024) << c.block;
    }
  }
  const Plan cpu = make_plan(AuditOptions{}, false);
  EXPECT_EQ(cpu.sizes.back(), 65537);
}

TEST(Plan, TheDefaultPlanReachesEveryLayoutOfTheFastKernel) {
  for (const bool quick : {false, true}) {
    AuditOptions opt;
    opt.quick = quick;
    const Plan p = make_plan(opt, false);
    std::set<std::int64_t> fast, lesson;
    for (const Config& c : p.configs)
      (c.kut.kernel == KernelKind::Fast ? fast : lesson).insert(c.n);
    // Its split rows (past 131072) and its first cluster length (8193) among them; the lesson's
    // kernels keep the plan's lengths.
    EXPECT_TRUE(fast.count(131073) && fast.count(8193)) << quick;
    if (!quick) EXPECT_TRUE(fast.count(262145));
    EXPECT_EQ(lesson, std::set<std::int64_t>(p.sizes.begin(), p.sizes.end())) << quick;
  }
}

TEST(Plan, ColsReplaceThePlansRowLengths) {
  AuditOptions opt;
  opt.kernels = {"fast"};
  opt.families = {"normal_10"};
  opt.cols = {1 << 20, 1024, 8192, 1024};
  opt.budget.elements = std::int64_t{1} << 26;
  const Plan p = make_plan(opt, true);
  EXPECT_EQ(p.sizes, (std::vector<std::int64_t>{1024, 8192, 1 << 20}));
  ASSERT_EQ(p.configs.size(), 3u);  // the fast kernel runs at one block size
  EXPECT_EQ(p.configs.back().n, 1 << 20);
  EXPECT_EQ(p.configs.back().rows, (std::int64_t{1} << 26) / 3 / (1 << 20));  // 21 rows of 2^20
}

}  // namespace
}  // namespace osvs::audit
