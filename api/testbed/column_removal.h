// Removing columns from a case's rows while shrinking: the row kind's and the row-wise kind's
// reductions (row_reductions.cpp, rowwise_cases.cpp) shrink a row by dropping a run of columns
// from every row, and renumber the case's permutation to the shorter row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "osvs/api/runner.h"

namespace osvs::testbed {

/// Every row of `rows` without columns [first, first + count) (each row at least that long).
inline void erase_columns(Rows& rows, std::size_t first, std::size_t count) {
  for (auto& row : rows)
    row.erase(row.begin() + static_cast<std::ptrdiff_t>(first),
              row.begin() + static_cast<std::ptrdiff_t>(first + count));
}

/// The permutation p of a row, for the row without columns [first, first + count): the remaining
/// indices in their order, renumbered, so it stays a permutation of the shorter row.
inline std::vector<std::int64_t> permutation_without_columns(const std::vector<std::int64_t>& p,
                                                             std::size_t first, std::size_t count) {
  std::vector<std::int64_t> out;
  for (std::int64_t i : p) {
    const auto u = static_cast<std::size_t>(i);
    if (u < first) out.push_back(i);
    if (u >= first + count) out.push_back(i - static_cast<std::int64_t>(count));
  }
  return out;
}

}  // namespace osvs::testbed
