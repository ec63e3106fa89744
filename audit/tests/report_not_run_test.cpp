// A configuration that did not run (left out by the time budget) reads "not run" in every report,
// never a number: the review found "0.00 / 0.0" for three_pass at N = 2^24 where nothing ran.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "osvs/audit/report.h"

namespace osvs::audit {
namespace {

const KernelUnderTest kSeed{KernelKind::TwoPass, CombineKind::Seed};
const KernelUnderTest kThree{KernelKind::ThreePass, CombineKind::Seed};
constexpr std::int64_t kShort = 1000, kLong = std::int64_t{1} << 24;

ConfigResult ran(const KernelUnderTest& k, std::int64_t n, double max_ulp) {
  ConfigResult c;
  c.config = {k, 256, n, find_family("normal_1"), 1};
  c.elements = n;
  c.ulp.add(max_ulp);
  c.y_bound_max = 2 * max_ulp;
  return c;
}

/// Both kernels ran at N = 1000; at N = 2^24 only the 2-pass kernel did before the budget ended.
AuditReport budget_cut_report() {
  AuditReport r;
  r.plan.kernels = {kSeed, kThree};
  r.plan.sizes = {kShort, kLong};
  r.configs = {ran(kSeed, kShort, 1.5), ran(kThree, kShort, 2.5), ran(kSeed, kLong, 12.5)};
  r.not_run = {Config{kThree, 256, kLong, find_family("normal_1"), 1}};
  r.plan.configs = {r.configs[0].config, r.configs[1].config, r.configs[2].config, r.not_run[0]};
  r.provenance.executor = "cuda";
  r.perf.skipped_because = "test";
  return r;
}

std::string line_of(const std::string& text, const std::string& start) {
  const auto at = text.find(start);
  if (at == std::string::npos) return "";
  return text.substr(at, text.find('\n', at) - at);
}

TEST(NotRun, WorstErrorVsNSaysNotRunWhereNothingRan) {
  const std::string all = markdown_text(budget_cut_report());
  const auto table = all.find("### Worst error vs N");
  ASSERT_NE(table, std::string::npos) << all;
  const std::string md = all.substr(table);
  const std::string row = line_of(md, "| " + std::to_string(kLong) + " |");
  ASSERT_FALSE(row.empty()) << md;
  EXPECT_EQ(row, "| " + std::to_string(kLong) + " | 12.50 / 25.0 | not run |");
  EXPECT_EQ(line_of(md, "| " + std::to_string(kShort) + " |"),
            "| " + std::to_string(kShort) + " | 1.50 / 3.0 | 2.50 / 5.0 |");
  EXPECT_NE(all.find("1 planned configurations not run"), std::string::npos) << all;
}

TEST(NotRun, AKernelWithNoConfigurationReadsNotRun) {
  AuditReport r = budget_cut_report();
  r.configs.pop_back();
  r.configs.erase(r.configs.begin() + 1);  // no three_pass configuration left
  const std::vector<KernelSummary> kernels = summarize_kernels(r);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_STREQ(verdict(kernels[1]), "not run");
  EXPECT_STREQ(verdict(kernels[0]), "pass");
  const std::string md = markdown_text(r);
  EXPECT_NE(md.find("| three_pass | not run |"), std::string::npos) << md;
  const std::string console = line_of(console_table(r), "three_pass");
  EXPECT_NE(console.find("not run"), std::string::npos) << console_table(r);
}

TEST(NotRun, SummaryJsonSaysNotRunAndListsTheConfiguration) {
  const auto j = nlohmann::json::parse(summary_json_text(budget_cut_report()));
  const auto& by_n = j.at("worst_vs_n");
  ASSERT_EQ(by_n.size(), 2u);
  EXPECT_EQ(by_n[1].at("n"), kLong);
  EXPECT_EQ(by_n[1].at("three_pass"), "not run");
  EXPECT_EQ(by_n[1].at("two_pass/seed").at("max_ulp"), 12.5);
  const auto& not_run = j.at("gate").at("configs_not_run");
  ASSERT_EQ(not_run.size(), 1u);
  EXPECT_EQ(not_run[0], describe(budget_cut_report().not_run[0]));
}

}  // namespace
}  // namespace osvs::audit
