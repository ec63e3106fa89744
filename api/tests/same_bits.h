// The bitwise comparison of the tiled attention kernels' tests: two executors, or two orders of
// one, give the same floats.
#pragma once

#include <cstring>
#include <vector>

namespace osvs::test {

/// Whether two arrays hold the same floats bit for bit (two empty arrays do; memcmp is not given
/// an empty vector's data, which may be null).
inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

}  // namespace osvs::test
