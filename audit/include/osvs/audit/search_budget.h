// The budget of the audit's targeted search (search.h).
#pragma once

#include <cstdint>
#include <optional>

namespace osvs::audit {

/// Rounds of the targeted search (16 mutants of one row each) when none are asked for. A count,
/// not a time, so that an audit is reproducible: about 30 s of a 2-core CPU for the full audit,
/// 2 s for --quick.
inline constexpr std::int64_t kSearchRounds = 3000;
inline constexpr std::int64_t kQuickSearchRounds = 200;

/// How long the search climbs: a number of rounds (one batch of mutants of one seed each), so
/// that a run is reproducible, or, when `seconds` is set, until that much wall time has passed
/// (the rounds then depend on the machine's speed).
struct SearchBudget {
  std::int64_t rounds = 0;
  std::optional<double> seconds;
};

}  // namespace osvs::audit
