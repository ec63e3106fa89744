#include "osvs/formal/narrow.h"

#include <bit>
#include <cmath>
#include <limits>

namespace osvs::formal {
namespace {

thread_local NarrowArithmetic g_arithmetic;

const Format& format() {
  return g_arithmetic.format;
}

// x + y rounded to odd at 53 bits: the double sum, moved to its odd neighbour toward the exact
// sum when it is inexact and even (TwoSum gives the exact error; no overflow at these
// magnitudes). A NaN or an infinity is returned as the double sum gives it.
double sum_to_odd(double x, double y) {
  const double s = x + y;
  if (!std::isfinite(s)) return s;
  const double bb = s - x;
  const double err = (x - (s - bb)) + (y - bb);
  if (err == 0 || (std::bit_cast<std::uint64_t>(s) & 1u)) return s;
  return std::nextafter(s, err > 0 ? std::numeric_limits<double>::infinity()
                                   : -std::numeric_limits<double>::infinity());
}

double v(Narrow x) {
  return x.value();
}

}  // namespace

const NarrowArithmetic& narrow_arithmetic() {
  return g_arithmetic;
}

NarrowScope::NarrowScope(NarrowArithmetic a) : previous_(g_arithmetic) {
  g_arithmetic = a;
}
NarrowScope::~NarrowScope() {
  g_arithmetic = previous_;
}

Narrow::Narrow(float c) : bits_(format().bits_of(c)) {}

Narrow Narrow::from_bits(std::uint32_t bits) {
  Narrow n;
  n.bits_ = bits & ((format().width() == 32) ? 0xffffffffu : ((1u << format().width()) - 1));
  return n;
}

Narrow Narrow::rounded(double x) {
  // A NaN result: the format's canonical NaN (a computed NaN's payload is free in the proofs).
  if (std::isnan(x)) return from_bits(format().canonical_nan_bits());
  return Narrow(format().round(x));  // exact: round gives a value of the format
}

float Narrow::value() const {
  return format().value_of(bits_);
}

Narrow operator+(Narrow a, Narrow b) {
  return Narrow::rounded(sum_to_odd(v(a), v(b)));
}
Narrow operator-(Narrow a, Narrow b) {
  return Narrow::rounded(sum_to_odd(v(a), -v(b)));
}
Narrow operator*(Narrow a, Narrow b) {
  return Narrow::rounded(v(a) * v(b));
}
Narrow operator/(Narrow a, Narrow b) {
  return Narrow::rounded(v(a) / v(b));
}
Narrow operator-(Narrow a) {
  return Narrow::from_bits(a.bits() ^ format().sign_bit());
}
bool operator==(Narrow a, Narrow b) {
  return v(a) == v(b);
}
bool operator!=(Narrow a, Narrow b) {
  return v(a) != v(b);
}
bool operator<(Narrow a, Narrow b) {
  return v(a) < v(b);
}
bool operator<=(Narrow a, Narrow b) {
  return v(a) <= v(b);
}
bool operator>(Narrow a, Narrow b) {
  return v(a) > v(b);
}
bool operator>=(Narrow a, Narrow b) {
  return v(a) >= v(b);
}

Narrow fused_mul_add(Narrow a, Narrow b, Narrow c) {
  return Narrow::rounded(sum_to_odd(v(a) * v(b), v(c)));  // the product is exact
}

bool signbit(Narrow x) {
  return (x.bits() & format().sign_bit()) != 0;
}

Narrow kexp(Narrow x) {
  return Narrow(host_function("exp", x.value()));
}
Narrow exp2f(Narrow x) {
  return Narrow(host_function("exp2", x.value()));
}

NarrowState narrow_state(State s) {
  return {Narrow::from_bits(format().bits_of(s.m)), Narrow::from_bits(format().bits_of(s.d))};
}

}  // namespace osvs::formal
