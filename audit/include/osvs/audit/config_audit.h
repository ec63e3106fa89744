// The audit of one configuration: its rows generated, run as one batch, every row audited against
// the oracle and its bound on all cores, and the law properties judged on its first rows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/audit/error_stats.h"
#include "osvs/audit/laws.h"
#include "osvs/audit/plan.h"
#include "osvs/audit/row_audit.h"
#include "osvs/kernels/executor.h"

namespace osvs::audit {

/// Rows longer than this are audited but not kept as search seeds.
inline constexpr std::int64_t kMaxKeptRow = 65537;

/// Laws are judged on configurations with N up to this: a law case runs the oracle on its rows
/// several times, which would cost more than the sweep itself for long rows.
inline constexpr std::int64_t kMaxLawRow = 4097;

struct ConfigResult {
  Config config;
  std::int64_t elements = 0;
  ErrorStats ulp;            ///< every output's ulp error
  double y_bound_max = 0;    ///< largest per-element bound (ulps)
  double tightness = 0;      ///< max over elements of ulp / bound
  WorstElement worst_ulp;    ///< with its row in worst_ulp_row
  WorstElement worst_ratio;  ///< with its row in worst_ratio_row
  std::int64_t worst_ulp_row = -1, worst_ratio_row = -1;
  double d_rel_max = 0;    ///< max over rows of |d_hat - d| / d
  double d_bound_max = 0;  ///< max over rows of the d bound
  double d_tightness = 0;  ///< max over rows of d_rel / d bound
  std::int64_t violating_rows = 0;
  std::vector<std::string> violations;       ///< explanations of the lowest violating rows
  std::vector<std::int64_t> violation_rows;  ///< their row indices, ascending
  std::vector<float> worst_row;              ///< the row of worst_ratio (n <= kMaxKeptRow)
  std::int64_t mpfr_fallbacks = 0;
  std::vector<LawResult> laws;  ///< empty when n > kMaxKeptRow
  double seconds = 0;
};

/// The generator seed of a configuration's rows: a function of the run seed and the
/// configuration only, so a configuration's rows do not depend on what else the run audits. The
/// configuration's name is hashed with FNV-1a (stable_hash.h), so the seed, and with it every
/// input, is the same whatever standard library the audit was built with.
std::uint64_t config_seed(const Config& config, std::uint64_t run_seed);

/// A configuration's rows, the kernel's outputs for them and the laws judged on its first rows:
/// everything that needs the executor, before the judging of the outputs.
struct LaunchedConfig {
  SoftmaxBatch batch;
  SoftmaxResult out;
  std::vector<LawResult> laws;  ///< empty when n > kMaxLawRow
  bool gpu = false;             ///< the outputs come from a GPU (the bounds' exp accuracy)
  double seconds = 0;           ///< generating, running and the laws
};

/// Generates config.rows rows of config.family, runs them on `executor` and judges the laws on
/// the first rows there.
LaunchedConfig launch_config(const Config& config, Executor& executor, std::uint64_t run_seed);

/// Audits every launched row against the oracle and its bound, on all cores.
ConfigResult judge_config(const Config& config, LaunchedConfig launched);

/// launch_config then judge_config, on one executor.
ConfigResult audit_config(const Config& config, Executor& executor, std::uint64_t run_seed);

}  // namespace osvs::audit
