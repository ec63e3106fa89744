// `osvs replay FILE... | --dir DIR`: replays regression files and prints each case readably.
#pragma once

#include <CLI/CLI.hpp>

namespace osvs::cli {

/// Adds the `replay` subcommand; its exit status is 0 iff every expectation was met (skips
/// allowed), 1 otherwise, 2 when the executor cannot be made.
void add_replay_command(CLI::App& app);

}  // namespace osvs::cli
