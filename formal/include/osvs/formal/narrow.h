// The concrete arithmetic of a bf16 or fp16 state (format.h): what a counterexample found in
// such a format is replayed on, independently of the solver. Narrow is a value of the format of
// this thread (a NarrowScope); every operation rounds once to it, to nearest even, with its
// subnormals and overflow to +-inf:
//
//   a + b, a - b     the double sum rounded to odd (TwoSum), then to the format: rounding to odd
//                    at 53 bits and then to p <= 51 bits is one correct rounding
//   a * b            exact in double (at most 22 significant bits), rounded once
//   a / b            the double quotient rounded to the format: 53 >= 2p + 2, so the double
//                    rounding is innocuous
//   fma(a, b, c)     the exact product plus c, rounded to odd, then to the format
//   exp, exp2        the host's (the CPU model's kexp / exp2, solve.cpp's host_function) of the
//                    value as a float, rounded to the format: what a kernel that converts to
//                    float, calls expf and stores the result in the format computes
//
// The operators' source runs on it unchanged (their helpers are found by argument-dependent
// lookup, as Sym's are): NarrowState is the state type.
#pragma once

#include <cstdint>
#include <string>

#include "osvs/formal/format.h"
#include "osvs/kernels/fp_model.h"
#include "osvs/kernels/state.h"

namespace osvs::formal {

/// The host's exp, exp2, log or log2 of a float (the CPU model's; solve.cpp).
float host_function(const std::string& name, float x);

/// The format and contraction of this thread's Narrow arithmetic.
struct NarrowArithmetic {
  Format format = kBf16;
  bool fmad = true;  ///< as Context::fmad
};
const NarrowArithmetic& narrow_arithmetic();

class NarrowScope {
 public:
  explicit NarrowScope(NarrowArithmetic a);
  ~NarrowScope();
  NarrowScope(const NarrowScope&) = delete;
  NarrowScope& operator=(const NarrowScope&) = delete;

 private:
  NarrowArithmetic previous_;
};

class Narrow {
 public:
  /// A constant of the source (a float literal, initial()'s fields): rounded to the format.
  Narrow(float c);  // NOLINT(google-explicit-constructor): literals in the operators convert
  static Narrow from_bits(std::uint32_t bits);
  /// x rounded once to the format.
  static Narrow rounded(double x);
  std::uint32_t bits() const { return bits_; }
  /// The value, exactly (a NaN keeps its payload, shifted).
  float value() const;

 private:
  Narrow() = default;
  std::uint32_t bits_ = 0;
};

class NarrowBits {
 public:
  explicit NarrowBits(std::uint32_t b) : b_(b) {}
  std::uint32_t value() const { return b_; }
  friend NarrowBits operator&(NarrowBits a, NarrowBits b) { return NarrowBits(a.b_ & b.b_); }
  friend NarrowBits operator|(NarrowBits a, NarrowBits b) { return NarrowBits(a.b_ | b.b_); }
  friend bool operator==(NarrowBits a, std::uint32_t b) { return a.b_ == b; }

 private:
  std::uint32_t b_;
};

Narrow operator+(Narrow a, Narrow b);
Narrow operator-(Narrow a, Narrow b);
Narrow operator*(Narrow a, Narrow b);
Narrow operator/(Narrow a, Narrow b);
Narrow operator-(Narrow a);  ///< exact: flips the sign bit
bool operator==(Narrow a, Narrow b);
bool operator!=(Narrow a, Narrow b);
bool operator<(Narrow a, Narrow b);
bool operator<=(Narrow a, Narrow b);
bool operator>(Narrow a, Narrow b);
bool operator>=(Narrow a, Narrow b);

Narrow fused_mul_add(Narrow a, Narrow b, Narrow c);

inline NarrowBits float_bits(Narrow x) {
  return NarrowBits(x.bits());
}
inline Narrow bits_float(NarrowBits b) {
  return Narrow::from_bits(b.value());
}
bool signbit(Narrow x);
inline Narrow mul_add_k(Narrow a, Narrow b, Narrow c) {
  return narrow_arithmetic().fmad ? fused_mul_add(a, b, c) : a * b + c;
}
inline Narrow mul_add_k(Narrow a, Narrow b, Narrow c, Narrow d) {
  return narrow_arithmetic().fmad ? fused_mul_add(a, b, c * d) : a * b + c * d;
}
inline Narrow fmaf(Narrow a, Narrow b, Narrow c) {
  return fused_mul_add(a, b, c);
}
inline Narrow fmax_k(Narrow a, Narrow b) {
  return osvs::detail::fmax_rule(a, b);
}
Narrow kexp(Narrow x);
Narrow exp2f(Narrow x);

struct NarrowState {
  Narrow m;
  Narrow d;
  NarrowState(Narrow m_, Narrow d_) : m(m_), d(d_) {}
  NarrowState(State s) : m(s.m), d(s.d) {}  // NOLINT(google-explicit-constructor): initial()
  /// The state as two floats holding its values exactly (how a counterexample records it).
  State widened() const { return {m.value(), d.value()}; }
};

/// A state of floats that are values of the format (a model's), bits kept (NaN payloads too).
NarrowState narrow_state(State s);

}  // namespace osvs::formal
