// Implementation of gen/floats.h.
#pragma once

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

#include "osvs/properties/gen/domain.h"

namespace osvs::gen {

namespace detail {

inline std::uint32_t bits_of(float x) {
  return std::bit_cast<std::uint32_t>(x);
}

/// Number of significant bits of a finite float (0 for zeros).
inline int significant_bits(float x) {
  const std::uint32_t u = bits_of(x) & 0x7fffffffu;
  if (u == 0) return 0;
  const bool subnormal = (u >> 23) == 0;
  std::uint32_t mant = (u & 0x7fffffu) | (subnormal ? 0u : 0x800000u);
  int width = 32 - __builtin_clz(mant);
  return width - __builtin_ctz(mant);
}

/// x with its significand cut to `bits` significant bits (toward zero); x finite, nonzero.
inline float keep_bits(float x, int bits) {
  int e;
  const double f = std::frexp(static_cast<double>(x), &e);  // exact: |f| in [0.5, 1)
  const double scaled = std::trunc(std::ldexp(f, bits));    // exact: fits in 24 bits
  return static_cast<float>(std::ldexp(scaled, e - bits));  // exact: fewer bits than x
}

}  // namespace detail

inline int float_complexity(float x) {
  if (std::isnan(x)) return 3'000'000;
  if (std::isinf(x)) return 2'000'000 + (x < 0);
  if (x == 0) return std::signbit(x) ? 1 : 0;
  int e;
  std::frexp(x, &e);
  return 1000 * detail::significant_bits(x) + 2 * std::abs(e - 1) + (x < 0) + 2;
}

inline rc::Seq<float> shrink_float(float x) {
  std::vector<float> cand = {0.0f, 1.0f, -1.0f, 2.0f};
  if (std::isinf(x)) {
    cand.push_back(std::copysign(FLT_MAX, x));
  } else if (std::isfinite(x) && x != 0) {
    cand.push_back(-x);
    cand.push_back(std::trunc(x));
    for (int bits = 1; bits < detail::significant_bits(x); bits *= 2)
      cand.push_back(detail::keep_bits(x, bits));
    cand.push_back(x * 0.5f);
    cand.push_back(x * 2.0f);
  }
  const int cx = float_complexity(x);
  std::vector<float> out;
  for (float c : cand) {
    const bool seen = std::find_if(out.begin(), out.end(), [&](float o) {
                        return detail::bits_of(o) == detail::bits_of(c);
                      }) != out.end();
    if (!seen && float_complexity(c) < cx) out.push_back(c);
  }
  return rc::seq::fromContainer(std::move(out));
}

inline rc::Gen<float> simple_shrinking(rc::Gen<float> g) {
  return rc::Gen<float>([g](const rc::Random& random, int size) {
    return rc::shrinkable::shrinkRecur(g(random, size).value(), &shrink_float);
  });
}

inline const std::vector<float>& nasty_constants() {
  static const std::vector<float> pool(kSpecialFloats.begin(), kSpecialFloats.end());
  return pool;
}

inline rc::Gen<float> normal_float(float sigma) {
  return rc::gen::map(rc::gen::pair(rc::gen::inRange<std::uint32_t>(1, 1u << 31),
                                    rc::gen::arbitrary<std::uint32_t>()),
                      [sigma](std::pair<std::uint32_t, std::uint32_t> uv) {
                        const double u1 = uv.first / 2147483648.0;  // (0, 1]
                        const double u2 = uv.second / 4294967296.0;
                        const double z = std::sqrt(-2.0 * std::log(u1)) *
                                         std::cos(2.0 * M_PI * u2);  // Box-Muller
                        return static_cast<float>(sigma * z);
                      });
}

inline rc::Gen<float> fp16_exact_float() {
  return rc::gen::map(rc::gen::arbitrary<std::uint16_t>(), [](std::uint16_t h) {
    constexpr std::uint16_t kExponent = 0x7c00, kExponentLowBit = 0x0400;
    if ((h & kExponent) == kExponent) h &= ~kExponentLowBit;  // inf/NaN onto the top binade
    return half_to_float(h);
  });
}

inline rc::Gen<float> bf16_exact_float() {
  return rc::gen::map(rc::gen::arbitrary<std::uint16_t>(), [](std::uint16_t b) {
    constexpr std::uint16_t kExponent = 0x7f80, kExponentHighBit = 0x4000;
    if ((b & kExponent) == kExponent) b &= ~kExponentHighBit;  // no inf/NaN: drop a bit
    return bf16_to_float(b);
  });
}

inline rc::Gen<float> grid_float() {
  return rc::gen::map(rc::gen::inRange(-(1 << 15) + 1, 1 << 15),
                      [](int k) { return static_cast<float>(k) / 256.0f; });  // exact
}

namespace detail {

inline rc::Gen<float> ln2_multiple() {
  return rc::gen::map(rc::gen::inRange(-150, 129),
                      [](int k) { return static_cast<float>(k * 0.6931471805599453); });
}

inline rc::Gen<float> small_integer() {
  return rc::gen::map(rc::gen::inRange(-1000, 1001), [](int k) { return static_cast<float>(k); });
}

inline rc::Gen<float> subnormal() {
  return rc::gen::map(
      rc::gen::pair(rc::gen::inRange<std::uint32_t>(1, 1u << 23), rc::gen::arbitrary<bool>()),
      [](std::pair<std::uint32_t, bool> p) {
        return float_from_bits(p.first | (p.second ? 0x80000000u : 0u));
      });
}

inline rc::Gen<float> raw_bits() {
  return rc::gen::map(rc::gen::arbitrary<std::uint32_t>(), &float_from_bits);
}

inline rc::Gen<float> finite_constant() {
  std::vector<float> finite;
  for (float c : nasty_constants())
    if (std::isfinite(c)) finite.push_back(c);
  return rc::gen::elementOf(finite);
}

/// The weight of each class of floats in a mixture (0 leaves the class out).
struct FloatWeights {
  std::size_t constants, finite_constants, fp16_exact, bf16_exact, ln2_multiples, small_integers,
      subnormals, normal_1, normal_10, normal_100, raw_bits;
};

/// any_float's: every class, non-finite constants and raw bits (NaNs, infinities) included.
inline constexpr FloatWeights kAnyFloatWeights{6, 0, 3, 2, 2, 3, 2, 3, 3, 3, 2};
/// finite_float's: the finite constants for all of them, no raw bits.
inline constexpr FloatWeights kFiniteFloatWeights{0, 4, 3, 2, 2, 3, 1, 4, 4, 3, 0};

/// The classes mixed with weights w, shrinking simply (a class of weight 0 is never drawn, and
/// the draws are those of the list without it).
inline rc::Gen<float> float_mixture(const FloatWeights& w) {
  return simple_shrinking(rc::gen::weightedOneOf<float>({
      {w.constants, rc::gen::elementOf(nasty_constants())},
      {w.finite_constants, finite_constant()},
      {w.fp16_exact, fp16_exact_float()},
      {w.bf16_exact, bf16_exact_float()},
      {w.ln2_multiples, ln2_multiple()},
      {w.small_integers, small_integer()},
      {w.subnormals, subnormal()},
      {w.normal_1, normal_float(1.0f)},
      {w.normal_10, normal_float(10.0f)},
      {w.normal_100, normal_float(100.0f)},
      {w.raw_bits, raw_bits()},
  }));
}

}  // namespace detail

inline rc::Gen<float> any_float() {
  return detail::float_mixture(detail::kAnyFloatWeights);
}

inline rc::Gen<float> finite_float() {
  return detail::float_mixture(detail::kFiniteFloatWeights);
}

inline const char* float_class(float x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "+inf" : "-inf";
  if (x == 0) return std::signbit(x) ? "-0" : "+0";
  if (std::fabs(x) < FLT_MIN) return "subnormal";
  if (std::fabs(x) == FLT_MAX) return "±FLT_MAX";
  return "normal";
}

}  // namespace osvs::gen
