// The whole audit: sweep, laws, targeted search, performance, reports. Returns the exit status.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "osvs/audit/options.h"

namespace osvs::audit {

/// Where a run writes when --out is not given: osvs-reports/audit/<executor>/<YYYY-MM-DD>,
/// relative to the current directory (never the source tree; `--out reports/audit/...` is how a
/// report meant to be committed is written). `date` is ISO 8601.
std::filesystem::path default_out_dir(const std::string& executor, const std::string& date);

/// Runs the audit described by `opt` and writes its report: audit.md, summary.json and the plots,
/// and the full detail (audit.json, worst_cases.json, gzipped when large; the plots' data files;
/// bound-violating cases under regressions/). Exit status: 0 when the release
/// passes, 1 when a bound is violated or a claimed law fails, 2 when the executor is missing.
/// Throws std::invalid_argument for bad options, std::runtime_error when a file cannot be written.
/// With opt.shard not whole, sweeps only that part of the plan (the targeted search from its own
/// worst rows; the attention section and the performance audit in shard 0 only) and also writes
/// the shard file that merge_audit joins (shard.h).
int run_audit(const AuditOptions& opt);

/// Joins the shard runs of one audit (their report folders) and writes the report of the whole
/// plan to `out`. Exit status as run_audit's; throws std::invalid_argument when the folders are
/// not the shards of one audit and std::runtime_error when a shard file cannot be read.
int merge_audit(const std::vector<std::string>& shard_dirs, const std::string& out, bool plots);

}  // namespace osvs::audit
