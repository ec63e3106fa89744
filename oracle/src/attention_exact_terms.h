// Exact MPFR pieces of the attention references (attention_reference.cpp and the backward's
// attention_backward_mpfr.cpp): a dot product of floats and the ALiBi bias, each computed
// exactly, every operation's exactness checked.
#pragma once

#include <mpfr.h>

#include <cstdint>

#include "mpfr_value.h"

namespace osvs::oracle::detail {

/// Bits that hold a dot product of floats exactly: a product of two floats has 48 significant
/// bits and an exponent in [-298, 256]; their sum over up to 2^31 terms spans fewer than
/// 256 + 298 + 48 + 32 = 634 bits; a double factor (a float, or the product of two: the score's
/// scale and an fp8 key scale) adds at most 53.
inline constexpr mpfr_prec_t kExactDotBits = 1200;

/// Throws std::logic_error when an MPFR ternary value says an operation was inexact.
void require_exact(int ternary, const char* what);

/// scale sum_c a_c b_c (with |a_c b_c| in place of each term when `absolute`), exactly at
/// kExactDotBits.
MpValue exact_dot(const float* a, const float* b, int n, double scale, bool absolute = false);

/// x -= slope distance (distance >= 0), the ALiBi bias: exactly (the product of a float and an
/// integer below 2^62 has at most 86 bits) when x's precision holds the difference. Returns
/// mpfr_sub's ternary value.
int subtract_alibi_bias(mpfr_ptr x, float slope, std::int64_t distance);

}  // namespace osvs::oracle::detail
