// Exact reals the Gappa scripts need but Gappa cannot compute (it has no exp): e^g and
// e^(+-u|g|) - 1, enclosed by MPFR at 256 bits with directed rounding, and exact differences of
// floats. Each bound is printed exactly (MPFR's %Ra), so the enclosure is what MPFR proved.
#pragma once

#include "osvs/formal/gappa/script.h"

namespace osvs::formal::gappa {

/// [e^g lower, e^g upper] for g = a - b (exact), a and b floats.
Interval exp_of_difference(float a, float b);

/// [e^(-c|a - b|) - 1 lower, e^(c|a - b|) - 1 upper]: the factor e^(t - g) - 1 of an argument t
/// with |t - g| <= c |g|, g = a - b (exp is increasing).
Interval expm1_of_argument_error(float a, float b, double c);

/// c |a - b| exactly (c a power of two).
std::string scaled_gap(float a, float b, double c);

}  // namespace osvs::formal::gappa
