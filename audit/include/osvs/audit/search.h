// Targeted search: a hill-climb on each kernel's error/bound ratio. It starts from the sweep's
// worst rows and mutates them (nudges by ulps, moves elements toward or away from the maximum,
// duplicates the maximum, copies the worst element), keeping a mutant when its ratio is higher.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/audit/plan.h"
#include "osvs/audit/row_audit.h"
#include "osvs/audit/search_budget.h"
#include "osvs/kernels/executor.h"

namespace osvs::audit {

/// A row and where it came from, with its audit.
struct SearchCase {
  KernelUnderTest kut;
  int block = 256;
  std::vector<float> row;
  std::string origin;  ///< "sweep normal_10 N=1000" or the same plus the climb's generations
  int generation = 0;  ///< accepted mutations since the sweep
  RowAudit audit;
};

struct SearchResult {
  std::vector<SearchCase> worst;  ///< the best few per kernel, highest ratio first
  std::int64_t rows_evaluated = 0;
  std::int64_t elements_evaluated = 0;
  std::int64_t improvements = 0;  ///< accepted mutations
  std::int64_t rounds = 0;        ///< rounds climbed
  double seconds = 0;
};

/// Search cases kept per kernel.
inline constexpr int kSearchKeep = 3;

/// Hill-climbs from `seeds` (each a sweep row with its configuration) within `budget`, round robin
/// over the seeds; keeps the `keep` highest ratios per kernel (ties: the earlier seed first).
SearchResult targeted_search(std::vector<SearchCase> seeds, Executor& executor,
                             const SearchBudget& budget, std::uint64_t seed,
                             int keep = kSearchKeep);

/// The `keep` highest ratios per kernel of `all`, highest first; equal ratios keep their order.
std::vector<SearchCase> best_per_kernel(std::vector<SearchCase> all, int keep);

}  // namespace osvs::audit
