#include "osvs/mutation/gate.h"

#include <algorithm>

#include "osvs/mutation/mutants.h"

namespace osvs::mutation {

std::vector<std::string> catalogue_names() {
  std::vector<std::string> out;
  for (const Mutant& m : all_mutants()) out.push_back(m.name);
  return out;
}

GateOutcome judge_gate(const std::vector<std::string>& catalogue,
                       const std::vector<MutantResult>& results, bool excuse_not_run) {
  GateOutcome g;
  for (const std::string& name : catalogue) {
    const auto r = std::find_if(results.begin(), results.end(),
                                [&](const MutantResult& x) { return x.mutant == name; });
    if (r == results.end()) {
      g.failures.push_back(name + ": in the catalogue but missing from the run");
      continue;
    }
    switch (r->status) {
      case MutantStatus::Killed:
        break;
      case MutantStatus::Skipped:
        g.not_run.push_back(name);
        if (!excuse_not_run)
          g.failures.push_back(name + ": not run on this executor, which must run every mutant (" +
                               r->reason + ")");
        break;
      case MutantStatus::Survived:
      case MutantStatus::Error:
        g.failures.push_back(name + ": " + to_string(r->status) + " (" + r->reason + ")");
        break;
    }
  }
  return g;
}

}  // namespace osvs::mutation
