// The inputs whose b^x needs no arithmetic, shared by the fast path and the MPFR path.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "osvs/exhaustive/exact_exp.h"

namespace osvs::exhaustive::detail {

/// Lowest binade of the ULP metric (the uniform subnormal grid, docs/semantics.md §4).
inline constexpr int kLowestBinade = -126;

inline ExactExp exactly(float value, int binade) {
  ExactExp r;
  r.rounded = value;
  r.binade = binade;
  r.approx = value;
  return r;
}

inline ExactExp expected_infinity() {
  ExactExp r;
  r.rounded = r.approx = std::numeric_limits<float>::infinity();
  return r;
}

/// NaN -> NaN; +-0 -> 1 (binade 0); -inf -> 0; +inf -> inf. Exact: b^0 = 1, b^-inf = 0.
inline std::optional<ExactExp> special_exp(float x) {
  if (std::isnan(x)) {
    ExactExp r;
    r.nan = true;
    r.rounded = std::numeric_limits<float>::quiet_NaN();
    return r;
  }
  if (x == 0) return exactly(1.0f, 0);
  if (std::isinf(x)) return x > 0 ? expected_infinity() : exactly(0.0f, kLowestBinade);
  return std::nullopt;
}

/// Moves y, a double approximation of a real in binade b, into [2^b, 2^(b+1)) ([0, 2^-125) for
/// the lowest binade). The real lies there, so the move never takes y further from it.
/// (-126 <= b <= 127: 2^b and its neighbours are normal doubles, built from their bits.)
inline double into_binade(double y, int b) {
  const auto power_bits = [](int e) { return static_cast<std::uint64_t>(e + 1023) << 52; };
  const double low = b > kLowestBinade ? std::bit_cast<double>(power_bits(b)) : 0.0;
  const double high = std::bit_cast<double>(power_bits(b + 1) - 1);  // the double below 2^(b+1)
  return y < low ? low : (y > high ? high : y);
}

}  // namespace osvs::exhaustive::detail
