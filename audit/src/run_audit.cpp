#include "osvs/audit/run_audit.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include <fmt/format.h>

#include "json_parts.h"
#include "osvs/api/registry.h"
#include "osvs/audit/config_audit.h"
#include "osvs/audit/determinism_certificate.h"
#include "osvs/audit/plot.h"
#include "osvs/audit/progress.h"
#include "osvs/audit/report.h"
#include "osvs/audit/report_files.h"
#include "osvs/audit/sweep.h"
#include "osvs/kernels/exp.h"
#include "osvs/properties/registry.h"
#include "parallel.h"

namespace osvs::audit {
namespace {

namespace fs = std::filesystem;

/// Rows the targeted search starts from: per kernel, the worst rows of its tightest
/// configurations with N <= kMaxSearchRow (long rows make each mutation round slow).
constexpr std::int64_t kMaxSearchRow = 4097;
constexpr int kSeedsPerKernel = 4;

/// Generated cases per attention law: a count, so the section is the same in every run.
constexpr int kAttentionCases = 300;
constexpr int kQuickAttentionCases = 25;

/// The attention kernels' section as the run's options ask: the cases per kernel and law, the
/// seed, the device kernels only on a GPU, the oracle on every core.
AttentionKernelsOptions attention_kernels_options(const AuditReport& r) {
  AttentionKernelsOptions o;
  o.seed = r.options.seed;
  o.cases = r.options.attention_cases >= 0 ? r.options.attention_cases
            : r.options.quick              ? kQuickAttentionKernelCases
                                           : kAttentionKernelCases;
  o.device = r.gpu;
  o.threads = r.cpu_threads;
  return o;
}

std::vector<SearchCase> search_seeds(const AuditReport& r) {
  std::vector<const ConfigResult*> order;
  for (const ConfigResult& c : r.configs)
    if (c.config.n <= kMaxSearchRow && !c.worst_row.empty()) order.push_back(&c);
  // Equal tightness keeps plan order: the seeds do not depend on the sort's implementation.
  std::stable_sort(order.begin(), order.end(),
                   [](const auto* a, const auto* b) { return a->tightness > b->tightness; });
  std::vector<SearchCase> seeds;
  for (const KernelUnderTest& k : r.plan.kernels) {
    int taken = 0;
    for (const ConfigResult* c : order) {
      if (c->config.kut.label() != k.label() || taken == kSeedsPerKernel) continue;
      ++taken;
      SearchCase s{k, c->config.block, c->worst_row, "sweep " + describe(c->config), 0, {}};
      s.audit.ratio = c->tightness;
      s.audit.worst_ratio = c->worst_ratio;
      seeds.push_back(std::move(s));
    }
  }
  return seeds;
}

/// Saves a row outside its bound as a regression file for accuracy (expectation: holds,
/// so that it fails in the replay test until the kernel or the bound is fixed).
std::string save_violation(const KernelUnderTest& kut, int block, const std::vector<float>& row,
                           Executor& executor, const AuditOptions& opt, const fs::path& root,
                           const std::string& where) {
  RegressionRecord rec;
  rec.property = "accuracy";
  rec.input.kernel = kut.kernel;
  rec.input.combine = kut.combine;
  rec.input.block = block;
  rec.input.rows = {row};
  const PropertyInfo* p = find_property(rec.property);
  rec.verdict = p ? p->check(rec.input, executor) : Verdict::fail("found by the audit");
  rec.expectation = Expectation::Holds;
  rec.needs_gpu = executor.is_gpu();
  rec.provenance = make_provenance(executor, "audit");
  rec.note = "osvs audit (seed " + std::to_string(opt.seed) + "): " + where;
  return write_regression(rec, root).string();
}

/// The report files: the full detail, summary.json and audit.md, then the plots (drawn from the
/// detail).
void write_reports(const AuditReport& r, const fs::path& out) {
  write_json(r, out);
  write_worst_cases(r, out);
  write_summary(r, out);
  write_text_file(out / "certificate.json", certificate_json(certified_kernels(r.attention_kernels),
                                                             provenance(r.provenance)));
  write_markdown(r, out);
  if (r.options.plots) {
    std::string message;
    draw_plots(out, &message);
    fmt::print("{}\n", message);
  }
}

}  // namespace

fs::path default_out_dir(const std::string& executor, const std::string& date) {
  return fs::path("osvs-reports") / "audit" / executor / date.substr(0, 10);
}

int run_audit(const AuditOptions& opt) {
  const auto start = std::chrono::steady_clock::now();
  std::string why_not;
  const std::unique_ptr<Executor> executor = make_executor(opt.executor, &why_not);
  if (!executor) {
    fmt::print(stderr, "osvs audit: no {} executor: {}\n", opt.executor, why_not);
    return 2;
  }
  AuditReport r;
  r.options = opt;
  r.shard = opt.shard;
  r.gpu = executor->is_gpu();
  r.plan = make_plan(opt, r.gpu);
  r.provenance = make_provenance(*executor, "audit");
  r.exp_ulp = kexp_max_ulp(r.gpu);
  r.cpu_threads = worker_count();
  const fs::path out = opt.out.empty() ? default_out_dir(r.provenance.executor, r.provenance.date)
                                       : fs::path(opt.out);
  const fs::path regressions =
      opt.regression_dir.empty() ? out / "regressions" : fs::path(opt.regression_dir);
  fs::create_directories(out);
  fmt::print("osvs audit on {}: {}\n{} configurations, {:.3g} elements, search {} -> {}\n",
             executor->name(), executor->describe(), r.plan.configs.size(),
             static_cast<double>(r.plan.elements),
             r.plan.search.seconds ? fmt::format("{:.0f} s", *r.plan.search.seconds)
                                   : fmt::format("{} rounds", r.plan.search.rounds),
             out.string());

  std::vector<Config> swept;
  for (std::size_t k = 0; k < r.plan.configs.size(); ++k)
    if (r.shard.owns(k)) swept.push_back(r.plan.configs[k]);
  r.devices = sweep_devices(*executor, opt.devices);
  run_sweep(r, swept, sweep_launchers(*executor, opt.devices));
  for (const ConfigResult& c : r.configs)
    if (c.violating_rows > 0 && !c.worst_row.empty())
      r.regression_files.push_back(save_violation(c.config.kut, c.config.block, c.worst_row,
                                                  *executor, opt, regressions, describe(c.config)));

  // A shard climbs from its own worst rows with its share of the rounds (shard.h).
  SearchBudget search = r.plan.search;
  search.rounds = (search.rounds + r.shard.count - 1) / r.shard.count;
  const std::uint64_t search_seed =
      opt.seed ^ (static_cast<std::uint64_t>(r.shard.index) * 0x9e3779b97f4a7c15ull);
  r.search = targeted_search(search_seeds(r), *executor, search, search_seed);
  for (const SearchCase& s : r.search.worst)
    if (!s.audit.ok)
      r.regression_files.push_back(
          save_violation(s.kut, s.block, s.row, *executor, opt, regressions, s.origin));

  const std::string other_shard = "shard " + std::to_string(r.shard.index) + "/" +
                                  std::to_string(r.shard.count) + " (shard 0 runs it)";
  if (!opt.attention)
    r.attention.not_run = "--no-attention";
  else if (r.shard.index != 0)
    r.attention.not_run = other_shard;
  else
    r.attention =
        audit_attention(opt.executor, opt.seed, opt.quick ? kQuickAttentionCases : kAttentionCases);
  // The attention kernels are sharded as the configurations are: kernel k of the registry on
  // shard k % n (each kernel's cases are seeded by its name, so a shard's are the whole run's).
  if (!opt.attention)
    r.attention_kernels.not_run = "--no-attention";
  else
    r.attention_kernels = audit_attention_kernels(
        shard_part(registered<AttentionKernel>(), r.shard), attention_kernels_options(r));
  fmt::print("attention: {}\n", r.attention.not_run.empty()
                                    ? (r.attention.passes() ? "every case within its bound"
                                                            : "VIOLATIONS (audit.md, Attention)")
                                    : "not run: " + r.attention.not_run);
  if (r.attention_kernels.not_run.empty())
    for (const AttentionKernelAccuracy& k : r.attention_kernels.kernels)
      fmt::print("attention kernel {}: {}\n", k.kernel,
                 !k.not_run.empty() ? "not run: " + k.not_run
                 : k.passes()       ? "within its contract, no law failing"
                                    : "FAILS (audit.md, Attention kernels)");
  if (!opt.perf)
    r.perf.skipped_because = "--no-perf";
  else if (r.shard.index != 0)
    r.perf.skipped_because = other_shard;
  else
    r.perf = audit_performance(r.plan.kernels, *executor);

  r.total_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  write_reports(r, out);
  if (!r.shard.whole()) write_shard_file(r, out);
  fmt::print("\n{}report: {}\n", console_table(r), (out / "audit.md").string());
  return release_passes(r) ? 0 : 1;
}

int merge_audit(const std::vector<std::string>& shard_dirs, const std::string& out, bool plots) {
  std::vector<AuditReport> shards;
  for (const std::string& dir : shard_dirs) shards.push_back(read_shard_file(dir));
  AuditReport r = merge_shards(std::move(shards));
  r.options.plots = plots;
  fs::create_directories(out);
  write_reports(r, out);
  fmt::print("{} shards joined: {} configurations\n\n{}report: {}\n", r.merged_shards,
             r.configs.size(), console_table(r), (fs::path(out) / "audit.md").string());
  return release_passes(r) ? 0 : 1;
}

}  // namespace osvs::audit
