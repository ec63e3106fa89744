// The main of an exhaustive/ tool (osvs_exp_check, osvs_combine_grid): its options declared on a
// CLI11 app, the command line parsed into them, the run, and the exit status of an error.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

namespace osvs::exhaustive {

/// Declares the tool's options (declare(app, options)), parses the command line into them and
/// returns run(options): 0, or 1 where a check failed. A bad command line exits with CLI11's
/// message and status; an exception of the run is printed as "<tool>: <what>" and exits 2.
template <class Options, class Declare, class Run>
int tool_main(int argc, char** argv, const char* tool, const char* description, Declare declare,
              Run run) {
  CLI::App app{description};
  Options options;
  declare(app, options);
  CLI11_PARSE(app, argc, argv);
  try {
    return run(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", tool, e.what());
    return 2;
  }
}

}  // namespace osvs::exhaustive
