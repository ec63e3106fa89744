// The fp8 formats of dtype.h / dtype_bits.h (E4M3 = OCP's e4m3fn, E5M2) against an independent
// derivation: every one of the 256 patterns of each decoded by the formula of the OCP 8-bit
// floating point specification, (-1)^s (1 + m / 2^M) 2^(e - bias) for a normal, (-1)^s m / 2^M
// 2^(1 - bias) for a subnormal, computed in double; and float -> fp8 against the nearest of the
// 256 decoded values found by search, ties to the even pattern, with the value one step past the
// largest finite one (e4m3: 1.111b 2^8 = 480, whose pattern is the NaN; e5m2: 2^16, inf) as the
// overflow candidate (OCP's non-saturating conversion). Checked on every pattern both ways, on
// every midpoint between neighbours and the floats next to it, on the thresholds of overflow, and
// on a strided sample of all floats. Then dtype.h's functions on the formats.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "osvs/kernels/dtype.h"
#include "osvs/kernels/dtype_bits.h"

namespace osvs {
namespace {

struct Format {
  DType type;
  int exponent_bits, mantissa_bits, bias;
  bool has_inf;  ///< e5m2: S.11111.00 is +-inf; e4m3 has none
};

void PrintTo(const Format& f, std::ostream* os) {
  *os << to_string(f.type);
}

constexpr Format kE4M3{DType::E4M3, 4, 3, 7, false};
constexpr Format kE5M2{DType::E5M2, 5, 2, 15, true};

enum class Kind { Finite, Inf, NaN };

/// What pattern b means, by the specification's formula.
Kind kind_of(const Format& f, std::uint32_t b) {
  const std::uint32_t top = (1u << f.exponent_bits) - 1, m_all = (1u << f.mantissa_bits) - 1;
  const std::uint32_t e = (b >> f.mantissa_bits) & top, m = b & m_all;
  if (f.has_inf) return e != top ? Kind::Finite : m == 0 ? Kind::Inf : Kind::NaN;
  return e == top && m == m_all ? Kind::NaN : Kind::Finite;  // e4m3: one NaN pattern
}

double value_of(const Format& f, std::uint32_t b) {
  const double sign = (b & 0x80u) ? -1.0 : 1.0;
  if (kind_of(f, b) == Kind::Inf) return sign * INFINITY;
  const std::uint32_t e = (b >> f.mantissa_bits) & ((1u << f.exponent_bits) - 1);
  const double m = static_cast<double>(b & ((1u << f.mantissa_bits) - 1));
  const double fraction = std::ldexp(m, -f.mantissa_bits);
  if (e == 0) return sign * std::ldexp(fraction, 1 - f.bias);
  return sign * std::ldexp(1.0 + fraction, static_cast<int>(e) - f.bias);
}

float decoded(const Format& f, std::uint8_t b) {
  return f.type == DType::E4M3 ? float_of_e4m3_bits(b) : float_of_e5m2_bits(b);
}

unsigned encoded(const Format& f, float x) {
  return f.type == DType::E4M3 ? e4m3_bits_of(x) : e5m2_bits_of(x);
}

/// The largest finite value and the overflow candidate one step past it (the pattern after the
/// largest finite positive one, read as if its exponent were unbounded).
double largest(const Format& f) {
  double best = 0;
  for (std::uint32_t b = 0; b < 0x80; ++b)
    if (kind_of(f, b) == Kind::Finite) best = std::max(best, value_of(f, b));
  return best;
}
double past_largest(const Format& f) {
  return largest(f) + std::ldexp(1.0, std::ilogb(largest(f)) - f.mantissa_bits);
}

/// The finite positive values by pattern (0 ... the largest finite one), then the overflow
/// candidate: the reference conversion's candidates.
std::vector<double> candidates(const Format& f) {
  std::vector<double> out;
  for (std::uint32_t b = 0; b < 0x80 && kind_of(f, b) == Kind::Finite; ++b)
    out.push_back(value_of(f, b));
  out.push_back(past_largest(f));
  return out;
}

/// The reference conversion: NaN for NaN; else the nearest candidate to |x|, ties to the even
/// pattern (consecutive patterns alternate parity; the overflow candidate's parity is that of the
/// pattern after the largest finite one), overflow when the candidate wins or |x| lies beyond it;
/// the sign put back.
unsigned reference_bits(const Format& f, const std::vector<double>& values, float x) {
  const unsigned sign = std::signbit(x) ? 0x80 : 0;
  const unsigned nan = f.has_inf ? 0x7e : 0x7f, overflow = f.has_inf ? 0x7c : 0x7f;
  if (std::isnan(x)) return sign | nan;
  const double a = std::fabs(static_cast<double>(x));
  const auto past = static_cast<unsigned>(values.size() - 1);
  if (a > values.back()) return sign | overflow;
  unsigned best = 0;
  double best_distance = INFINITY;
  for (unsigned b = 0; b <= past; ++b) {
    const double d = std::fabs(a - values[b]);
    if (d < best_distance || (d == best_distance && (b & 1u) == 0)) best = b, best_distance = d;
  }
  return sign | (best == past ? overflow : best);
}
unsigned reference_bits(const Format& f, float x) {
  return reference_bits(f, candidates(f), x);
}

class Fp8 : public ::testing::TestWithParam<Format> {};

TEST_P(Fp8, EveryPatternDecodesByTheFormula) {
  const Format f = GetParam();
  int nans = 0, infs = 0;
  for (std::uint32_t b = 0; b < 256; ++b) {
    const float x = decoded(f, static_cast<std::uint8_t>(b));
    switch (kind_of(f, b)) {
      case Kind::NaN:
        ++nans;
        EXPECT_TRUE(std::isnan(x)) << b;
        EXPECT_EQ(std::signbit(x), (b & 0x80u) != 0) << b;
        break;
      case Kind::Inf:
        ++infs;
        [[fallthrough]];
      case Kind::Finite:
        EXPECT_EQ(static_cast<double>(x), value_of(f, b)) << b;  // (doubles: exact either way)
        EXPECT_EQ(std::signbit(x), (b & 0x80u) != 0) << b;       // -0 included
    }
  }
  // The formats' special patterns: e4m3 two NaNs (S.1111.111) and no inf; e5m2 two infs and six
  // NaNs.
  EXPECT_EQ(nans, f.has_inf ? 6 : 2);
  EXPECT_EQ(infs, f.has_inf ? 2 : 0);
}

TEST_P(Fp8, EveryPatternEncodesBackToItself) {
  const Format f = GetParam();
  for (std::uint32_t b = 0; b < 256; ++b) {
    const auto bits = static_cast<std::uint8_t>(b);
    const float x = decoded(f, bits);
    if (kind_of(f, b) == Kind::NaN) {
      EXPECT_EQ(kind_of(f, encoded(f, x)), Kind::NaN) << b;
      continue;
    }
    EXPECT_EQ(encoded(f, x), b) << b;
    EXPECT_EQ(encoded(f, x), reference_bits(f, x)) << b;
  }
}

TEST_P(Fp8, MidpointsRoundToEvenAndTheirNeighboursToTheNearer) {
  const Format f = GetParam();
  int ties = 0;
  for (std::uint32_t b = 0; b + 1 < 0x80; ++b) {
    if (kind_of(f, b + 1) != Kind::Finite) break;
    const double lo = value_of(f, b), hi = value_of(f, b + 1);
    const auto mid = static_cast<float>((lo + hi) / 2);  // exact: at most mantissa + 2 bits
    ASSERT_EQ(static_cast<double>(mid), (lo + hi) / 2);
    for (const float sign : {1.0f, -1.0f}) {
      const float tie = sign * mid;
      const unsigned s = sign < 0 ? 0x80 : 0;
      EXPECT_EQ(encoded(f, tie), s | ((b & 1u) == 0 ? b : b + 1)) << std::hexfloat << tie;
      EXPECT_EQ(encoded(f, std::nextafter(tie, 0.0f)), s | b) << std::hexfloat << tie;
      EXPECT_EQ(encoded(f, std::nextafter(tie, sign * INFINITY)), s | (b + 1))
          << std::hexfloat << tie;
      for (const float x : {tie, std::nextafter(tie, 0.0f), std::nextafter(tie, sign * INFINITY)})
        EXPECT_EQ(encoded(f, x), reference_bits(f, x)) << std::hexfloat << x;
      ++ties;
    }
  }
  // Every pair of neighbouring finite patterns of each sign: e4m3's 0x00 ... 0x7e, e5m2's
  // 0x00 ... 0x7b.
  EXPECT_EQ(ties, f.has_inf ? 2 * 123 : 2 * 126);
}

TEST_P(Fp8, OverflowIsNonSaturating) {
  const Format f = GetParam();
  const auto top = static_cast<float>(largest(f));
  const auto threshold = static_cast<float>((largest(f) + past_largest(f)) / 2);
  const unsigned max_bits = encoded(f, top), overflow = f.has_inf ? 0x7c : 0x7f;
  EXPECT_EQ(top, f.has_inf ? 57344.0f : 448.0f);
  EXPECT_EQ(threshold, f.has_inf ? 61440.0f : 464.0f);
  // The tie between the largest value and the one past it goes to the even pattern: e4m3's
  // largest (1.110b) is even, e5m2's (1.11b) odd, so 464 -> 448 but 61440 -> inf.
  EXPECT_EQ(encoded(f, threshold), f.has_inf ? overflow : max_bits);
  EXPECT_EQ(encoded(f, std::nextafter(threshold, 0.0f)), max_bits);
  EXPECT_EQ(encoded(f, std::nextafter(threshold, INFINITY)), overflow);
  for (const float big :
       {static_cast<float>(past_largest(f)), 1e30f, std::numeric_limits<float>::max(), INFINITY}) {
    EXPECT_EQ(encoded(f, big), overflow) << big;
    EXPECT_EQ(encoded(f, -big), 0x80u | overflow) << big;
  }
  EXPECT_EQ(kind_of(f, overflow), f.has_inf ? Kind::Inf : Kind::NaN);
}

TEST_P(Fp8, UnderflowRoundsToZeroOrTheSmallestSubnormal) {
  const Format f = GetParam();
  const float tiny = std::ldexp(1.0f, 1 - f.bias - f.mantissa_bits);  // the smallest subnormal
  EXPECT_EQ(encoded(f, tiny), 0x01u);
  EXPECT_EQ(encoded(f, tiny / 2), 0x00u);  // the tie with 0: to the even 0
  EXPECT_EQ(encoded(f, -tiny / 2), 0x80u);
  EXPECT_EQ(encoded(f, std::nextafter(tiny / 2, 1.0f)), 0x01u);
  EXPECT_EQ(encoded(f, std::numeric_limits<float>::denorm_min()), 0x00u);
  EXPECT_EQ(encoded(f, -0.0f), 0x80u);
}

TEST_P(Fp8, StridedFloatsRoundLikeTheReference) {
  const Format f = GetParam();
  const std::vector<double> values = candidates(f);
  int checked = 0;
  // Every 8191st float (about half a million): all binades and signs, NaNs and infinities.
  for (std::uint64_t u = 0; u < (std::uint64_t{1} << 32); u += 8191) {
    const float x = bits_float(static_cast<std::uint32_t>(u));
    const unsigned got = encoded(f, x), want = reference_bits(f, values, x);
    if (std::isnan(x)) {
      ASSERT_EQ(kind_of(f, got), Kind::NaN) << std::hexfloat << x;
      ASSERT_EQ(got & 0x80u, want & 0x80u) << std::hexfloat << x;
      continue;
    }
    ASSERT_EQ(got, want) << std::hexfloat << x;
    ++checked;
  }
  EXPECT_GT(checked, 500000);
}

TEST_P(Fp8, TheDtypeFunctionsAgree) {
  const Format f = GetParam();
  const DType t = f.type;
  EXPECT_TRUE(is_fp8(t));
  EXPECT_FALSE(is_integer(t));
  EXPECT_EQ(size_of(t), 1u);
  EXPECT_EQ(precision_of(t), f.mantissa_bits + 1);
  EXPECT_EQ(min_exponent_of(t), 1 - f.bias);
  EXPECT_EQ(static_cast<double>(max_finite_of(t)), largest(f));
  EXPECT_EQ(parse_dtype(to_string(t)), t);
  // store_as / load_from: every pattern through the byte array and back.
  std::vector<std::uint8_t> patterns(256), again(256);
  for (std::uint32_t b = 0; b < 256; ++b) patterns[b] = static_cast<std::uint8_t>(b);
  std::vector<float> values(256);
  load_from(t, patterns.data(), values.data(), 256);
  store_as(t, values.data(), again.data(), 256);
  for (std::uint32_t b = 0; b < 256; ++b) {
    const float x = values[b];
    EXPECT_EQ(float_bits(x), float_bits(decoded(f, static_cast<std::uint8_t>(b)))) << b;
    EXPECT_TRUE(is_value_of(t, x)) << b;
    if (std::isnan(x)) continue;
    EXPECT_EQ(unsigned{again[b]}, b);
    EXPECT_EQ(float_bits(round_to(t, x)), float_bits(x)) << b;
    // The next float up is no value of the format (4 or 3 significant bits) unless x is inf.
    if (std::isfinite(x)) {
      EXPECT_FALSE(is_value_of(t, std::nextafter(x, INFINITY))) << b;
    }
  }
  // NaNs: e4m3's one NaN decodes to the quiet NaN of its sign, which alone is its value; e5m2
  // keeps a payload that fits its two mantissa bits.
  EXPECT_TRUE(is_value_of(t, bits_float(0x7fc00000u)));
  EXPECT_EQ(is_value_of(t, bits_float(0x7fe00000u)), f.has_inf);
  EXPECT_FALSE(is_value_of(t, bits_float(0x7fc00001u)));
  EXPECT_TRUE(std::isnan(round_to(t, NAN)));
  EXPECT_EQ(float_bits(round_to(t, 1.0f + 0x1p-10f)), float_bits(1.0f));
}

INSTANTIATE_TEST_SUITE_P(Formats, Fp8, ::testing::Values(kE4M3, kE5M2),
                         [](const ::testing::TestParamInfo<Format>& info) {
                           return std::string(info.param.type == DType::E4M3 ? "E4M3" : "E5M2");
                         });

// A value outside the DType enum (a corrupt file, a bad cast) is refused, not stored as some
// other type's layout.
TEST(DTypeStorage, AValueOutsideTheEnumIsRefused) {
  const auto not_a_type = static_cast<DType>(250);
  float values[2] = {1, 2};
  unsigned char bytes[16] = {};
  EXPECT_THROW(store_as(not_a_type, values, bytes, 2), std::invalid_argument);
  EXPECT_THROW(load_from(not_a_type, bytes, values, 2), std::invalid_argument);
}

}  // namespace
}  // namespace osvs
