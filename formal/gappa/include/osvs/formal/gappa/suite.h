// The one-step scripts written to a folder and proven one by one (the tool and the tests).
#pragma once

#include <string>
#include <vector>

#include "osvs/formal/gappa/run.h"
#include "osvs/formal/gappa/script.h"

namespace osvs::formal::gappa {

struct Outcome {
  std::string name;
  std::string path;  ///< the script file
  RunResult result;
};

/// Writes each script as <dir>/<name>.g (dir created) and returns their paths, in order.
std::vector<std::string> write_scripts(const std::vector<Script>& scripts, const std::string& dir);

/// Runs gappa on each script; stops after the first unproven one when `stop_at_failure`.
std::vector<Outcome> prove_all(const std::vector<Script>& scripts, const std::string& dir,
                               const std::string& gappa, bool stop_at_failure);

/// A Coq module name for a script: its name with every character other than a letter, a digit
/// or an underscore replaced by '_' ("combine.fma.six.s0b0.e1" -> "combine_fma_six_s0b0_e1").
std::string coq_module(const std::string& name);

}  // namespace osvs::formal::gappa
