// osvs_fuzz_to_regression: turns fuzz inputs (crash files, corpus entries) into regression files.
// Each input is decoded exactly as the harness decodes it and checked on the CPU executor; a
// finding (a claimed law failing, or the property throwing) is written through write_regression()
// with found_by "fuzz" and expectation Holds. With --known-defects, a law failing where the
// configuration does not claim it is written too, with expectation Violates.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "osvs/fuzz/case_decoder.h"
#include "osvs/fuzz/judge.h"
#include "osvs/replay/regression.h"

namespace {

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

/// The first line of a verdict's explanation, for the one-line summary.
std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

struct Options {
  std::vector<std::string> inputs;
  std::string root;
  bool known_defects = false;
  bool summary = false;
  bool describe = false;
};

/// What an input decodes to, one tab-separated line: file, property, rows, row length, rows whose
/// every element is finite, states, states other than the identity (-inf, 0).
void describe(const std::string& file, const osvs::fuzz::FuzzInput& in) {
  const osvs::Case& c = in.input;
  const auto finite_rows = std::count_if(c.rows.begin(), c.rows.end(), [](const auto& row) {
    return std::all_of(row.begin(), row.end(), [](float x) { return std::isfinite(x); });
  });
  const auto not_identity = std::count_if(c.states.begin(), c.states.end(), [](osvs::State s) {
    const osvs::State e = osvs::identity_state();
    return !(s.m == e.m && s.d == e.d);
  });
  std::printf("%s\t%s\t%zu\t%zu\t%td\t%zu\t%td\n", file.c_str(), in.property->name.c_str(),
              c.rows.size(), c.rows.empty() ? std::size_t{0} : c.rows[0].size(), finite_rows,
              c.states.size(), not_identity);
}

/// Judges one input; writes its record when it should; returns whether it was a finding.
bool process(const std::string& file, const Options& o, osvs::Executor& cpu) {
  const osvs::fuzz::FuzzInput in = osvs::fuzz::decode_fuzz_input(read_bytes(file));
  if (o.describe) {
    describe(file, in);
    return false;
  }
  const osvs::fuzz::Judgement j = osvs::fuzz::judge(*in.property, in.input, cpu);
  if (o.summary) {
    std::printf("%s\t%s\t%s/%s/%d\t%s\t%s\n", file.c_str(), in.property->name.c_str(),
                osvs::to_string(in.input.kernel), osvs::to_string(in.input.combine), in.input.block,
                osvs::fuzz::to_string(j.outcome), first_line(j.verdict.explanation).c_str());
    return j.outcome == osvs::fuzz::Outcome::Finding;
  }
  std::printf("== %s\n%s", file.c_str(),
              osvs::fuzz::format_judgement(*in.property, in.input, j).c_str());
  const bool write = j.outcome == osvs::fuzz::Outcome::Finding ||
                     (o.known_defects && j.outcome == osvs::fuzz::Outcome::KnownDefect);
  if (!write) return false;
  osvs::RegressionRecord r;
  r.property = in.property->name;
  r.input = in.input;
  r.verdict = j.verdict;
  r.expectation = j.outcome == osvs::fuzz::Outcome::Finding ? osvs::Expectation::Holds
                                                            : osvs::Expectation::Violates;
  r.provenance = osvs::make_provenance(cpu, "fuzz");
  r.note = j.outcome == osvs::fuzz::Outcome::Finding
               ? (j.threw ? "fuzz: the property threw on a decoded case"
                          : "fuzz: a claimed law fails on this case")
               : "fuzz: the law fails here, but this configuration does not claim it";
  const std::filesystem::path root =
      o.root.empty() ? osvs::default_regression_root() : std::filesystem::path(o.root);
  std::printf("written: %s\n", osvs::write_regression(r, root).string().c_str());
  return j.outcome == osvs::fuzz::Outcome::Finding;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Turn fuzz inputs into regression files (decoded as osvs_softmax_fuzzer does)"};
  Options o;
  app.add_option("inputs", o.inputs, "fuzz input files (e.g. crash-<sha1>)")->required();
  app.add_option("--root", o.root,
                 "regression root (default: $OSVS_REGRESSION_DIR, else "
                 "<source>/reports/regressions)");
  app.add_flag("--known-defects", o.known_defects,
               "also write failures of unclaimed laws, expecting them to keep failing");
  app.add_flag("--summary", o.summary,
               "one tab-separated line per input (file, property, configuration, outcome, "
               "verdict); writes nothing");
  app.add_flag("--describe", o.describe,
               "one tab-separated line per input (file, property, rows, row length, finite rows, "
               "states, states other than the identity); runs and writes nothing");
  CLI11_PARSE(app, argc, argv);

  const auto cpu = osvs::make_cpu_executor();
  int findings = 0, errors = 0;
  for (const std::string& file : o.inputs) {
    try {
      findings += process(file, o, *cpu) ? 1 : 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", file.c_str(), e.what());
      ++errors;
    }
  }
  std::fprintf(stderr, "%zu inputs, %d findings, %d unreadable or unwritable\n", o.inputs.size(),
               findings, errors);
  return errors == 0 ? 0 : 1;
}
