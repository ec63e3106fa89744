// The rank order of argmax and top-k (osvs/oracle/selection_reference.h).
#include "osvs/oracle/selection_reference.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace osvs::oracle {

bool ranks_above(float va, std::int64_t a, float vb, std::int64_t b) {
  const bool na = std::isnan(va), nb = std::isnan(vb);
  if (na != nb) return na;
  if (!na && va != vb) return va > vb;
  return a < b;
}

bool same_rank_value(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

std::vector<std::int64_t> top_indices(std::span<const float> x, std::int64_t k) {
  const auto n = static_cast<std::int64_t>(x.size());
  if (k < 1 || k > n)
    throw std::invalid_argument("top-k reference: k = " + std::to_string(k) + " outside 1 ... " +
                                std::to_string(n));
  std::vector<std::int64_t> index(x.size());
  std::iota(index.begin(), index.end(), 0);
  std::partial_sort(
      index.begin(), index.begin() + k, index.end(), [&](std::int64_t a, std::int64_t b) {
        return ranks_above(x[static_cast<std::size_t>(a)], a, x[static_cast<std::size_t>(b)], b);
      });
  index.resize(static_cast<std::size_t>(k));
  return index;
}

}  // namespace osvs::oracle
