// One correct rounding to a narrow binary format (bf16, fp16), written once for host and device:
// the primitive of narrow_float.h's arithmetic, each of whose operations rounds once to the format.
//
//   round_to_narrow_bits   a double rounded to the format, to nearest even, with its subnormals
//                          and overflow to +-inf; a NaN gives the format's canonical NaN
//   sum_to_odd             x + y rounded to odd at 53 bits: the double sum, moved to its odd
//                          neighbour toward the exact sum when it is inexact and even (TwoSum's
//                          exact error). Rounding to odd at 53 bits and then to nearest at
//                          p <= 51 bits is one correct rounding to p bits (Boldo and Melquiond,
//                          "Emulation of FMA and correctly-rounded sums: proved algorithms using
//                          rounding to odd", IEEE TC 57(4), 2008, Theorem 1), so a sum or an fma
//                          of narrow values rounds once although it passes through a double
// and narrow_float.h's products and quotients are rounded_ops.h's mul_rn and div_rn in double: a
// product of narrow values is exact there (at most 2 x 11 significant bits, exponents far inside
// double's range) and never contracted with a neighbouring sum by nvcc (__dmul_rn).
//
// Every operation is spelt with the *_rn intrinsics on the device, so nvcc's --fmad never fuses
// two of them and host and device give the same bits.
#pragma once

#include <cstdint>

#include "osvs/kernels/hd.h"
#include "osvs/kernels/rounded_ops.h"

namespace osvs {
namespace detail {

OSVS_HD bool is_finite_double(double x) {
  return ((double_bits(x) >> 52) & 0x7ffu) != 0x7ffu;
}

/// x + y rounded to odd at 53 bits (x, y finite or not; a NaN or an infinite sum as the double
/// sum gives it). TwoSum (Knuth) gives the exact error err = (x + y) - s; the doubles of narrow
/// values and their products are far from overflow, so it is exact here.
OSVS_HD double sum_to_odd(double x, double y) {
  const double s = add_rn(x, y);
  if (!is_finite_double(s)) return s;
  const double y_in_s = add_rn(s, -x);
  const double err = add_rn(add_rn(x, -add_rn(s, -y_in_s)), add_rn(y, -y_in_s));
  const std::uint64_t bits = double_bits(s);
  if (err == 0 || (bits & 1u)) return s;
  // s is even and inexact (so not 0): its odd neighbour toward x + y, one step of its magnitude.
  const bool away_from_zero = (err > 0) == (s > 0);
  return bits_double(away_from_zero ? bits + 1 : bits - 1);
}

/// x rounded to nearest even in the binary format of kExponentBits exponent bits and kPrecision
/// significand bits (the hidden one counted), with its subnormals; beyond its largest finite value
/// +-inf; a NaN gives `canonical_nan`. The format's bits, in the low kExponentBits + kPrecision
/// bits of the result.
template <int kExponentBits, int kPrecision>
OSVS_HD std::uint32_t round_to_narrow_bits(double x, std::uint32_t canonical_nan) {
  constexpr int kWidth = kExponentBits + kPrecision;
  constexpr int kBias = (1 << (kExponentBits - 1)) - 1;
  constexpr int kMinQuantum = 1 - kBias - (kPrecision - 1);  // the smallest subnormal's exponent
  constexpr std::uint32_t kInfinity = ((std::uint32_t{1} << kExponentBits) - 1) << (kPrecision - 1);
  const std::uint64_t u = double_bits(x);
  const std::uint32_t sign = (u >> 63) ? (std::uint32_t{1} << (kWidth - 1)) : 0u;
  const int biased = static_cast<int>((u >> 52) & 0x7ffu);
  const std::uint64_t fraction = u & ((std::uint64_t{1} << 52) - 1);
  if (biased == 0x7ff) return fraction != 0 ? canonical_nan : (sign | kInfinity);
  // Zero, and double subnormals: far below half the format's smallest subnormal, so zero.
  if (biased == 0) return sign;
  // |x| = significand 2^(e - 52), significand in [2^52, 2^53).
  const int e = biased - 1023;
  const std::uint64_t significand = (std::uint64_t{1} << 52) | fraction;
  // The result's quantum 2^q: its ulp in x's binade, or the subnormals' fixed quantum.
  int q = e - (kPrecision - 1);
  if (q < kMinQuantum) q = kMinQuantum;
  const int shift = q - (e - 52);  // low bits of the significand below the quantum: >= 42
  // |x| < 2^(e+1) <= 2^(q-1) = half the quantum once shift >= 54: rounds to zero.
  if (shift >= 54) return sign;
  std::uint64_t r = significand >> shift;
  const std::uint64_t rest = significand & ((std::uint64_t{1} << shift) - 1);
  const std::uint64_t half = std::uint64_t{1} << (shift - 1);
  if (rest > half || (rest == half && (r & 1u))) ++r;
  // |result| = r 2^q, r <= 2^kPrecision. The encoding ((q - kMinQuantum) << (p - 1)) + r holds for
  // a normal r in [2^(p-1), 2^p) (exponent field q - kMinQuantum + 1, hidden bit carried by r)
  // and for a subnormal one (q = kMinQuantum); r = 2^p carries into the next binade, and the
  // largest binade's carry gives the infinity's bits.
  if (r == (std::uint64_t{1} << kPrecision)) {
    r >>= 1;
    ++q;
  }
  const std::uint64_t magnitude =
      (static_cast<std::uint64_t>(q - kMinQuantum) << (kPrecision - 1)) + r;
  if (magnitude >= kInfinity) return sign | kInfinity;
  return sign | static_cast<std::uint32_t>(magnitude);
}

}  // namespace detail
}  // namespace osvs
