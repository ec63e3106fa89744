// The options of one audit run, as `osvs audit` parses them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "osvs/audit/shard.h"

namespace osvs::audit {

/// A limit on the sweep: wall-clock seconds or a number of audited elements.
struct Budget {
  std::optional<double> seconds;
  std::optional<std::int64_t> elements;
};

/// Parses "300s", "5m", "1e9" or "2^30" into a Budget; throws std::invalid_argument otherwise.
Budget parse_budget(const std::string& text);

struct AuditOptions {
  std::string executor = "best";      ///< cpu, cuda or best
  bool quick = false;                 ///< a small sweep for CI (well under a minute on a CPU)
  std::vector<std::string> kernels;   ///< two_pass, three_pass (empty: both), fast (when named)
  std::vector<std::string> combines;  ///< seed, hardened (empty: all)
  std::vector<int> blocks;            ///< block sizes (empty: the plan's)
  std::vector<std::int64_t> cols;     ///< row lengths (empty: the plan's), e.g. a user's shapes
  std::vector<std::string> families;  ///< input families (empty: all)
  Budget budget;                      ///< limit on the sweep (empty: the plan's sizes)
  std::int64_t search_rounds = -1;    ///< targeted search rounds (< 0: the plan's default)
  double search_seconds = -1;         ///< search by wall time instead (< 0: by rounds)
  std::uint64_t seed = 20240607;      ///< seed of every random input of the run
  std::string out;                    ///< report folder (empty: default_out_dir, run_audit.h)
  bool perf = true;                   ///< run the performance audit on a GPU
  bool attention = true;              ///< run the attention section (attention_audit.h)
  bool plots = true;                  ///< draw the PNG plots after the run (needs gnuplot)
  std::string regression_dir;         ///< where bound-violating cases go (empty: <out>/regressions)
  int devices = 0;                    ///< GPUs the sweep launches on (0: every visible one)
  Shard shard;                        ///< the part of the plan this run sweeps (shard.h)
  /// Generated cases per registered attention kernel and law (attention_kernels_audit.h); < 0:
  /// kAttentionKernelCases, or kQuickAttentionKernelCases with --quick.
  int attention_cases = -1;
};

}  // namespace osvs::audit
