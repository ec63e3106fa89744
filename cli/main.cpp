// osvs: the command-line program. Each subcommand lives in its own file and adds itself here.
#include <exception>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "replay_command.h"
#include "version_command.h"
#if defined(OSVS_HAVE_AUDIT)
#include "osvs/audit/audit_command.h"
#endif

int main(int argc, char** argv) {
  CLI::App app{"osvs: verification of online-softmax GPU reductions"};
  app.require_subcommand(0, 1);  // none is checked after parsing, so that a bad flag is named first
  osvs::cli::add_version_command(app);
  osvs::cli::add_replay_command(app);
#if defined(OSVS_HAVE_AUDIT)
  osvs::add_audit_command(app);
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    fmt::print(stderr, "osvs: {}\n", e.what());
    return 3;
  }
  if (app.get_subcommands().empty()) {
    fmt::print(stderr, "osvs: a subcommand is required\n{}", app.help());
    return 2;
  }
  return 0;
}
