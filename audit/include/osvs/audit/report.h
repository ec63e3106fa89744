// Everything one audit run found, and the summaries every output (console, markdown, JSON) shows.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "osvs/audit/attention_audit.h"
#include "osvs/audit/attention_kernels_audit.h"
#include "osvs/audit/config_audit.h"
#include "osvs/audit/options.h"
#include "osvs/audit/perf_audit.h"
#include "osvs/audit/plan.h"
#include "osvs/audit/search.h"
#include "osvs/audit/shard.h"
#include "osvs/replay/regression.h"

namespace osvs::audit {

/// What an audit run is, apart from what it found: the shards of one audit share it (a merge
/// checks that they agree on what decides the results, and the merged report takes the first's).
struct AuditRun {
  AuditOptions options;
  Plan plan;
  Provenance provenance;  ///< commit, date, executor, device, nvcc
  bool gpu = false;
  double exp_ulp = 0;  ///< accuracy of the kernels' exp the bounds assume
  int cpu_threads = 1;
};

struct AuditReport : AuditRun {
  int launchers = 1;                  ///< launcher threads of the sweep (sweep.h)
  int devices = 0;                    ///< GPUs the sweep's batches ran on (0: the CPU model)
  Shard shard;                        ///< the part of the plan this run swept (whole by default)
  int merged_shards = 0;              ///< joined from this many shard runs (0: one run)
  std::vector<ConfigResult> configs;  ///< audited, in plan order
  std::vector<Config> not_run;        ///< planned but left out by a time budget, in plan order
  double sweep_seconds = 0;
  SearchResult search;
  std::vector<std::string> regression_files;  ///< written for bound violations
  PerfAudit perf;
  AttentionAudit attention;  ///< the attention section (not_run says why when skipped)
  /// The section per registered attention kernel (not_run says why when skipped).
  AttentionKernelsAudit attention_kernels;
  double total_seconds = 0;
};

/// One kernel's results over every audited configuration.
struct KernelSummary {
  KernelUnderTest kut;
  std::int64_t configs = 0, elements = 0;
  ErrorStats ulp;
  double tightness = 0, y_bound_max = 0;
  double d_rel_max = 0, d_tightness = 0;
  const ConfigResult* worst_ulp = nullptr;    ///< configuration of the largest error
  const ConfigResult* worst_ratio = nullptr;  ///< configuration of the highest tightness
  double search_ratio = 0;                    ///< best ratio the targeted search reached
  std::int64_t violating_rows = 0;
  std::int64_t law_failures = 0;   ///< claimed laws failing or not runnable
  std::int64_t known_defects = 0;  ///< unclaimed laws failing
};

/// "pass", "fail" or "not run" (no configuration of the kernel ran).
const char* verdict(const KernelSummary& k);

/// "pass" or "fail": a violating row or a claimed law failing fails a configuration.
const char* verdict(const ConfigResult& c);

/// One kernel's worst error and largest bound over the configurations of one N.
struct SizeCell {
  bool ran = false;  ///< false: no configuration of this kernel and N ran (it reads "not run")
  double max_ulp = 0, max_bound = 0;
};

/// Worst error vs N: one row per planned N, one cell per planned kernel (plan order).
struct SizeRow {
  std::int64_t n = 0;
  std::vector<SizeCell> cells;
};

std::vector<SizeRow> worst_by_size(const AuditReport& r);

/// One property on one kernel over every configuration it was judged on.
struct LawSummary {
  std::string kernel;  ///< KernelUnderTest::label()
  std::string property;
  bool exact = false;
  std::int64_t runs = 0, holds = 0, not_applicable = 0;
  std::int64_t claimed_failures = 0, unclaimed_failures = 0, errors = 0;
  std::string first_failure;  ///< configuration and explanation
};

std::vector<KernelSummary> summarize_kernels(const AuditReport& r);
std::vector<LawSummary> summarize_laws(const AuditReport& r);

/// A configuration as "two_pass/seed b=256 N=1000 normal_10".
std::string describe(const Config& c);

/// True when no bound was violated and no claimed law failed, and every registered attention
/// kernel is within its contract and fails no law it does not declare a known defect: the
/// release may go.
bool release_passes(const AuditReport& r);

/// Elements audited per second of sweep wall time.
double elements_per_second(const AuditReport& r);

/// A bound in ulps for the tables: one decimal, or three significant digits in scientific form
/// from 10^6 on (a bound over an element whose exact value is tiny can reach 10^31 ulps).
std::string bound_text(double ulps);

/// Every number of the run (audit.json), and the search's worst rows as hex floats with
/// provenance (worst_cases.json): the full detail, written gzipped when large (report_files.h).
std::string audit_json_text(const AuditReport& r);
std::string worst_cases_json_text(const AuditReport& r);
void write_json(const AuditReport& r, const std::filesystem::path& dir);
void write_worst_cases(const AuditReport& r, const std::filesystem::path& dir);

/// summary.json: small enough to commit. Provenance, the gate (release verdict and what decides
/// it), each kernel's verdict, worst errors and tightness, worst error vs N ("not run" where
/// nothing ran), the configurations that did not pass. Every wall-clock number is under "timing".
std::string summary_json_text(const AuditReport& r);
void write_summary(const AuditReport& r, const std::filesystem::path& dir);

/// audit.md (tables, derivation summary, provenance). Every wall-clock number is in its sections
/// "Timing" and "Performance" or on the "- date:" line.
std::string markdown_text(const AuditReport& r);
void write_markdown(const AuditReport& r, const std::filesystem::path& dir);

/// The console table printed at the end of a run.
std::string console_table(const AuditReport& r);

}  // namespace osvs::audit
