// Where a test finds a committed file of the source tree (reports/regressions/..., the verified
// exp figures): under $OSVS_SOURCE_DIR, which ctest sets for every osvs test (and which a bundle
// moved to a GPU machine has relocated with its ctest files), else under the tree the binary was
// configured from. No path of the build machine is baked into what a relocated test reads.
#pragma once

#include <cstdlib>
#include <filesystem>

#ifndef OSVS_CONFIGURED_SOURCE_DIR
#define OSVS_CONFIGURED_SOURCE_DIR "."
#endif

namespace osvs::testing {

/// `relative` (e.g. "reports/exp/verified.json") inside the source tree the test runs against.
inline std::filesystem::path source_file(const std::filesystem::path& relative) {
  const char* dir = std::getenv("OSVS_SOURCE_DIR");
  return std::filesystem::path(dir && *dir ? dir : OSVS_CONFIGURED_SOURCE_DIR) / relative;
}

}  // namespace osvs::testing
