// Narrow<T>: a scalar of a narrow binary format (T = DType::BF16 or DType::F16) whose every
// operation rounds once to that format, to nearest even, with its subnormals and overflow to
// +-inf: what a kernel that keeps its online-softmax state in half precision and computes in it
// computes. Host and device alike (OSVS_HD): the CPU model and the GPU give the same bits, the
// exp apart. formal/ proves the operators' laws in these formats and replays its counterexamples
// on this arithmetic; replay/ replays a regression file of a narrow state on it (NarrowState,
// below; docs/semantics.md, "States in bf16 and fp16").
//
//   a + b, a - b, fma   the exact result rounded to odd at 53 bits, then to the format
//                       (narrow_rounding.h: one correct rounding)
//   a * b               exact in double, rounded once
//   a / b               the double quotient rounded to the format: a double rounding, innocuous
//                       since 53 >= 2p + 2 (p = 8, 11; Figueroa, "When is double rounding
//                       innocuous?", SIGNUM 30(3), 1995)
//   mul_add_k           a*b + c (and a*b + c*d: the left product fused) contracted to one fma as
//                       the kernels' float source is under --fmad=true (fp_model.h), when kFmad
//   comparisons         IEEE's, on the values
//   kexp, exp2f,        the float function of the value (kexp, lse_math.h's lse_exp / lse_log:
//   lse_exp, lse_log    CUDA's on the device, the CPU model's on the host) rounded to the format:
//                       what a kernel that converts its m to float, calls expf and stores the
//                       result in the format computes
//   float_bits          the format's bits (the operators' bit tricks act on them)
//   a computed NaN      the format's canonical NaN (the kernels' canonical_nan() converted)
//
// A constant of the source (0.0f, -inf, canonical_nan(), initial()'s fields) converts implicitly,
// rounded to the format as storing it there does (dtype_bits.h: -FLT_MAX becomes -inf in bf16).
// The operators' source runs on NarrowState unchanged: its helpers are the hidden friends below,
// found by argument-dependent lookup from the operators' unqualified calls.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "osvs/kernels/attention/lse_math.h"
#include "osvs/kernels/dtype.h"
#include "osvs/kernels/dtype_bits.h"
#include "osvs/kernels/exp.h"
#include "osvs/kernels/fp_model.h"
#include "osvs/kernels/narrow_rounding.h"
#include "osvs/kernels/state.h"

namespace osvs {

/// A 16-bit format of `ExponentBits` exponent bits and `Precision` significand bits (the
/// implicit one counted) whose conversions from and to float are `BitsOf` and `ValueOf`
/// (dtype_bits.h).
template <int ExponentBits, int Precision, std::uint16_t (*BitsOf)(float),
          float (*ValueOf)(std::uint16_t)>
struct SixteenBitFormat {
  static constexpr int kExponentBits = ExponentBits, kPrecision = Precision;
  OSVS_HD static std::uint32_t bits_of(float x) { return BitsOf(x); }
  OSVS_HD static float value_of(std::uint32_t b) { return ValueOf(static_cast<std::uint16_t>(b)); }
};

/// The parameters of a narrow format and its conversions from and to float.
template <DType T>
struct NarrowFormat;

template <>
struct NarrowFormat<DType::BF16> : SixteenBitFormat<8, 8, bf16_bits_of, float_of_bf16_bits> {};

template <>
struct NarrowFormat<DType::F16> : SixteenBitFormat<5, 11, f16_bits_of, float_of_f16_bits> {};

template <class N>
class NarrowBitsOf;

/// kFmad: a*b + c in the operators' source contracts to one fma (the build's --fmad, which the
/// CPU model follows: OSVS_MODEL_FMAD); formal/ instantiates both.
template <DType T, bool kFmad = (OSVS_MODEL_FMAD != 0)>
class Narrow {
 public:
  using Format = NarrowFormat<T>;
  static constexpr DType kType = T;

  /// A constant of the source, rounded to the format.
  OSVS_HD Narrow(float c) : bits_(Format::bits_of(c)) {}  // NOLINT(google-explicit-constructor)
  OSVS_HD static Narrow from_bits(std::uint32_t bits) {
    Narrow n;
    n.bits_ = bits & ((std::uint32_t{1} << (Format::kExponentBits + Format::kPrecision)) - 1);
    return n;
  }
  /// x rounded once to the format.
  OSVS_HD static Narrow rounded(double x) {
    return from_bits(detail::round_to_narrow_bits<Format::kExponentBits, Format::kPrecision>(
        x, Format::bits_of(canonical_nan())));
  }
  OSVS_HD std::uint32_t bits() const { return bits_; }
  /// The value, exactly (every value of the format is a float; a NaN keeps its payload).
  OSVS_HD float value() const { return Format::value_of(bits_); }

  friend OSVS_HD Narrow operator+(Narrow a, Narrow b) {
    return rounded(detail::sum_to_odd(a.value(), b.value()));
  }
  friend OSVS_HD Narrow operator-(Narrow a, Narrow b) {
    return rounded(detail::sum_to_odd(a.value(), -static_cast<double>(b.value())));
  }
  friend OSVS_HD Narrow operator*(Narrow a, Narrow b) {
    return rounded(detail::mul_rn(double{a.value()}, double{b.value()}));
  }
  friend OSVS_HD Narrow operator/(Narrow a, Narrow b) {
    return rounded(detail::div_rn(double{a.value()}, double{b.value()}));
  }
  /// Exact: flips the sign bit.
  friend OSVS_HD Narrow operator-(Narrow a) {
    return from_bits(a.bits_ ^
                     (std::uint32_t{1} << (Format::kExponentBits + Format::kPrecision - 1)));
  }
  friend OSVS_HD bool operator==(Narrow a, Narrow b) { return a.value() == b.value(); }
  friend OSVS_HD bool operator!=(Narrow a, Narrow b) { return a.value() != b.value(); }
  friend OSVS_HD bool operator<(Narrow a, Narrow b) { return a.value() < b.value(); }
  friend OSVS_HD bool operator<=(Narrow a, Narrow b) { return a.value() <= b.value(); }
  friend OSVS_HD bool operator>(Narrow a, Narrow b) { return a.value() > b.value(); }
  friend OSVS_HD bool operator>=(Narrow a, Narrow b) { return a.value() >= b.value(); }

