// The sweep: every planned configuration launched and judged, with the device work overlapped with
// the host's judging and spread over every executor given (one per GPU).
#pragma once

#include <memory>
#include <vector>

#include "osvs/audit/report.h"
#include "osvs/kernels/executor.h"

namespace osvs::audit {

/// Launcher threads per GPU. A batch of one long row runs on one SM (one block per row), so
/// several batches in flight at once (each launcher's executor works on its thread's own stream)
/// keep the device busy where one would leave it nearly idle.
inline constexpr int kLaunchersPerDevice = 8;

/// The GPUs a sweep on `executor` uses: every visible one, at most max_devices when > 0; 0 for
/// an executor that is not a GPU.
int sweep_devices(const Executor& executor, int max_devices);

/// Launchers for a sweep on `executor`: for the cuda executor kLaunchersPerDevice new executors
/// per device of sweep_devices, else one more executor of the same kind. Separate from the
/// executor the search uses, so that launching ahead never shares one with it.
std::vector<std::unique_ptr<Executor>> sweep_launchers(const Executor& executor, int max_devices);

/// Runs `configs` (the plan's, or a shard's part of it, in plan order): configuration k is
/// generated, run and its laws judged on launchers[k % L] (launch_config), up to a few
/// configurations ahead of the judging of the outputs, which takes them in order on this thread's
/// cores (judge_config). Fills r.configs, r.not_run (a time budget is checked when a
/// configuration is launched), r.sweep_seconds and r.launchers. The results do not depend on L:
/// every configuration's inputs come from the plan and the seed only.
void run_sweep(AuditReport& r, const std::vector<Config>& configs,
               std::vector<std::unique_ptr<Executor>> launchers);

}  // namespace osvs::audit
