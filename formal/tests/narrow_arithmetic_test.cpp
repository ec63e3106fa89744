// The concrete arithmetic of a bf16 / fp16 counterexample (kernels' Narrow, narrow_float.h) is
// correctly rounded: every + - * / and fma of values of the format equals MPFR's exact result
// rounded once to the format (rounded_in_format: its precision, exponent range and subnormals),
// on operands drawn from every binade of the format, signs, zeros, infinities and subnormals
// included, so that sums far apart (where a sum rounded to nearest in double would round twice)
// and quotients are covered. A NaN result is the format's canonical NaN (the proofs leave a
// computed NaN's bits free, so any NaN reproduces).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>

#include "osvs/formal/correctly_rounded.h"
#include "osvs/formal/format.h"
#include "osvs/kernels/hex.h"
#include "osvs/kernels/narrow_float.h"

namespace osvs::formal {
namespace {

enum class Op { Add, Sub, Mul, Div, Fma };

/// MPFR's x op y (or fma(x, y, z)) into `out`, rounded as `rnd` says: its ternary value.
int exact_operation(Op op, mpfr_ptr out, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr z,
                    mpfr_rnd_t rnd) {
  switch (op) {
    case Op::Add:
      return mpfr_add(out, x, y, rnd);
    case Op::Sub:
      return mpfr_sub(out, x, y, rnd);
    case Op::Mul:
      return mpfr_mul(out, x, y, rnd);
    case Op::Div:
      return mpfr_div(out, x, y, rnd);
    case Op::Fma:
      return mpfr_fma(out, x, y, z, rnd);
  }
  throw std::logic_error("exact_operation: not an operation");
}

/// MPFR's a op b (or fma(a, b, c)) rounded to the format: the inputs are exact at 24 bits.
float reference(const Format& f, Op op, float a, float b, float c) {
  return rounded_in_format(f, [&](mpfr_ptr out, mpfr_rnd_t rnd) {
    mpfr_t x, y, z;
    mpfr_inits2(24, x, y, z, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_flt(x, a, MPFR_RNDN);
    mpfr_set_flt(y, b, MPFR_RNDN);
    mpfr_set_flt(z, c, MPFR_RNDN);
    const int inexact = exact_operation(op, out, x, y, z, rnd);
    mpfr_clears(x, y, z, static_cast<mpfr_ptr>(nullptr));
    return inexact;
  });
}

template <DType T>
Narrow<T> apply(Op op, Narrow<T> a, Narrow<T> b, Narrow<T> c) {
  switch (op) {
    case Op::Add:
      return a + b;
    case Op::Sub:
      return a - b;
    case Op::Mul:
      return a * b;
    case Op::Div:
      return a / b;
    case Op::Fma:
      return fused_mul_add(a, b, c);
  }
  return a;
}

/// A value of T from uniform bits (NaNs redrawn: the arithmetic's NaN is checked apart), or from
/// a few chosen ones (zeros, infinities, the smallest subnormal, the largest finite value).
template <DType T>
Narrow<T> any_value(std::mt19937& rng) {
  constexpr int kWidth = NarrowFormat<T>::kExponentBits + NarrowFormat<T>::kPrecision;
  const std::uint32_t sign = std::uint32_t{1} << (kWidth - 1);
  const std::uint32_t infinity = Narrow<T>(__builtin_huge_valf()).bits();
  const std::uint32_t chosen[] = {
      0u, sign, infinity, infinity | sign, 1u, infinity - 1, (infinity - 1) | sign};
  if (rng() % 8 == 0) return Narrow<T>::from_bits(chosen[rng() % 7]);
  std::uniform_int_distribution<std::uint32_t> bits(0, (1u << kWidth) - 1);
  for (;;) {
    const Narrow<T> x = Narrow<T>::from_bits(bits(rng));
    if (!std::isnan(x.value())) return x;
  }
}

template <DType T>
void expect_correctly_rounded(const Format& f) {
  std::mt19937 rng(20261206);
  const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Fma};
  const char* names[] = {"+", "-", "*", "/", "fma"};
  int checked = 0, nan_results = 0;
  for (int i = 0; i < 60000; ++i) {
    const Narrow<T> a = any_value<T>(rng), b = any_value<T>(rng), c = any_value<T>(rng);
    for (int k = 0; k < 5; ++k) {
      const Narrow<T> got = apply<T>(ops[k], a, b, c);
      const float want = reference(f, ops[k], a.value(), b.value(), c.value());
      ++checked;
      if (std::isnan(want)) {
        ++nan_results;
        EXPECT_EQ(got.bits(), f.canonical_nan_bits()) << names[k];
        continue;
      }
      ASSERT_EQ(got.bits(), f.bits_of(want))
          << f.name << " " << names[k] << "(" << hex(a.value()) << ", " << hex(b.value())
          << (ops[k] == Op::Fma ? ", " + hex(c.value()) : std::string())
          << "): " << hex(got.value()) << " instead of " << hex(want);
    }
  }
  EXPECT_EQ(checked, 300000);
  EXPECT_GT(nan_results, 0);  // inf - inf, 0 * inf, 0 / 0 were met
}

TEST(NarrowArithmetic, EveryOperationIsCorrectlyRoundedInBf16) {
  expect_correctly_rounded<DType::BF16>(kBf16);
}

TEST(NarrowArithmetic, EveryOperationIsCorrectlyRoundedInFp16) {
  expect_correctly_rounded<DType::F16>(kFp16);
}

}  // namespace
}  // namespace osvs::formal
