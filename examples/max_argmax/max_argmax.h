// A (max, argmax) state reduction of one's own: NaN is the largest value (torch.argmax's rule),
// ties (+0 and -0 included) go to the lowest index; the identity (-inf, INT64_MAX) loses to all.
#pragma once
#include <osvs/api/state_reduction.h>

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

struct MaxArgmax {
  struct State {
    float max;
    std::int64_t index;
  };
  static constexpr auto kStateFields =
      osvs::fields(osvs::field("max", &State::max), osvs::field("index", &State::index));
  OSVS_HD static State identity() { return {-INFINITY, INT64_MAX}; }
  OSVS_HD static State lift(float x, std::int64_t i) { return {x, i}; }
  OSVS_HD static State combine(State a, State b) {
    const bool a_nan = a.max != a.max, b_nan = b.max != b.max;
    if (a_nan != b_nan) return a_nan ? a : b;
    if (a_nan || a.max == b.max) return a.index < b.index ? a : b;
    return a.max > b.max ? a : b;
  }
  static std::vector<double> exact(std::span<const float> row) {  // the first NaN, else max
    std::size_t at = 0;
    for (std::size_t i = 1; i < row.size(); ++i)
      if (!std::isnan(row[at]) && (std::isnan(row[i]) || row[i] > row[at])) at = i;
    if (row.empty()) return {-INFINITY, static_cast<double>(INT64_MAX)};
    return {row[at], static_cast<double>(at)};
  }
};
