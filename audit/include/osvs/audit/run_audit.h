// The whole audit: sweep, laws, targeted search, performance, reports. Returns the exit status.
#pragma once

#include "osvs/audit/options.h"

namespace osvs::audit {

/// Runs the audit described by `opt` and writes its report. Exit status: 0 when the release
/// passes, 1 when a bound is violated or a claimed law fails, 2 when the executor is missing.
/// Throws std::invalid_argument for bad options, std::runtime_error when a file cannot be written.
int run_audit(const AuditOptions& opt);

}  // namespace osvs::audit
