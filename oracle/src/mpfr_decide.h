// The MPFR side of the reference, used alone (reference_row_mpfr) or as the fast path's fallback.
#pragma once

#include <cstdint>
#include <vector>

#include "osvs/oracle/reference.h"

namespace osvs::oracle::detail {

/// Working precisions of the Ziv loop, in decimal digits (Boost's unit; about 3.32 bits each).
inline constexpr unsigned kZivDigits[] = {40, 80, 160, 320, 640};

/// Fills y_rounded[j] and y_binade[j] for every j in `which` (ascending) of a Finite row with
/// maximum m, raising the precision until both are decided (Ziv), starting at rung `first_rung`
/// of kZivDigits. Each rung's sum over the row may run on `loops` (the same result).
/// Throws std::runtime_error if even the last precision cannot decide (y_j within ~2^-1400
/// relative of a rounding boundary or of a power of two it does not equal; never observed).
void mpfr_decide(const float* x, std::int64_t n, float m, const std::vector<std::int64_t>& which,
                 std::vector<float>& y_rounded, std::vector<int>& y_binade,
                 std::size_t first_rung = 0, const IndexLoop* loops = nullptr);

}  // namespace osvs::oracle::detail
