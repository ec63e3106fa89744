// Running the property suite against each mutant: the laws the original configuration claims, in
// the suite's order, until one fails (the mutant is killed) or all hold (it survives).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "osvs/kernels/executor.h"
#include "osvs/mutation/law_run.h"
#include "osvs/mutation/mutants.h"

namespace osvs::mutation {

/// Skipped: the executor cannot run the mutant (reported as "not run").
enum class MutantStatus { Killed, Survived, Skipped, Error };

/// "killed", "survived", "not run", "error".
const char* to_string(MutantStatus s);

/// The status named by `s`; throws std::invalid_argument for any other text.
MutantStatus parse_status(const std::string& s);

struct MutantResult {
  std::string mutant;
  std::string bug;
  bool combine_level = false;
  MutantStatus status = MutantStatus::Error;
  std::string reason;     ///< the killing verdict, the skip reason or the error
  std::string killed_by;  ///< the property that failed ("large_index" for the 2^31 check)
  int cases_to_kill = 0;  ///< generated cases of the killing law up to its first failure
  int cases_total = 0;    ///< generated cases of every law tried, up to the kill (inclusive)
  int laws_tried = 0;
  std::int64_t shrunk_size = -1;  ///< size of the shrunk counterexample (-1: none)
  std::string shrunk_unit;        ///< "states" or "elements"
  std::string regression_file;    ///< the shrunk case's file, relative to the regression root's
                                  ///< parent ("" when none)
  double seconds = 0;
};

struct RunSettings {
  LawBudget budget;
  std::filesystem::path regression_root;  ///< shrunk cases are written here ("" = not written)
  std::string commit;                     ///< recorded in the regression files
};

/// Runs the suite against one mutant on `executor` (not run, with the reason, when the executor
/// cannot run it; int32_index through check_large_index after a control run of the unmutated
/// kernel).
MutantResult run_mutant(const Mutant& mutant, Executor& executor, const RunSettings& settings);

/// Runs every mutant of all_mutants() in order; `progress` sees each result as it is made.
std::vector<MutantResult> run_all(Executor& executor, const RunSettings& settings,
                                  const std::function<void(const MutantResult&)>& progress = {});

}  // namespace osvs::mutation
