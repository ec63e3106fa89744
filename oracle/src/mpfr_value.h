// A minimal owning wrapper of an mpfr_t (the attention reference's, the double-double constants'
// and the exhaustive exp measurement's: exhaustive/), the correct rounding of an MPFR value to an
// output type (f32 / bf16 / fp16) used by the attention, softmax backward and row reduction
// references, and the ExactElement of an exact value (mpfr_value.cpp).
#pragma once

#include <mpfr.h>

#include <optional>
#include <utility>

#include "osvs/kernels/dtype.h"
#include "osvs/oracle/exact_element.h"

namespace osvs::oracle::detail {

class MpValue {
 public:
  explicit MpValue(mpfr_prec_t precision) { mpfr_init2(x_, precision); }
  MpValue(MpValue&& other) noexcept {
    mpfr_init2(x_, mpfr_get_prec(other.x_));
    mpfr_swap(x_, other.x_);
  }
  MpValue& operator=(MpValue&& other) noexcept {
    mpfr_swap(x_, other.x_);
    return *this;
  }
  MpValue(const MpValue&) = delete;
  MpValue& operator=(const MpValue&) = delete;
  ~MpValue() { mpfr_clear(x_); }

  mpfr_ptr get() { return x_; }
  mpfr_srcptr get() const { return x_; }

 private:
  mpfr_t x_;
};

/// x rounded to nearest, ties to even, to type t (p significand bits, smallest normal exponent
/// e_min, subnormals included); +-inf beyond the largest finite value (a value at or past
/// max + ulp(max)/2 rounds to the next power of two, which is past max). Method: x = X 2^q with
/// q = max(b(x), e_min) - p + 1 the exponent of ulp_t(x); X rounded to an integer by mpfr_rint
/// (ties to even) is the significand of the result, exactly as IEEE rounding defines it.
float round_to_type(mpfr_srcptr x, DType t);

/// round_to_type of every real in [x - err, x + err] (err >= 0) when both ends, rounded outward,
/// round to the same value of type t (rounding to nearest is monotone, so every real between
/// them does too); nullopt when they do not (a higher precision must decide).
std::optional<float> decided(mpfr_srcptr x, mpfr_srcptr err, DType t);

/// The element of an exact value x: x rounded to `out`, x rounded to double and x's binade.
ExactElement exact_element(mpfr_srcptr x, DType out);

/// The element of a value the IEEE evaluation gives exactly (NaN, +-inf).
ExactElement ieee_element(double v, DType out);

}  // namespace osvs::oracle::detail
