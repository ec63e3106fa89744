// The goals and the comparison with a baseline report.
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

std::vector<std::string> regressions_against(const MutationReport& baseline,
                                             const MutationReport& current) {
  std::vector<std::string> out;
  for (const MutantResult& before : baseline.results) {
    if (before.status != MutantStatus::Killed) continue;
    const auto now = std::find_if(current.results.begin(), current.results.end(),
                                  [&](const MutantResult& r) { return r.mutant == before.mutant; });
    if (now == current.results.end())
      out.push_back(before.mutant + ": killed by " + before.killed_by +
                    " in the baseline, but not run now");
    else if (now->status != MutantStatus::Killed)
      out.push_back(before.mutant + ": killed by " + before.killed_by + " in the baseline, now " +
                    to_string(now->status) + " (" + now->reason + ")");
  }
  return out;
}

}  // namespace osvs::mutation
