#include "mutations.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace osvs::audit {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

float nudge(float x, int ulps) {
  for (int k = 0; k < std::abs(ulps); ++k) x = std::nextafter(x, ulps > 0 ? kInf : -kInf);
  return x;
}

float row_max(const std::vector<float>& row) {
  return *std::max_element(row.begin(), row.end());
}

}  // namespace

void mutate_row(std::vector<float>& row, std::int64_t worst, std::mt19937_64& rng) {
  const auto n = static_cast<std::int64_t>(row.size());
  std::uniform_int_distribution<std::int64_t> any(0, n - 1);
  std::uniform_int_distribution<int> ulps(-4, 4);
  const int count = std::uniform_int_distribution<int>(1, 3)(rng);
  for (int c = 0; c < count; ++c) {
    const std::int64_t j = any(rng);
    const auto k = static_cast<std::size_t>(j);
    const float m = row_max(row);
    const float before = row[k];
    switch (std::uniform_int_distribution<int>(0, 4)(rng)) {
      case 0:  // nudge any element by a few ulps
        row[k] = nudge(row[k], ulps(rng));
        break;
      case 1:  // move an element toward (f < 1) or away from (f > 1) the maximum
        row[k] = m - (m - row[k]) * std::uniform_real_distribution<float>(0.5f, 1.5f)(rng);
        break;
      case 2:  // another copy of the maximum (a tie)
        row[k] = m;
        break;
      case 3:  // a near-copy of the worst element
        if (worst >= 0) row[k] = nudge(row[static_cast<std::size_t>(worst)], ulps(rng));
        break;
      default:  // nudge the worst element itself
        if (worst >= 0) {
          auto& w = row[static_cast<std::size_t>(worst)];
          w = nudge(w, ulps(rng));
        }
    }
    // keep the row finite: no NaN, no +inf, and never every element -inf
    if (std::isnan(row[k]) || row[k] == kInf || (std::isinf(row[k]) && !std::isinf(before)))
      row[k] = before;
    if (worst >= 0 && !std::isfinite(row[static_cast<std::size_t>(worst)]) && std::isfinite(m))
      row[static_cast<std::size_t>(worst)] = m;
  }
  if (std::all_of(row.begin(), row.end(), [](float v) { return std::isinf(v); })) row[0] = 0.0f;
}

}  // namespace osvs::audit
