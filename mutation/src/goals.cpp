// The goals of a mutation run, measured over the mutants that ran, and its gate.
#include <algorithm>

#include "osvs/mutation/report.h"

namespace osvs::mutation {

Goals goals_of(const std::vector<MutantResult>& results) {
  Goals g;
  std::vector<int> cases;
  for (const MutantResult& r : results) {
    if (r.status == MutantStatus::Skipped) continue;
    ++g.ran;
    if (r.status != MutantStatus::Killed) continue;
    ++g.killed;
    cases.push_back(r.cases_to_kill);
    if (r.combine_level && r.shrunk_size >= 0)
      g.max_combine_shrunk = std::max(g.max_combine_shrunk.value_or(0), r.shrunk_size);
  }
  if (!cases.empty()) {
    std::sort(cases.begin(), cases.end());
    const std::size_t n = cases.size();
    g.median_cases_to_kill = n % 2 ? cases[n / 2] : (cases[n / 2 - 1] + cases[n / 2]) / 2.0;
  }
  return g;
}

GateOutcome gate_of(const MutationReport& report) {
  return judge_gate(catalogue_names(), report.results, report.excuse_not_run);
}

}  // namespace osvs::mutation
