// Markdown form of the mutation report.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "osvs/mutation/report.h"

namespace osvs::mutation {
namespace {

/// A cell without the characters that would break a markdown table row.
std::string cell(std::string s) {
  for (char& ch : s)
    if (ch == '|' || ch == '\n') ch = ' ';
  if (s.size() > 160) s = s.substr(0, 157) + "...";
  return s;
}

std::string yes_no(bool ok) {
  return ok ? "met" : "NOT met";
}

}  // namespace

std::string to_markdown(const MutationReport& report) {
  const ReportProvenance& p = report.provenance;
  const Goals g = goals_of(report.results);
  std::string out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "# Mutation testing: {} executor\n\n", p.executor);
  fmt::format_to(
      it,
      "Each mutant is a deliberately broken kernel configuration. The property suite "
      "(properties/suite.h) runs the laws the original configuration claims, in order, with at "
      "most {} generated cases per law (RapidCheck {}), until one fails: the mutant is killed.\n\n",
      p.budget, p.seed);
  fmt::format_to(it, "- date: {}\n- commit: {}\n- executor: {} ({})\n", p.date, p.commit,
                 p.executor, p.device);
  if (!p.nvcc.empty()) fmt::format_to(it, "- nvcc: {}\n", p.nvcc);
  fmt::format_to(it, "\n## Goals\n\n");
  fmt::format_to(it, "- killed: {} of {} mutants that ran ({})\n", g.killed, g.ran,
                 yes_no(g.all_killed()));
  fmt::format_to(
      it,
      "- median cases to kill (the killing law's generated cases up to its first failure): {} "
      "(goal <= 100: {})\n",
      g.median_cases_to_kill ? fmt::format("{:g}", *g.median_cases_to_kill) : "-",
      yes_no(g.median_ok()));
  fmt::format_to(
      it,
      "- largest shrunk counterexample of a combine-level mutant: {} (goal <= 4 elements or "
      "states: {})\n",
      g.max_combine_shrunk ? std::to_string(*g.max_combine_shrunk) : "-", yes_no(g.shrunk_ok()));
  const GateOutcome gate = gate_of(report);
  fmt::format_to(it, "\n## Gate: {}\n\n", gate.passed() ? "PASS" : "FAIL");
  fmt::format_to(it, "Every mutant of the catalogue must be killed; ");
  fmt::format_to(it, "{}\n\n",
                 report.excuse_not_run
                     ? "a mutant this executor cannot run is not run and named, not failed (the "
                       "device run must run it)."
                     : "on this executor every mutant must run.");
  fmt::format_to(it, "- not run on this executor: {}\n",
                 gate.not_run.empty() ? "none" : fmt::format("{}", fmt::join(gate.not_run, ", ")));
  for (const std::string& f : gate.failures) fmt::format_to(it, "- FAILS: {}\n", cell(f));
  fmt::format_to(it, "\n## Results\n\n");
  fmt::format_to(
      it,
      "| mutant | level | status | killed by | cases to kill | cases, all laws | laws tried | "
      "shrunk | seconds |\n");
  fmt::format_to(it, "|---|---|---|---|---:|---:|---:|---|---:|\n");
  for (const MutantResult& r : report.results) {
    const bool killed = r.status == MutantStatus::Killed;
    fmt::format_to(
        it, "| {} | {} | {} | {} | {} | {} | {} | {} | {:.2f} |\n", r.mutant,
        r.combine_level ? "combine" : "kernel", to_string(r.status), killed ? r.killed_by : "-",
        killed ? std::to_string(r.cases_to_kill) : "-", r.cases_total, r.laws_tried,
        r.shrunk_size >= 0 ? fmt::format("{} {}", r.shrunk_size, r.shrunk_unit) : "-", r.seconds);
  }
  fmt::format_to(it, "\n## Details\n\n");
  for (const MutantResult& r : report.results) {
    fmt::format_to(it, "- **{}**: {}. {}: {}", r.mutant, r.bug, to_string(r.status),
                   cell(r.reason));
    if (!r.regression_file.empty()) fmt::format_to(it, " Shrunk case: `{}`.", r.regression_file);
    fmt::format_to(it, "\n");
  }
  return out;
}

}  // namespace osvs::mutation
