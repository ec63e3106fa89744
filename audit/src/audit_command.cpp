#include "osvs/audit/audit_command.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "osvs/api/kind.h"
#include "osvs/audit/attention_kernels_audit.h"
#include "osvs/audit/plan.h"
#include "osvs/audit/plot.h"
#include "osvs/audit/plugin_audit.h"
#include "osvs/audit/run_audit.h"
#include "osvs/audit/shard.h"
#include "rc_check.h"

namespace osvs {

void add_audit_command(CLI::App& app) {
  auto opt = std::make_shared<audit::AuditOptions>();
  auto budget = std::make_shared<std::string>();
  auto plot_dir = std::make_shared<std::string>();
  auto plugins = std::make_shared<audit::PluginAuditOptions>();
  auto shard = std::make_shared<std::string>();
  auto merge = std::make_shared<std::vector<std::string>>();
  CLI::App* sub = app.add_subcommand(
      "audit", "Audit every kernel's error against its derived bound and its laws (release gate)");
  sub->add_flag("--quick", opt->quick, "A small sweep for CI (well under a minute on a CPU)");
  sub->add_option("--executor", opt->executor, "Where to run the kernels: cpu, cuda or best")
      ->check(CLI::IsMember({"cpu", "cuda", "best"}))
      ->capture_default_str();
  sub->add_option("--kernel", opt->kernels,
                  "Kernels to audit: two_pass, three_pass, fast (default: all three; fast also at "
                  "its declared layouts' lengths)")
      ->check(CLI::IsMember({"two_pass", "three_pass", "fast"}));
  sub->add_option("--combine", opt->combines, "Combine operators of the 2-pass kernel")
      ->check(CLI::IsMember({"seed", "hardened"}));
  sub->add_option("--block", opt->blocks, "Block sizes (32 ... 1024)")
      ->check(CLI::IsMember({32, 64, 128, 256, 512, 1024}));
  sub->add_option(
         "--cols", opt->cols,
         "Row lengths to sweep instead of the plan's (the shapes you ship, e.g. 1024 8192)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{0x7fffffff}));
  sub->add_option("--family", opt->families, "Input families (see audit.md), default all");
  sub->add_option("--budget", *budget,
                  "Limit the sweep: seconds (300s, 5m) or elements (1e9, 2^30)");
  sub->add_option("--search-rounds", opt->search_rounds,
                  fmt::format("Rounds of the targeted search (default {}, --quick {})",
                              audit::kSearchRounds, audit::kQuickSearchRounds))
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--search-seconds", opt->search_seconds,
                  "Limit the targeted search by wall time instead of rounds (not reproducible)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--seed", opt->seed, "Seed of every random input")->capture_default_str();
  sub->add_option("--out", opt->out,
                  "Report folder (default osvs-reports/audit/<executor>/<date> in the current "
                  "directory; the committed report: --out reports/audit/<executor>)");
  sub->add_option("--regression-dir", opt->regression_dir,
                  "Where bound-violating cases are saved (default <out>/regressions)");
  sub->add_option("--devices", opt->devices,
                  "GPUs the sweep's kernels run on (default 0: every visible one); the report "
                  "is the same whatever the number")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--shard", *shard,
                  "Sweep only part i/n of the plan (configurations k with k % n == i; default: "
                  "the GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS environment, else the whole plan)");
  sub->add_option("--merge", *merge,
                  "Join the reports of shard runs (their folders) into the report of the whole "
                  "plan, written to --out")
      ->check(CLI::ExistingDirectory);
  sub->add_flag("!--no-perf", opt->perf, "Skip the performance audit");
  sub->add_flag("!--no-attention", opt->attention,
                "Skip the attention sections (merge-states / split-decode laws, and every "
                "registered attention kernel)");
  sub->add_option("--attention-cases", opt->attention_cases,
                  fmt::format("Generated cases per registered attention kernel and law (default "
                              "{}, --quick {})",
                              audit::kAttentionKernelCases, audit::kQuickAttentionKernelCases))
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("!--no-plots", opt->plots, "Do not draw the PNG plots");
  sub->add_option("--plot", *plot_dir, "Only draw the plots of an existing report folder")
      ->check(CLI::ExistingDirectory);
  sub->add_option("--plugin", plugins->plugins,
                  "Audit the kernels registered in these plugins (osvs_add_kernel_plugin)")
      ->check(CLI::ExistingFile);
  sub->add_option("--plugin-kernel", plugins->kernels, "Only these kernels of the plugins");
  sub->add_option("--kernel-seconds", plugins->kernel_seconds,
                  "A plugin kernel's audit is stopped after this many seconds")
      ->check(CLI::PositiveNumber);
  // The process that audits one plugin kernel (started by the audit itself).
  std::vector<std::string> kinds;  // every kind's name (the one list, osvs/api/kind.h)
  for_each_kind([&kinds](auto kind) { kinds.push_back(decltype(kind)::name); });
  sub->add_option("--child-kind", plugins->child_kind)->check(CLI::IsMember(kinds))->group("");
  sub->add_option("--child-kernel", plugins->child_kernel)->group("");
  sub->add_option("--child-out", plugins->child_out)->group("");
  sub->callback([opt, budget, plot_dir, plugins, shard, merge] {
    // Every input of the audit derives from --seed: RapidCheck's own seed is never used.
    testbed::load_configuration_quietly();
    if (!plugins->plugins.empty()) {
      const int status = audit::run_plugin_audit(*plugins, *opt);
      if (status != 0) throw CLI::RuntimeError(status);
      return;
    }
    if (!plot_dir->empty()) {
      std::string message;
      const bool drawn = audit::draw_plots(*plot_dir, &message);
      fmt::print("{}\n", message);
      if (!drawn) throw CLI::RuntimeError(1);
      return;
    }
    int status = 0;
    try {
      if (!merge->empty()) {
        if (opt->out.empty())
          throw std::invalid_argument("--merge needs --out, the folder of the joined report");
        status = audit::merge_audit(*merge, opt->out, opt->plots);
        if (status != 0) throw CLI::RuntimeError(status);
        return;
      }
      if (!budget->empty()) opt->budget = audit::parse_budget(*budget);
      if (!shard->empty())
        opt->shard = audit::parse_shard(*shard);
      else if (const auto from_env = audit::shard_from_environment())
        opt->shard = *from_env;
      status = audit::run_audit(*opt);
    } catch (const std::invalid_argument& e) {
      throw CLI::ValidationError("osvs audit", e.what());
    }
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

}  // namespace osvs
