// Implementation of gen/shifts.h.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "osvs/properties/exact_shift.h"

namespace osvs::gen {

inline rc::Gen<float> exact_shift(const Row& row, float q) {
  // |k| <= kMaxShiftSteps keeps every x + k q exact on a row snapped to q (exact_shift.h).
  const rc::Gen<std::int32_t> steps = rc::gen::weightedOneOf<std::int32_t>({
      {3, rc::gen::inRange<std::int32_t>(1, kMaxShiftSteps + 1)},
      {2, rc::gen::map(rc::gen::inRange(0, 23), [](int e) { return std::int32_t{1} << e; })},
  });
  const rc::Gen<float> multiple = rc::gen::map(
      rc::gen::pair(steps, rc::gen::arbitrary<bool>()), [q](std::pair<std::int32_t, bool> kn) {
        return (kn.second ? -1.0f : 1.0f) * static_cast<float>(kn.first) * q;
      });
  float m = -INFINITY;
  for (float x : row) m = std::max(m, x);
  // -m is a multiple of q with |m / q| <= 2^22: exact too; it moves every element unless m = 0.
  if (!std::isfinite(m) || m == 0) return multiple;
  return rc::gen::weightedOneOf<float>({{4, multiple}, {1, rc::gen::just(-m)}});
}

inline rc::Gen<std::pair<Row, float>> shiftable_row() {
  const auto scale = rc::gen::weightedOneOf<int>({
      {1, rc::gen::just(0)},
      {2, rc::gen::inRange(1, kMaxShiftScaleExponent + 1)},
      {1, rc::gen::map(rc::gen::inRange(1, 1 - kMinShiftScaleExponent), [](int t) { return -t; })},
  });
  return rc::gen::mapcat(rc::gen::pair(nonempty_finite_row(), scale), [](std::pair<Row, int> rt) {
    Row row = scaled_for_shift(std::move(rt.first), rt.second);
    const float q = shift_quantum(row);
    row = snap_to_grid(row, q);
    return rc::gen::map(exact_shift(row, q), [row](float c) { return std::make_pair(row, c); });
  });
}

}  // namespace osvs::gen
