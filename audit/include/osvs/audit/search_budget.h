// The budget of the audit's targeted search (search.h).
#pragma once

#include <cstdint>
#include <optional>

namespace osvs::audit {

/// How long the search climbs: a number of rounds (one batch of mutants of one seed each), so
/// that a run is reproducible, or, when `seconds` is set, until that much wall time has passed
/// (the rounds then depend on the machine's speed).
struct SearchBudget {
  std::int64_t rounds = 0;
  std::optional<double> seconds;
};

}  // namespace osvs::audit
