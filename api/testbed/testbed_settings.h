// The testbed's settings from the environment (testbed.h lists them), read in one place.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace osvs::testbed {

inline std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

/// Seconds of shrinking per law (OSVS_SHRINK_SECONDS, default 20).
inline double shrink_budget_seconds() {
  return std::strtod(env_or("OSVS_SHRINK_SECONDS", "20").c_str(), nullptr);
}

/// Where new failures are written (OSVS_REGRESSION_DIR, default ./osvs-regressions).
inline std::filesystem::path regression_root() {
  return env_or("OSVS_REGRESSION_DIR", "osvs-regressions");
}

/// How many distinct failures of a law are searched for, each shrunk on its own: 4, or 1 with
/// OSVS_FIRST_FAILURE=1 (the testbed's --osvs-first-failure sets it).
inline int max_findings() {
  return env_or("OSVS_FIRST_FAILURE", "0") == "1" ? 1 : 4;
}

/// The saved cases replayed first (OSVS_REPLAY_DIR), "" when none.
inline std::string replay_dir() {
  return env_or("OSVS_REPLAY_DIR", "");
}

}  // namespace osvs::testbed
