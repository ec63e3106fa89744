// Shift generators for shift_invariance: a row and a shift c exact on every element of it
// (osvs/properties/exact_shift.h), with magnitudes far beyond |x| < 128.
#pragma once

#include <rapidcheck.h>

#include <utility>

#include "osvs/properties/gen/rows.h"

namespace osvs::gen {

/// The largest power-of-two scaling of a shifted row: |x| up to about 2^(60 + 8) for rows of
/// normal(100) values.
inline constexpr int kMaxShiftScaleExponent = 60;
/// The smallest: rows down to about 2^-40 of their drawn magnitude.
inline constexpr int kMinShiftScaleExponent = -40;

/// A finite non-empty row in one of finite_row's styles, scaled by 2^t (t from
/// kMinShiftScaleExponent to kMaxShiftScaleExponent, clamped below kMaxShiftableMagnitude), snapped
/// to its shift grid q = shift_quantum(row), and a shift c = k q with 1 <= |k| <= kMaxShiftSteps:
/// uniform, a power of two, or -m (the shift that moves the row's maximum to 0). Every x + c is
/// exact, and c moves every element.
rc::Gen<std::pair<Row, float>> shiftable_row();

/// A shift exact on `row` (already on the grid q): k q with 1 <= |k| <= kMaxShiftSteps, or -m.
rc::Gen<float> exact_shift(const Row& row, float q);

}  // namespace osvs::gen

#include "osvs/properties/gen/shifts.hpp"
