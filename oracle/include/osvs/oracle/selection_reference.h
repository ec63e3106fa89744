// The exact answers of argmax and top-k: which elements of a row rank highest. The order is
// total: NaN above every number (torch's and NumPy's rule), then by value (+0 and -0 equal),
// equal elements by index, the lowest first. argmax is the first index of that order; top-k
// its first k indices, in order (the values are the elements themselves: no rounding).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace osvs::oracle {

/// Whether element a ranks above element b (values va, vb at indices a, b).
bool ranks_above(float va, std::int64_t a, float vb, std::int64_t b);

/// Whether two elements tie under the order's values (both NaN, or equal numbers).
bool same_rank_value(float a, float b);

/// The first k indices of the row in rank order (1 <= k <= n; std::invalid_argument otherwise).
std::vector<std::int64_t> top_indices(std::span<const float> x, std::int64_t k);

}  // namespace osvs::oracle
