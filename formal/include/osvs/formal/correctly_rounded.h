// The value a fact asserts: the correctly rounded result of an uninterpreted function's real
// counterpart, never a typed constant.
//
//   exp, exp2   exhaustive/'s exact_exp (the reference its measurement uses)
//   log, log2   MPFR's log / log2 rounded to 24 bits, to nearest even
//   in bf16 / fp16, each MPFR's at the format's precision and exponent range
#pragma once

#include <mpfr.h>

#include <functional>
#include <string>

#include "osvs/formal/format.h"

namespace osvs::formal {

/// f(x) correctly rounded to binary32 for f one of the uninterpreted functions ("exp", "exp2",
/// "log", "log2"). The logs are defined here for x > 0 with a result of 0 or in the normal range
/// (every input a fact states); other inputs and other names throw std::invalid_argument.
float correctly_rounded(const std::string& function, float x);
/// f(x) (x a value of `format`) correctly rounded to `format`, to nearest even, with its
/// subnormals and overflow (MPFR at the format's precision and exponent range); for binary32 the
/// above. exp, exp2: a NaN gives a NaN; log, log2: for finite x > 0.
float correctly_rounded(const std::string& function, float x, const Format& format);

/// What `compute` (an MPFR operation on exact inputs, writing `out` with `rounding` and returning
/// its ternary value) gives rounded once to `format`, to nearest even, with its subnormals and
/// overflow to +-inf: the reference of the facts above and of the narrow arithmetic's tests.
float rounded_in_format(const Format& format,
                        const std::function<int(mpfr_ptr out, mpfr_rnd_t rounding)>& compute);

}  // namespace osvs::formal
