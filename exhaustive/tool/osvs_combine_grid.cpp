// osvs_combine_grid: the combine laws on the bf16 grid (exhaustive/README.md, "The combine grid")
// for registered combine operators, on the GPU or the CPU model; writes combine-grid.json /
// combine-grid.md and exits 1, printing the first counterexample, when a held law fails.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "osvs/exhaustive/device_exps.h"
#include "osvs/exhaustive/grid/grid_report.h"
#include "osvs/exhaustive/grid/grid_run.h"
#include "tool_main.h"

namespace grid = osvs::exhaustive::grid;

namespace {

struct Options {
  std::vector<std::string> combines;
  bool mutants = false;
  std::string executor = "best";
  grid::GridSpec spec;
  std::uint32_t d_passes = 0;  ///< 0: every d pair on the GPU, one pass on the CPU
  std::string out;
  std::string driver;
};

std::vector<osvs::CombineKind> selected(const Options& o) {
  std::vector<osvs::CombineKind> kinds;
  for (const std::string& name : o.combines) {
    const auto k = osvs::parse_combine(name);
    if (!k) throw std::invalid_argument("no combine operator named '" + name + "' is registered");
    kinds.push_back(*k);
  }
  if (kinds.empty())
    for (const osvs::CombineKind k : osvs::registered_combines())
      if (o.mutants || !osvs::is_mutant(k)) kinds.push_back(k);
  return kinds;
}

void print(const grid::GridResult& r) {
  std::printf("%-22s %-4s %.1f s\n", r.combine.c_str(), r.executor.c_str(), r.seconds);
  for (const grid::LawResult& l : r.laws) {
    std::printf("  %-16s %-4s checked %llu, violations %llu", grid::to_string(l.law),
                l.held ? "held" : "--", static_cast<unsigned long long>(l.checked),
                static_cast<unsigned long long>(l.violations));
    if (l.law == grid::Law::OneStepBound)
      std::printf(" (undecided in double: %llu), outside the domain %llu",
                  static_cast<unsigned long long>(l.undecided),
                  static_cast<unsigned long long>(l.outside));
    else
      std::printf(", outside the domain %llu (differ: %llu)",
                  static_cast<unsigned long long>(l.outside),
                  static_cast<unsigned long long>(l.outside_differences));
    std::printf("\n");
  }
  if (r.worst_ratio > 0)
    std::printf("  largest err / B of the one-step bound: %.7g\n", r.worst_ratio);
  for (const std::string& line : grid::counterexample_lines(r)) std::printf("%s\n", line.c_str());
}

/// The tool's options; with no --count, every pair index from --first on, at the stride.
void declare_options(CLI::App& app, Options& o) {
  app.add_option("--combine", o.combines,
                 "registered operators to check (default: every registered one but the mutants)");
  app.add_flag("--mutants", o.mutants, "with no --combine: the mutants too");
  app.add_option("--executor", o.executor, "cuda, cpu or best (the GPU where there is one)")
      ->check(CLI::IsMember({"cuda", "cpu", "best"}));
  app.add_option("--first", o.spec.first, "first pair index (m1 bits << 16 | m2 bits)");
  app.add_option("--count", o.spec.count, "pairs per pass (default: all 2^32)");
  app.add_option("--stride", o.spec.stride, "every N-th pair index")->check(CLI::PositiveNumber);
  app.add_option("--first-pass", o.spec.first_pass, "first d pass (0..48)");
  app.add_option("--d-passes", o.d_passes,
                 "d passes (1..49; default: 49 = every d pair on the GPU, 1 on the CPU)");
  app.add_option("--examples", o.spec.examples, "first counterexamples kept per law");
  app.add_flag("!--no-states", o.spec.states, "leave the identity laws (grid states) out");
  app.add_option("--exp-ulp", o.spec.exp_ulp,
                 "exp accuracy E of the bound (default: kexp_max_ulp of the executor, exp.h)");
  app.add_option("--threads", o.spec.threads, "host threads (default: all)");
  app.add_option("--out", o.out, "folder for combine-grid.json and combine-grid.md");
  app.add_option("--driver", o.driver, "driver version for the provenance (nvidia-smi's)");
  app.callback([&app, &o] {
    if (app.count("--count") == 0)
      o.spec.count = (grid::kGridPairs - o.spec.first + o.spec.stride - 1) / o.spec.stride;
  });
}

int run(Options o) {
  std::string why;
  const bool device = grid::grid_device_present(&why);
  const bool on_device = o.executor == "cuda" || (o.executor == "best" && device);
  if (o.executor == "cuda" && !device) throw std::runtime_error("--executor cuda: " + why);
  if (o.executor == "best" && !device)
    std::cerr << "no device (" << why << "): the CPU model runs\n";
  o.spec.passes = o.d_passes ? o.d_passes : (on_device ? grid::kDPairs : 1);
  osvs::exhaustive::InputRange range;  // for the provenance's device and compiler lines
  grid::GridReport report;
  report.provenance = osvs::exhaustive::current_provenance(range, o.driver);
  report.provenance.inputs = o.spec.describe();
  int status = 0;
  for (const osvs::CombineKind k : selected(o)) {
    grid::GridResult r =
        on_device ? grid::run_grid_on_device(k, o.spec) : grid::run_grid_on_host(k, o.spec);
    print(r);
    if (!r.passed()) status = 1;
    report.results.push_back(std::move(r));
  }
  if (!o.out.empty())
    osvs::exhaustive::write_report_files(o.out, {{"combine-grid.json", grid::to_json(report)},
                                                 {"combine-grid.md", grid::to_markdown(report)}});
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  return osvs::exhaustive::tool_main<Options>(
      argc, argv, "osvs_combine_grid", "The combine laws on the bf16 grid (exhaustive/README.md)",
      declare_options, run);
}
