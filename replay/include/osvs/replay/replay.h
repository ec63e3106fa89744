// Replaying regression files: each record runs through the same property function as the
// generator-driven test, and its verdict is compared with the record's expectation.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "osvs/kernels/executor.h"
#include "osvs/properties/registry.h"
#include "osvs/replay/regression.h"

namespace osvs {

/// How the property is found for a record's name (the registry's find_property in osvs itself).
using PropertyLookup = std::function<const PropertyInfo*(std::string_view)>;

enum class ReplayStatus {
  Met,        ///< the verdict agrees with the expectation
  Stale,      ///< expected `violates`, but the property now holds: the file no longer reproduces
  Regressed,  ///< expected `holds`, but the property fails: a fixed bug is back
  Skipped,    ///< not replayable here (needs a GPU); `message` says why
  Error,      ///< unreadable file, unknown property, or the property threw; `message` says what
};

/// "met", "STALE", "REGRESSED", "skipped", "ERROR".
const char* to_string(ReplayStatus s);

struct ReplayOutcome {
  std::filesystem::path file;
  ReplayStatus status = ReplayStatus::Error;
  std::string message;                     ///< why, for every status but Met
  std::optional<RegressionRecord> record;  ///< absent when the file could not be read
  std::optional<Verdict> verdict;          ///< the verdict of this replay, when it ran
};

/// True for Met and Skipped: the outcomes that do not fail a replay run.
bool acceptable(const ReplayOutcome& o);

/// Runs `r` (read from `file`) on `executor` and judges its verdict against its expectation.
ReplayOutcome replay_record(const RegressionRecord& r, const std::filesystem::path& file,
                            Executor& executor, const PropertyLookup& lookup);

/// Reads and replays one file; a bad file is an Error outcome, never an exception.
ReplayOutcome replay_file(const std::filesystem::path& file, Executor& executor,
                          const PropertyLookup& lookup);

/// The regression files under `dir` (recursively): *.json not starting with '.', sorted.
std::vector<std::filesystem::path> regression_files(const std::filesystem::path& dir);

/// Replays every path in order, expanding directories with regression_files; a missing path is
/// an Error outcome and the others are still replayed.
std::vector<ReplayOutcome> replay_paths(const std::vector<std::filesystem::path>& paths,
                                        Executor& executor, const PropertyLookup& lookup);

struct ReplaySummary {
  int met = 0, stale = 0, regressed = 0, skipped = 0, errors = 0;
  /// True when no outcome is Stale, Regressed or Error.
  bool all_acceptable() const { return stale == 0 && regressed == 0 && errors == 0; }
};

/// Counts the outcomes by status.
ReplaySummary summarize(const std::vector<ReplayOutcome>& outcomes);

}  // namespace osvs
