// `osvs audit`: the numerical error-bound audit a team runs before a release.
#pragma once

#include <CLI/CLI.hpp>

namespace osvs {

/// Adds the `audit` subcommand (options: --quick, --executor, --kernel, --combine, --block,
/// --family, --budget, --search-seconds, --seed, --out, --no-perf, --no-plots, --plot DIR).
void add_audit_command(CLI::App& app);

}  // namespace osvs
