// The row lengths at which a kernel's declared layouts (RowLayout) are tested: where each path
// begins and where the one before it ends, and, for a path that works in pieces, rows of a whole
// number of pieces and one element either side, for piece counts that are and are not powers of
// two. The laws judge a row of each length besides their random cases (kind_cases.h), and the
// audit sweeps them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/api/row_kernel.h"

namespace osvs {

/// A row length and the layout it exercises ("split row: 9 pieces - 1").
struct LayoutLength {
  std::int64_t cols = 0;
  std::string layout;
  std::string why;
};

/// The edges of k's declared layouts, ascending, each length once, none past max_cols:
///   from - 1 (the end of the path before), from, from + 1;
///   for a path of pieces p from `from` to `to`: c p - 1, c p, c p + 1 for the first count
///   c0 = ceil(from / p) the path holds, c0 + 1, and the first power of two above c0.
std::vector<LayoutLength> layout_lengths(const RowKernel& k);

}  // namespace osvs
