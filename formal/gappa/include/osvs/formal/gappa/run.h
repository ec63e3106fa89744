// Running Gappa (and Coq on its certificate) on a script file.
#pragma once

#include <optional>
#include <string>

namespace osvs::formal::gappa {

/// The gappa executable on PATH (or $OSVS_GAPPA), or nothing when none is installed.
std::optional<std::string> find_gappa();

/// coqc on PATH when Coq and Gappa's Coq library (libcoq-gappa) are both installed, else nothing.
std::optional<std::string> find_coq_gappa();

struct RunResult {
  bool proven = false;  ///< exit status 0: every goal proven
  int status = -1;      ///< the command's exit status
  std::string output;   ///< what it printed (Gappa's unproven goals and best intervals)
  double seconds = 0;   ///< wall time
};

/// The longest a gappa run may take (every script here is proven in well under a second).
inline constexpr int kTimeLimitSeconds = 30;

/// gappa <script>, stopped after kTimeLimitSeconds (status 124, not proven).
RunResult run_gappa(const std::string& gappa, const std::string& script);

/// gappa -Bcoq <script> > <certificate>, then coqc on it: Coq checks Gappa's proof. The
/// certificate's stem is its Coq module name: letters, digits and underscores only.
RunResult check_with_coq(const std::string& gappa, const std::string& coqc,
                         const std::string& script, const std::string& certificate);

}  // namespace osvs::formal::gappa
