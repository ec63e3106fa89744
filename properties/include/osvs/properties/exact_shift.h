// Exact shifts of a row: softmax(x + c) = softmax(x) is checked bitwise, which needs every x_j + c
// to be exact in float. The generator, the audit and the property itself share these helpers
// (header-only: the generators are).
//
// The grid: a row is snapped to multiples of a power of two q with every |x_j| <= 2^22 q, and a
// shift is c = k q with |k| <= 2^22. Then x_j + c = (i_j + k) q with |i_j + k| <= 2^23 < 2^24: an
// integer of at most 24 bits times a power of two, a float exactly (q >= 2^-149, the smallest
// subnormal, so (i_j + k) q is a multiple of the spacing of floats at its magnitude; and
// |x_j + c| <= 2^23 q <= 2^127 < FLT_MAX while the row's largest |x| is below 2^126).
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace osvs {

/// The largest |k| of a shift c = k q that keeps every element of a row snapped to q exact.
inline constexpr std::int32_t kMaxShiftSteps = std::int32_t{1} << 22;

/// The largest row magnitude shift_quantum accepts: 2^126, so that x + c stays below 2^127.
inline constexpr float kMaxShiftableMagnitude = 0x1p126f;

/// Whether fl(x + c) == x + c. -inf + c (c finite) is exact: a masked element stays masked. NaN,
/// +inf, an infinite c and an overflowing sum are not. Decided by TwoSum's error term (Knuth):
/// s = fl(x + c), and the rounding error x + c - s is computed exactly in float from s, x and c.
inline bool shift_is_exact(float x, float c) {
  if (!std::isfinite(c)) return false;
  if (x == -INFINITY) return true;
  if (!std::isfinite(x)) return false;
  const float s = x + c;
  if (!std::isfinite(s)) return false;  // overflow
  // TwoSum: with round to nearest and no overflow, err == x + c - s exactly.
  const float c_part = s - x;
  const float x_part = s - c_part;
  const float err = (x - x_part) + (c - c_part);
  return err == 0.0f;
}

/// The power of two q with every finite |x_j| <= 2^22 q: 2^(ilogb(max |x_j|) - 21), at least
/// 2^-149; 1 when the row has no non-zero finite element. Throws std::invalid_argument when the
/// row's largest finite magnitude is not below kMaxShiftableMagnitude.
inline float shift_quantum(const std::vector<float>& row) {
  float largest = 0;
  for (float x : row)
    if (std::isfinite(x)) largest = std::max(largest, std::fabs(x));
  if (largest == 0) return 1.0f;
  if (!(largest < kMaxShiftableMagnitude))
    throw std::invalid_argument("row magnitude " + std::to_string(largest) +
                                " is too large for an exact shift grid");
  // |x| < 2^(ilogb(largest) + 1) = 2^22 q.
  return std::ldexp(1.0f, std::max(std::ilogb(largest) - 21, FLT_MIN_EXP - FLT_MANT_DIG));
}

/// 2^t times the row, t lowered where needed so that the largest finite magnitude stays below
/// kMaxShiftableMagnitude (exact, except for elements that become subnormal).
inline std::vector<float> scaled_for_shift(std::vector<float> row, int t) {
  float largest = 0;
  for (float x : row)
    if (std::isfinite(x)) largest = std::max(largest, std::fabs(x));
  // |x| < 2^(ilogb(largest) + 1 + t) <= 2^ilogb(kMaxShiftableMagnitude).
  if (largest > 0) t = std::min(t, std::ilogb(kMaxShiftableMagnitude) - 1 - std::ilogb(largest));
  for (float& x : row) x = std::ldexp(x, t);
  return row;
}

/// The row with every finite element rounded to the nearest multiple of q (ties to even); -inf,
/// +inf and NaN stay as they are. With q = shift_quantum(row), every shift k q with
/// |k| <= kMaxShiftSteps is exact on the result. Keep that q: rounding may carry the largest
/// element up to 2^22 q, where shift_quantum of the result would be twice as coarse.
inline std::vector<float> snap_to_grid(const std::vector<float>& row, float q) {
  std::vector<float> out(row.size());
  for (std::size_t j = 0; j < row.size(); ++j) {
    const float x = row[j];
    // x / q and i * q are exact scalings by a power of two, unless x / q is subnormal, which
    // only happens for |x| < 2^-126 q and then rounds to 0 all the same.
    out[j] = std::isfinite(x) ? std::nearbyint(x / q) * q : x;
  }
  return out;
}

}  // namespace osvs
