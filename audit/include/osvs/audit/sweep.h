// The sweep: every planned configuration launched and judged, with the device work overlapped with
// the host's judging and spread over every executor given (one per GPU).
#pragma once

#include <memory>
#include <vector>

#include "osvs/audit/report.h"
#include "osvs/kernels/executor.h"

namespace osvs::audit {

/// Launchers for a sweep on `executor`: for the cuda executor one new executor per visible device
/// (at most max_devices when > 0), else one more executor of the same kind. Separate from the
/// executor the laws and the search use, so that launching ahead never shares one with them.
std::vector<std::unique_ptr<Executor>> sweep_launchers(const Executor& executor, int max_devices);

/// Runs `configs` (the plan's, or a shard's part of it, in plan order): configuration k is
/// generated and run on launchers[k % L], up to a few configurations ahead of the judging, which
/// takes them in order on this thread's cores (judge_config; laws on law_executor). Fills
/// r.configs, r.not_run (a time budget is checked when a configuration is launched),
/// r.sweep_seconds and r.launchers. The results do not depend on L: every configuration's inputs
/// come from the plan and the seed only.
void run_sweep(AuditReport& r, const std::vector<Config>& configs, Executor& law_executor,
               std::vector<std::unique_ptr<Executor>> launchers);

}  // namespace osvs::audit
