// The mutation report: the table of results with provenance, the goals and the gate, as JSON and
// markdown, under <out>/<executor>/.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "osvs/mutation/gate.h"
#include "osvs/mutation/mutation_run.h"

namespace osvs::mutation {

struct ReportProvenance {
  std::string date;      ///< ISO 8601 UTC
  std::string commit;    ///< git commit of the tree that ran
  std::string executor;  ///< "cpu" or "cuda"
  std::string device;    ///< Executor::describe()
  std::string nvcc;      ///< nvcc version for GPU results
  int budget = 0;        ///< max generated cases per law
  std::string seed;      ///< RapidCheck seed
};

struct MutationReport {
  ReportProvenance provenance;
  std::vector<MutantResult> results;
  bool excuse_not_run = false;  ///< the gate excuses mutants this executor cannot run (CPU model)
};

/// The goals over the mutants that ran (those not run excluded).
struct Goals {
  int ran = 0;
  int killed = 0;
  std::optional<double> median_cases_to_kill;      ///< over killed mutants
  std::optional<std::int64_t> max_combine_shrunk;  ///< over killed combine-level mutants
  bool all_killed() const { return ran > 0 && killed == ran; }
  bool median_ok() const { return median_cases_to_kill && *median_cases_to_kill <= 100; }
  bool shrunk_ok() const { return !max_combine_shrunk || *max_combine_shrunk <= 4; }
};

/// The goals measured on `results`.
Goals goals_of(const std::vector<MutantResult>& results);

/// The report as an indented JSON document.
std::string to_json_text(const MutationReport& report);

/// The report in `text` (as written by to_json_text); throws std::runtime_error naming `file`
/// and the problem for malformed text.
MutationReport parse_report(const std::string& text, const std::string& file);

/// The report as markdown: provenance, goals, the table, the kill explanations.
std::string to_markdown(const MutationReport& report);

/// Writes dir/mutation.json and dir/mutation.md (creating dir); throws on I/O failure.
void write_report(const MutationReport& report, const std::filesystem::path& dir);

/// Reads a report written by write_report; throws std::runtime_error when unreadable.
MutationReport read_report(const std::filesystem::path& json_file);

/// The gate on `report`: every mutant of the catalogue killed (gate.h).
GateOutcome gate_of(const MutationReport& report);

}  // namespace osvs::mutation
