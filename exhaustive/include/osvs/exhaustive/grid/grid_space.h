// The finite grid of combine inputs (exhaustive/README.md, "The combine grid"): which states the
// grid holds, how a pair index names two of them, and the classes the report sorts them into.
// Host and device code (the CPU model and the GPU run generate the same pairs from the index).
//
//   m     every bf16 bit pattern p as the float of bits p << 16: 65536 values, +-0, subnormals,
//         +-inf and 256 NaN patterns (quiet and signalling, both signs) included.
//   d     seven values chosen to hit each regime of the combine's arithmetic:
//           +0             an empty side: d * e must vanish exactly
//           2^-149         the smallest subnormal: products underflow, roundings are absolute
//           1              a lifted element
//           0x1.fffffep+0  every mantissa bit set: products and sums round
//           FLT_MAX        the overflow edge: two of them sum past FLT_MAX
//           +inf, NaN      outside every bounded law; the exact laws still see them
//   pairs index i < 2^32 names m1 = bf16(i >> 16), m2 = bf16(i & 0xffff); pass r gives it the
//         d pair k = (i + r) mod 49, d1 = D[k / 7], d2 = D[k % 7]. Within one pass, each row of
//         fixed m1 runs through all 49 d pairs about 1337 times (65536 = 49 * 1337 + 23), so one
//         pass covers every (m1, d1, d2) and every (m2, d1, d2); the 49 passes r = 0..48 together
//         give every (m1, m2) every d pair: 49 * 2^32 pairs.
//   states  index s < 65536 * 7 names (bf16(s / 7), D[s % 7]): every m with every d, the domain
//         of the identity laws.
#pragma once

#include <cfloat>
#include <cstdint>

#include "osvs/kernels/hd.h"
#include "osvs/kernels/state.h"

namespace osvs::exhaustive::grid {

inline constexpr int kDValues = 7;
inline constexpr int kDPairs = kDValues * kDValues;  ///< 49: passes that give every pair every d
inline constexpr std::uint64_t kBf16Patterns = std::uint64_t{1} << 16;
inline constexpr std::uint64_t kGridPairs = kBf16Patterns * kBf16Patterns;  ///< per pass
inline constexpr std::uint64_t kGridStates = kBf16Patterns * kDValues;

/// The d value number k (0 <= k < kDValues), in the order of the table above.
OSVS_HD float d_value(int k) {
  switch (k) {
    case 0:
      return 0.0f;
    case 1:
      return bits_float(0x00000001u);  // 2^-149
    case 2:
      return 1.0f;
    case 3:
      return bits_float(0x3fffffffu);  // 0x1.fffffep+0
    case 4:
      return FLT_MAX;
    case 5:
      return __builtin_huge_valf();
    default:
      return canonical_nan();
  }
}

/// The float of the bf16 bit pattern p (exact: bf16 is the upper half of a binary32).
OSVS_HD float bf16_float(std::uint32_t p) {
  return bits_float(p << 16);
}

struct GridPair {
  State a, b;
  int d1, d2;  ///< numbers of a.d and b.d in the d table
};

/// (i + pass) mod 49 for i < 2^32 in 32-bit arithmetic (a 64-bit remainder is a long emulated
/// sequence on the GPU): i = hi 2^16 + lo and 2^16 = 23 (mod 49).
OSVS_HD int d_pair_of(std::uint64_t i, std::uint32_t pass) {
  constexpr std::uint32_t kRowShift = kBf16Patterns % kDPairs;  // 23
  const auto hi = static_cast<std::uint32_t>(i >> 16), lo = static_cast<std::uint32_t>(i & 0xffffu);
  return static_cast<int>((hi * kRowShift + lo + pass) % kDPairs);  // < 2^21 + 2^16 + 49: no wrap
}

/// The pair of index i < 2^32 in pass r.
OSVS_HD GridPair grid_pair(std::uint64_t i, std::uint32_t pass) {
  const int k = d_pair_of(i, pass);
  const int d1 = k / kDValues, d2 = k % kDValues;
  return {State{bf16_float(static_cast<std::uint32_t>(i >> 16)), d_value(d1)},
          State{bf16_float(static_cast<std::uint32_t>(i & 0xffffu)), d_value(d2)}, d1, d2};
}

struct GridState {
  State s;
  int d;  ///< number of s.d in the d table
};

/// The state of index s < kGridStates.
OSVS_HD GridState grid_state(std::uint64_t s) {
  const int d = static_cast<int>(s % kDValues);
  return {State{bf16_float(static_cast<std::uint32_t>(s / kDValues)), d_value(d)}, d};
}

// ---- classes (the report's classification of counterexamples) ----

inline constexpr int kMClasses = 6;
/// m's class: 0 NaN, 1 +inf, 2 -inf, 3 +-0, 4 subnormal, 5 normal.
OSVS_HD int m_class(float m) {
  if (m != m) return 0;
  if (m == __builtin_huge_valf()) return 1;
  if (m == -__builtin_huge_valf()) return 2;
  if (m == 0.0f) return 3;
  if (m > -FLT_MIN && m < FLT_MIN) return 4;
  return 5;
}

/// Number of classification keys: (class m1, class m2, d1, d2). A state law uses (class m, d).
inline constexpr int kPairKeys = kMClasses * kMClasses * kDPairs;
OSVS_HD int pair_key(const GridPair& p) {
  return ((m_class(p.a.m) * kMClasses + m_class(p.b.m)) * kDValues + p.d1) * kDValues + p.d2;
}
OSVS_HD int state_key(const GridState& g) {
  return m_class(g.s.m) * kDValues + g.d;
}

// ---- domains ----

/// A state a reduction can hold (properties' well_formed_state, gen/states.h): m not NaN, d >= 0
/// or +inf, m = -inf only in the identity (-inf, 0); or the canonical NaN state (NaN, NaN) that
/// the hardened combine produces. The exact laws are claimed on these.
OSVS_HD bool well_formed(State s) {
  if (float_bits(s.m) == 0x7fc00000u && float_bits(s.d) == 0x7fc00000u) return true;
  if (s.m != s.m || !(s.d >= 0.0f)) return false;
  return s.m != -__builtin_huge_valf() || s.d == 0.0f;
}

/// The domain of the one-step bound (one_step_bound.h): both m finite or -inf, not both -inf
/// (then m and every exp argument are defined), both d finite and >= 0.
OSVS_HD bool in_bound_domain(State a, State b) {
  const float inf = __builtin_huge_valf();
  const bool ms =
      a.m == a.m && b.m == b.m && a.m != inf && b.m != inf && !(a.m == -inf && b.m == -inf);
  return ms && a.d >= 0.0f && a.d < inf && b.d >= 0.0f && b.d < inf;
}

/// The stand-in identity (-FLT_MAX, 0) is claimed for well-formed states with finite m.
OSVS_HD bool in_finite_identity_domain(State s) {
  return well_formed(s) && s.m == s.m && s.m > -__builtin_huge_valf() &&
         s.m < __builtin_huge_valf();
}

}  // namespace osvs::exhaustive::grid
