#include "replay_command.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "osvs/kernels/executor.h"
#include "osvs/mutation/kernel_mutants.h"
#include "osvs/properties/registry.h"
#include "osvs/replay/print.h"
#include "osvs/replay/replay.h"

namespace osvs::cli {
namespace {

struct ReplayOptions {
  std::vector<std::string> files;
  std::vector<std::string> dirs;
  std::string executor = "best";
  bool quiet = false;
};

int run_replay(const ReplayOptions& opt) {
  std::string why_not;
  const std::unique_ptr<Executor> executor = make_executor(opt.executor, &why_not);
  if (!executor) {
    fmt::print(stderr, "osvs replay: no {} executor: {}\n", opt.executor, why_not);
    return 2;
  }
  // A mutation run's counterexamples name the kernel mutant they were found on (the key
  // "mutation"): with the mutants registered they replay on it.
  mutation::register_kernel_mutants();
  std::vector<std::filesystem::path> paths(opt.files.begin(), opt.files.end());
  paths.insert(paths.end(), opt.dirs.begin(), opt.dirs.end());
  fmt::print("replaying on {}: {}\n\n", executor->name(), executor->describe());

  const std::vector<ReplayOutcome> outcomes = replay_paths(paths, *executor, &find_property);
  for (const ReplayOutcome& o : outcomes)
    if (!opt.quiet || !acceptable(o)) fmt::print("{}\n", format_outcome(o));
  const ReplaySummary summary = summarize(outcomes);
  fmt::print("{} file(s): {}\n", outcomes.size(), format_summary(summary));
  return summary.all_acceptable() ? 0 : 1;
}

}  // namespace

void add_replay_command(CLI::App& app) {
  auto opt = std::make_shared<ReplayOptions>();
  CLI::App* sub = app.add_subcommand(
      "replay", "Replay regression files and check each against its expectation");
  sub->add_option("files", opt->files, "Regression files (.json) to replay");
  sub->add_option("--dir", opt->dirs, "Replay every .json file under this directory (recursive)")
      ->check(CLI::ExistingDirectory);
  sub->add_option("--executor", opt->executor, "Where to run the kernels: cpu, cuda or best")
      ->check(CLI::IsMember({"cpu", "cuda", "best"}))
      ->capture_default_str();
  sub->add_flag("--quiet,-q", opt->quiet, "Print only the files whose expectation is not met");
  sub->callback([opt, sub] {
    if (opt->files.empty() && opt->dirs.empty())
      throw CLI::RequiredError("osvs replay: give FILE... or --dir DIR (see " +
                               std::string(sub->get_name()) + " --help)");
    const int status = run_replay(*opt);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

}  // namespace osvs::cli
