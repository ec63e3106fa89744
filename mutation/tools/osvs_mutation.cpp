// osvs_mutation: runs the property suite against every mutant on one executor and writes
// <out>/<executor>/mutation.{md,json} with the shrunk counterexamples under
// <out>/<executor>/regressions/. The CI gate: exit 1, naming each, when a mutant of the catalogue
// is not killed (survived, error, or not run on an executor that must run them all).
#include <cstdlib>
#include <exception>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>

#include "osvs/mutation/report.h"
#include "osvs/replay/regression.h"

namespace {

using namespace osvs;
using namespace osvs::mutation;

void print_progress(const MutantResult& r) {
  if (r.status == MutantStatus::Killed)
    fmt::print("{:<30} killed by {} after {} cases (shrunk: {} {}), {:.2f} s\n", r.mutant,
               r.killed_by, r.cases_to_kill, r.shrunk_size, r.shrunk_unit, r.seconds);
  else
    fmt::print("{:<30} {}: {}\n", r.mutant, to_string(r.status), r.reason);
  std::fflush(stdout);
}

/// Exit status when the executor is not available (no device): the conventional "skipped" code.
constexpr int kExitExecutorUnavailable = 77;

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"osvs_mutation: the property suite against deliberately broken kernels"};
  std::string executor_name = "cpu";
  std::string out_dir = "osvs-reports/mutation";
  int budget = 100;
  std::uint64_t seed = 20240605;
  app.add_option("--executor", executor_name, "cpu or cuda")->check(CLI::IsMember({"cpu", "cuda"}));
  app.add_option("--out", out_dir,
                 "report folder, relative to the current directory; the report goes to "
                 "<out>/<executor>/ (the committed one: --out reports/mutation)")
      ->capture_default_str();
  app.add_option("--budget", budget, "max generated cases per law")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  app.add_option("--seed", seed, "RapidCheck seed")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  try {
    std::string why_not;
    auto executor = make_executor(executor_name, &why_not);
    if (!executor) {
      // 77: the conventional "skipped" status (ctest's SKIP_RETURN_CODE): nothing ran.
      fmt::print(stderr, "osvs_mutation: executor {} unavailable, nothing ran: {}\n", executor_name,
                 why_not);
      return kExitExecutorUnavailable;
    }
    const std::filesystem::path report_dir = std::filesystem::path(out_dir) / executor_name;
    RunSettings settings;
    settings.budget.max_cases = budget;
    settings.budget.seed = seed;
    settings.regression_root = report_dir / "regressions";
    fmt::print("osvs_mutation on {} ({}), {} cases per law, seed {}\n", executor->name(),
               executor->describe(), budget, seed);

    MutationReport report;
    const Provenance p = make_provenance(*executor, "mutation");
    report.provenance = {p.date,
                         p.osvs_commit,
                         p.executor,
                         p.device,
                         p.nvcc,
                         budget,
                         "seed=" + std::to_string(seed)};
    report.excuse_not_run = !executor->is_gpu();  // the device must run every mutant
    report.results = run_all(*executor, settings, print_progress);
    write_report(report, report_dir);

    const Goals g = goals_of(report.results);
    fmt::print("killed {} of {}; median cases to kill {}; report in {}\n", g.killed, g.ran,
               g.median_cases_to_kill ? fmt::format("{:g}", *g.median_cases_to_kill) : "-",
               report_dir.string());
    const GateOutcome gate = gate_of(report);
    if (!gate.not_run.empty())
      fmt::print("not run on {}: {}\n", executor_name, fmt::join(gate.not_run, ", "));
    for (const std::string& line : gate.failures) fmt::print(stderr, "GATE FAILS {}\n", line);
    if (!gate.passed()) return 1;
    fmt::print("gate passed: every mutant of the catalogue {} killed\n",
               report.excuse_not_run ? "that this executor can run is" : "is");
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "osvs_mutation: {}\n", e.what());
    return 3;
  }
}
