// The kernels' __shfl_down_sync tree written as harness merges, so that generators and properties
// describe the warp's order with one definition.
#pragma once

#include <vector>

#include "osvs/kernels/cases.h"

namespace osvs {

/// Merges of the shuffle tree over `slots` slots (offsets 16, 8, 4, 2, 1 for 32): only those lane
/// 0's result depends on (a lane whose partner is out of range never feeds lane 0); root slot 0.
inline std::vector<Merge> shuffle_tree(int slots) {
  int width = 1;
  while (width < slots) width *= 2;
  std::vector<Merge> merges;
  for (int offset = width / 2; offset > 0; offset /= 2)
    for (int lane = 0; lane < offset && lane + offset < slots; ++lane)
      merges.push_back(Merge{lane, lane + offset});
  return merges;
}

}  // namespace osvs
