// Input families of the sweep: plain functions from a seeded generator to a row of floats.
#pragma once

#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

namespace osvs::audit {

struct InputFamily {
  const char* name;         ///< stable identifier used in reports: "normal_10"
  const char* description;  ///< one line for the report
  /// Fills row[0 .. n) (n >= 1); every row has at least one finite element (never fully masked).
  void (*fill)(std::mt19937_64& rng, float* row, std::int64_t n);
};

/// Every family, in report order.
const std::vector<InputFamily>& all_families();

/// The family named `name`, or nullptr.
const InputFamily* find_family(std::string_view name);

}  // namespace osvs::audit