  /// fma(a, b, c), rounded once.
  friend OSVS_HD Narrow fused_mul_add(Narrow a, Narrow b, Narrow c) {
    return rounded(
        detail::sum_to_odd(detail::mul_rn(double{a.value()}, double{b.value()}), c.value()));
  }
  friend OSVS_HD Narrow fmaf(Narrow a, Narrow b, Narrow c) { return fused_mul_add(a, b, c); }
  friend OSVS_HD Narrow mul_add_k(Narrow a, Narrow b, Narrow c) {
    return kFmad ? fused_mul_add(a, b, c) : a * b + c;
  }
  friend OSVS_HD Narrow mul_add_k(Narrow a, Narrow b, Narrow c, Narrow d) {
    return kFmad ? fused_mul_add(a, b, c * d) : a * b + c * d;
  }
  friend OSVS_HD bool signbit(Narrow x) {
    return (x.bits_ >> (Format::kExponentBits + Format::kPrecision - 1)) != 0;
  }
  /// CUDA fmaxf's rule (fp_model.h's fmax_rule): a NaN operand is ignored, -0 orders below +0.
  friend OSVS_HD Narrow fmax_k(Narrow a, Narrow b) {
    if (a != a) return b;
    if (b != b) return a;
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
  }
  friend OSVS_HD Narrow kexp(Narrow x) { return Narrow(::osvs::kexp(x.value())); }
  friend OSVS_HD Narrow exp2f(Narrow x) { return Narrow(::osvs::lse_exp(LseBase::Two, x.value())); }
  friend OSVS_HD Narrow lse_exp(LseBase base, Narrow x) {
    return Narrow(::osvs::lse_exp(base, x.value()));
  }
  friend OSVS_HD Narrow lse_log(LseBase base, Narrow x) {
    return Narrow(::osvs::lse_log(base, x.value()));
  }
  friend OSVS_HD NarrowBitsOf<Narrow> float_bits(Narrow x) { return NarrowBitsOf<Narrow>(x.bits_); }

 private:
  OSVS_HD Narrow() : bits_(0) {}
  std::uint32_t bits_;
};

/// float_bits of a Narrow: the format's bits, for the operators' bit tricks on m.
template <class N>
class NarrowBitsOf {
 public:
  OSVS_HD explicit NarrowBitsOf(std::uint32_t b) : b_(b) {}
  OSVS_HD std::uint32_t value() const { return b_; }
  friend OSVS_HD NarrowBitsOf operator&(NarrowBitsOf a, NarrowBitsOf b) {
    return NarrowBitsOf(a.b_ & b.b_);
  }
  friend OSVS_HD NarrowBitsOf operator|(NarrowBitsOf a, NarrowBitsOf b) {
    return NarrowBitsOf(a.b_ | b.b_);
  }
  friend OSVS_HD bool operator==(NarrowBitsOf a, std::uint32_t b) { return a.b_ == b; }
  friend OSVS_HD N bits_float(NarrowBitsOf b) { return N::from_bits(b.b_); }

 private:
  std::uint32_t b_;
};

/// An online-softmax state (m, d) stored in T: the state type an operator's
/// `template <class S> combine(S, S)` runs on in that format.
template <DType T, bool kFmad = (OSVS_MODEL_FMAD != 0)>
struct NarrowState {
  using Scalar = Narrow<T, kFmad>;
  Scalar m;
  Scalar d;
  OSVS_HD NarrowState(Scalar m_, Scalar d_) : m(m_), d(d_) {}
  /// A state of floats (initial(), a case's state) with each field rounded to T: exact for a
  /// value of T (is_value_of, dtype.h), a signalling NaN made quiet (dtype_bits.h).
  OSVS_HD NarrowState(State s) : m(s.m), d(s.d) {}  // NOLINT(google-explicit-constructor)
  /// The state as two floats holding its values exactly.
  OSVS_HD State widened() const { return {m.value(), d.value()}; }
};

/// Whether Op's combine runs on narrow states: Op declares `static constexpr bool kNarrowStates =
/// true` (its combine is written over its state type and every helper it calls has a Narrow
/// overload) and its combine takes a NarrowState. An operator that does not declare it runs on
/// float states only (C++17: the public headers stay C++17).
template <class Op, class = void>
struct runs_on_narrow_states : std::false_type {};
template <class Op>
struct runs_on_narrow_states<
    Op, std::void_t<decltype(Op::kNarrowStates),
                    decltype(Op::combine(std::declval<NarrowState<DType::BF16>>(),
                                         std::declval<NarrowState<DType::BF16>>()))>>
    : std::bool_constant<Op::kNarrowStates> {};

/// a (+) b with both states stored in T (BF16 or F16) and Op's arithmetic rounded to T; a and b
/// hold values of T (as floats), and so does the result.
template <class Op, DType T>
OSVS_HD State combine_in(State a, State b) {
  return Op::combine(NarrowState<T>(a), NarrowState<T>(b)).widened();
}

}  // namespace osvs
