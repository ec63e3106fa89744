// A minimal owning wrapper of an mpfr_t (the attention reference's, the double-double constants'
// and the exhaustive exp measurement's: exhaustive/), the correct rounding of an MPFR value to an
// output type (f32 / bf16 / fp16) used by the attention, softmax backward and row reduction
// references, the ExactElement of an exact value, and the Ziv decision of an element that is not
// exact (the softmax backward's and the row reductions': mpfr_value.cpp).
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

/// The precisions of Ziv's method in the softmax backward and the row reduction references: an
/// output still undecided at 8192 bits lies within about 2^-8000 of a rounding boundary.
inline constexpr mpfr_prec_t kZivBits[] = {128, 256, 512, 1024, 2048, 4096, 8192};

/// What the double `value` of a Ziv-decided element is: y rounded to double (ExactElement's
/// contract: both ends of [t - err, t + err] round to one double), or t rounded to double, within
/// 2^-53 + 2^-59 of y relative (err <= 2^(EXP(t) - 60) alone: the softmax backward's).
enum class ZivValue { RoundedOnce, Near };

/// The element of a y known to lie within err = 2^err_exp of t, where that decides it: t != 0,
/// err <= 2^(EXP(t) - 60), both ends of [t - err, t + err] (rounded outward) of one sign and one
/// binade, rounding to one value of `out` (decided) and, for ZivValue::RoundedOnce, to one
/// double; y's rounding and binade are then t's. nullopt where a higher precision must decide.
/// err_exp >= EXP(t) - prec(t) - 8 (every caller's), so t -+ err is exact at prec(t) + 8 bits.
std::optional<ExactElement> ziv_decided(mpfr_srcptr t, mpfr_exp_t err_exp, DType out,
                                        ZivValue value = ZivValue::RoundedOnce);

}  // namespace osvs::oracle::detail
