// Everything one audit run found, and the summaries every output (console, markdown, JSON) shows.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "osvs/audit/config_audit.h"
#include "osvs/audit/options.h"
#include "osvs/audit/perf_audit.h"
#include "osvs/audit/plan.h"
#include "osvs/audit/search.h"
#include "osvs/replay/regression.h"

namespace osvs::audit {

struct AuditReport {
  AuditOptions options;
  Plan plan;
  Provenance provenance;  ///< commit, date, executor, device, nvcc
  bool gpu = false;
  double exp_ulp = 0;  ///< accuracy of the kernels' exp the bounds assume
  int cpu_threads = 1;
  std::vector<ConfigResult> configs;  ///< audited, in plan order
  std::int64_t configs_skipped = 0;   ///< left out by a time budget
  double sweep_seconds = 0;
  SearchResult search;
  std::vector<std::string> regression_files;  ///< written for bound violations
  PerfAudit perf;
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

/// True when no bound was violated and no claimed law failed: the release may go.
bool release_passes(const AuditReport& r);

/// Elements audited per second of sweep wall time.
double elements_per_second(const AuditReport& r);

/// Writes audit.json (every number) to dir/audit.json.
void write_json(const AuditReport& r, const std::filesystem::path& dir);

/// Writes worst_cases.json (the search's worst rows as hex floats, with provenance).
void write_worst_cases(const AuditReport& r, const std::filesystem::path& dir);

/// Writes audit.md (tables, derivation summary, provenance) to dir/audit.md.
void write_markdown(const AuditReport& r, const std::filesystem::path& dir);

/// The console table printed at the end of a run.
std::string console_table(const AuditReport& r);

}  // namespace osvs::audit
