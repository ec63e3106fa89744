// `osvs version`: the version, the commit it was configured from, and the build options that
// change results (portable exp, FMA contraction, CUDA).
#pragma once

#include <CLI/CLI.hpp>

namespace osvs::cli {

/// Adds the `version` subcommand.
void add_version_command(CLI::App& app);

}  // namespace osvs::cli
