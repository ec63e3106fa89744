// The main of the property test programs that run on a chosen executor:
//   <program> [--executor=cpu|cuda] [GoogleTest flags]
// RapidCheck runs with `default_rc_params` (a fixed seed) unless RC_PARAMS is set.
#pragma once

#include <string>

namespace osvs::testing {

/// Parses --executor (default cpu), hands it to `select`, sets the default RapidCheck parameters,
/// runs every test with the skip marker installed. Exit status 2 for an unknown executor.
int run_with_executor(int argc, char** argv, const char* program, const char* default_rc_params,
                      void (*select)(const std::string& executor));

}  // namespace osvs::testing
