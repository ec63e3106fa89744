// Interval arithmetic over MPFR: a closed interval [lo, hi] at one precision, every operation
// rounding its lower end down and its upper end up, so that the exact result of the operation on
// any reals of its operands lies inside (the enclosure holds by construction). exp and tanh are
// increasing, so their ends are the ends' images; a product takes the smallest and the largest of
// the four products of ends; a quotient needs a positive divisor. The exact attention gradients'
// MPFR path (attention_backward_mpfr.cpp) uses it.
#pragma once

#include <mpfr.h>

#include "mpfr_value.h"

namespace osvs::oracle::detail {

class MpInterval {
 public:
  explicit MpInterval(mpfr_prec_t precision);

  mpfr_srcptr lo() const { return lo_.get(); }
  mpfr_srcptr hi() const { return hi_.get(); }

  /// [x rounded down, x rounded up].
  void set(mpfr_srcptr x);
  void set(double x);
  /// Every operation may take this interval as an operand.
  void add(const MpInterval& a, const MpInterval& b);
  void sub(const MpInterval& a, const MpInterval& b);
  void mul(const MpInterval& a, const MpInterval& b);
  void mul(const MpInterval& a, double c);
  /// a / b for b > 0 (throws std::logic_error when b's lower end is not positive).
  void div(const MpInterval& a, const MpInterval& b);
  void div(const MpInterval& a, double c);  ///< c > 0
  void square(const MpInterval& a);
  void exp(const MpInterval& a);
  void tanh(const MpInterval& a);

  bool positive() const { return mpfr_sgn(lo_.get()) > 0; }
  /// Both ends within [-bound, bound].
  bool within(double bound) const;
  /// (hi - lo) / 2, rounded up to a double.
  double radius() const;
  /// lo rounded down to a double.
  double lower() const;
  /// (lo + hi) / 2 rounded to the nearest double.
  double middle() const;

 private:
  MpValue lo_, hi_, scratch_;
};

}  // namespace osvs::oracle::detail
