// Host/device portability helpers shared by every kernel header.
//
// Everything in kernels/include is compiled twice: by nvcc for the device (the code under test) and
// by the host compiler for the CPU model. OSVS_HD marks functions that must exist on both sides.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define OSVS_HD __host__ __device__ __forceinline__
#else
#define OSVS_HD inline
#endif

namespace osvs {

namespace detail {
/// The bits of `from` as a To of the same size, identically on host and device (a memcpy, which
/// breaks no aliasing rule; nvcc makes it a register move, as __float_as_int and its kin).
template <class To, class From>
OSVS_HD To same_bits_as(From from) {
  static_assert(sizeof(To) == sizeof(From), "a reinterpretation keeps the size");
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}
}  // namespace detail

/// Reinterprets the bits of a float, identically on host and device.
OSVS_HD std::uint32_t float_bits(float x) {
  return detail::same_bits_as<std::uint32_t>(x);
}

/// Builds a float from its bits, identically on host and device.
OSVS_HD float bits_float(std::uint32_t u) {
  return detail::same_bits_as<float>(u);
}

/// The bits of a double and back, identically on host and device.
OSVS_HD std::uint64_t double_bits(double x) {
  return detail::same_bits_as<std::uint64_t>(x);
}
OSVS_HD double bits_double(std::uint64_t u) {
  return detail::same_bits_as<double>(u);
}

/// The canonical quiet NaN (sign clear, no payload) that hardened code returns, so that results
/// are bitwise reproducible whichever operand carried the NaN.
OSVS_HD float canonical_nan() {
  return bits_float(0x7fc00000u);
}

/// |x| (clears the sign bit; on the device an operand modifier of the instruction that uses it).
OSVS_HD float abs_f(float x) {
#if defined(__CUDA_ARCH__)
  return fabsf(x);
#else
  return bits_float(float_bits(x) & 0x7fffffffu);
#endif
}

/// F is float; formal/ instantiates it with a symbolic scalar (formal/README.md).
template <class F>
OSVS_HD bool is_nan(F x) {
  return x != x;
}

/// True when a or b is NaN (one unordered compare on the device). F as for is_nan.
template <class F>
OSVS_HD bool unordered(F a, F b) {
  return !(a == a && b == b);
}

}  // namespace osvs
