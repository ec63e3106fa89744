// The CI gate of the mutation run: every mutant of the catalogue must be killed. A mutant the
// executor cannot run (a race or a 2^31-element batch on the CPU model) is "not run": named, and
// excused only where the run allows it (the CPU model); the device run must run them all.
#pragma once

#include <string>
#include <vector>

#include "osvs/mutation/mutation_run.h"

namespace osvs::mutation {

struct GateOutcome {
  std::vector<std::string> failures;  ///< one line per mutant that fails the gate, naming it
  std::vector<std::string> not_run;   ///< the mutants not run on this executor (excused or not)
  bool passed() const { return failures.empty(); }
};

/// The names of all_mutants(), in catalogue order: what a run must kill.
std::vector<std::string> catalogue_names();

/// Judges `results` against `catalogue`: a catalogue mutant that survived, ended in an error or
/// is missing from the results fails the gate; one not run fails it unless `excuse_not_run`.
GateOutcome judge_gate(const std::vector<std::string>& catalogue,
                       const std::vector<MutantResult>& results, bool excuse_not_run);

}  // namespace osvs::mutation
