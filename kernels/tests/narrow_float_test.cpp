// Narrow<T> (narrow_float.h): its one rounding against the definition (the nearest value of the
// format, ties to even bits, found by search among all the format's values), its arithmetic where
// the exact result is known, and the executors' combine_pairs_in on bf16 / fp16 states. The
// correct rounding of every operation, division and far-apart sums included, is checked against
// MPFR in formal/tests/narrow_arithmetic_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "expect_refused.h"
#include "osvs/kernels/combine_operator.h"
#include "osvs/kernels/executor.h"
#include "osvs/kernels/hex.h"
#include "osvs/kernels/narrow_float.h"

namespace osvs {
namespace {

/// Every finite value of T >= 0 in the order of its bits (0 .. the largest finite): the format's
/// positive values are increasing in their bits, so a value's index is its bits.
template <DType T>
std::vector<double> positive_values() {
  std::vector<double> v;
  for (std::uint32_t bits = 0;; ++bits) {
    const float x = NarrowFormat<T>::value_of(bits);
    if (std::isinf(x)) break;
    v.push_back(x);
  }
  return v;
}

/// The definition of round to nearest even: the two values of T around |x| (the one past the
/// largest finite being 2^(emax + 1), whose bits are the infinity's), the nearer one, on a tie the
/// one with even bits. The midpoint of two neighbours has one bit more than T: exact in double.
template <DType T>
std::uint32_t nearest_even_bits(const std::vector<double>& values, double x) {
  constexpr int kWidth = NarrowFormat<T>::kExponentBits + NarrowFormat<T>::kPrecision;
  const std::uint32_t sign = std::signbit(x) ? (std::uint32_t{1} << (kWidth - 1)) : 0u;
  const double ax = std::fabs(x);
  const auto above = std::upper_bound(values.begin(), values.end(), ax);
  const auto lo = static_cast<std::uint32_t>(above - values.begin() - 1);
  if (values[lo] == ax) return sign | lo;
  const double largest = values.back();
  const double next =
      lo + 1 < values.size() ? values[lo + 1] : largest + (largest - values[values.size() - 2]);
  const double mid = (values[lo] + next) / 2;
  if (ax < mid) return sign | lo;
  if (ax > mid) return sign | (lo + 1);
  return sign | ((lo & 1u) ? lo + 1 : lo);
}

template <DType T>
std::uint32_t rounded_bits(double x) {
  return Narrow<T>::rounded(x).bits();
}

/// Doubles spread over 2^lo_exp .. 2^hi_exp with random 53-bit significands and signs, plus each
/// midpoint of two neighbouring values of T and the doubles next to it.
template <DType T>
std::vector<double> rounding_inputs(const std::vector<double>& values, int lo_exp, int hi_exp) {
  std::mt19937_64 rng(20261207);
  std::uniform_int_distribution<int> exponent(lo_exp, hi_exp);
  std::uniform_real_distribution<double> significand(1.0, 2.0);
  std::vector<double> in;
  for (int i = 0; i < 200000; ++i) {
    const double x = std::ldexp(significand(rng), exponent(rng));
    in.push_back((rng() & 1u) ? -x : x);
  }
  for (std::size_t i = 0; i + 1 < values.size(); i += 7) {
    const double mid = (values[i] + values[i + 1]) / 2;
    for (double x : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e300)}) {
      in.push_back(x);
      in.push_back(-x);
    }
  }
  return in;
}

template <DType T>
void expect_rounding_is_nearest_even(int lo_exp, int hi_exp) {
  const std::vector<double> values = positive_values<T>();
  int checked = 0;
  for (double x : rounding_inputs<T>(values, lo_exp, hi_exp)) {
    ASSERT_EQ(rounded_bits<T>(x), nearest_even_bits<T>(values, x)) << to_string(T) << " " << hex(x);
    ++checked;
  }
  EXPECT_GT(checked, 200000);
}

TEST(NarrowRounding, IsRoundToNearestEvenInBf16) {
  // bf16: subnormals from 2^-133, the largest finite below 2^128.
  expect_rounding_is_nearest_even<DType::BF16>(-140, 130);
}

TEST(NarrowRounding, IsRoundToNearestEvenInFp16) {
  // fp16: subnormals from 2^-24, the largest finite 65504.
  expect_rounding_is_nearest_even<DType::F16>(-30, 18);
}

TEST(NarrowRounding, SpecialValues) {
  using B = Narrow<DType::BF16>;
  using H = Narrow<DType::F16>;
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(B::rounded(0.0).bits(), 0x0000u);
  EXPECT_EQ(B::rounded(-0.0).bits(), 0x8000u);
  EXPECT_EQ(B::rounded(inf).bits(), 0x7f80u);
  EXPECT_EQ(H::rounded(-inf).bits(), 0xfc00u);
  // A NaN result is the format's canonical NaN: canonical_nan() (0x7fc00000) converted.
  EXPECT_EQ(B::rounded(std::nan("")).bits(), 0x7fc0u);
  EXPECT_EQ(H::rounded(-std::nan("")).bits(), 0x7e00u);
  // Below half the smallest subnormal: zero, sign kept (bf16 2^-133, fp16 2^-24).
  EXPECT_EQ(B::rounded(-0x1p-135).bits(), 0x8000u);
  EXPECT_EQ(H::rounded(0x1p-26).bits(), 0x0000u);
  // Past the largest finite value plus half its ulp: infinity (fp16 65504 + 16 = 65520).
  EXPECT_EQ(H::rounded(65520.0).bits(), 0x7c00u);
  EXPECT_EQ(H::rounded(65519.99).bits(), 0x7bffu);
}

/// Random values of T with exponents in [-e, e] (sign random), as Narrow.
template <DType T>
std::vector<Narrow<T>> random_values(std::size_t n, int e, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> exponent(-e, e);
  std::uniform_real_distribution<float> significand(1.0f, 2.0f);
  std::vector<Narrow<T>> out;
  for (std::size_t i = 0; i < n; ++i) {
    const float x = std::ldexp(significand(rng), exponent(rng));
    out.push_back(Narrow<T>((rng() & 1u) ? -x : x));  // rounded to T
  }
  return out;
}

// Values with exponents in [-4, 4]: a sum, a product and an fma of them is exact in double (the
// exact fma spans at most 2^10 down to 2^-28, 38 bits), so each is that double rounded once.
template <DType T>
void expect_exact_operations_rounded_once() {
  const std::vector<double> values = positive_values<T>();
  const auto a = random_values<T>(20000, 4, 1), b = random_values<T>(20000, 4, 2),
             c = random_values<T>(20000, 4, 3);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double x = a[i].value(), y = b[i].value(), z = c[i].value();
    EXPECT_EQ((a[i] + b[i]).bits(), nearest_even_bits<T>(values, x + y)) << hex(x) << " " << hex(y);
    EXPECT_EQ((a[i] - b[i]).bits(), nearest_even_bits<T>(values, x - y)) << hex(x) << " " << hex(y);
    EXPECT_EQ((a[i] * b[i]).bits(), nearest_even_bits<T>(values, x * y)) << hex(x) << " " << hex(y);
    EXPECT_EQ(fused_mul_add(a[i], b[i], c[i]).bits(), nearest_even_bits<T>(values, x * y + z))
        << hex(x) << " " << hex(y) << " " << hex(z);
  }
}

TEST(NarrowArithmetic, ExactResultsAreRoundedOnceInBf16) {
  expect_exact_operations_rounded_once<DType::BF16>();
}

TEST(NarrowArithmetic, ExactResultsAreRoundedOnceInFp16) {
  expect_exact_operations_rounded_once<DType::F16>();
}

// fma(a, b, c) where a b is a midpoint of two values of T and c is far below it: the exact result
// lies just past the midpoint on c's side, so the correct rounding is the neighbour toward c, and
// a tie to even gives the wrong one about half the time. In bf16 c = +-2^-100 lies below half a
// double ulp of every such product (>= 2^-8): the double sum is the midpoint itself, a tie, and
// only the rounding to odd keeps c's side. (fp16 cannot place a value 2^-53 below a product of
// fp16 values short of overflow; its c is its smallest subnormal, 2^-24, and the sum is exact.)
template <DType T>
void expect_fma_past_a_midpoint_goes_toward_c(float tiny) {
  const std::vector<double> values = positive_values<T>();
  const auto a = random_values<T>(200000, 4, 4), b = random_values<T>(200000, 4, 5);
  int midpoints = 0, tie_to_even_wrong = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double p = static_cast<double>(a[i].value()) * b[i].value();  // exact
    const auto above = std::upper_bound(values.begin(), values.end(), std::fabs(p));
    const double lo = *(above - 1), hi = *above;
    if (std::fabs(p) != (lo + hi) / 2) continue;  // not a midpoint
    ++midpoints;
    for (const float addend : {tiny, -tiny}) {
      const Narrow<T> c(addend);
      ASSERT_EQ(c.value(), addend);  // a value of T
      const bool up_in_magnitude = (addend > 0) == (p > 0);
      const std::uint32_t want =
          nearest_even_bits<T>(values, std::copysign(up_in_magnitude ? hi : lo, p));
      tie_to_even_wrong += want != nearest_even_bits<T>(values, p);
      EXPECT_EQ(fused_mul_add(a[i], b[i], c).bits(), want)
          << to_string(T) << " fma(" << hex(a[i].value()) << ", " << hex(b[i].value()) << ", "
          << hex(addend) << ")";
    }
  }
  EXPECT_GT(midpoints, 100);  // about one product in 2^(p - 1) is a midpoint
  EXPECT_GT(tie_to_even_wrong, 100);
}

TEST(NarrowArithmetic, FmaPastAMidpointGoesTowardTheAddendInBf16) {
  expect_fma_past_a_midpoint_goes_toward_c<DType::BF16>(0x1p-100f);
}

TEST(NarrowArithmetic, FmaPastAMidpointGoesTowardTheAddendInFp16) {
  expect_fma_past_a_midpoint_goes_toward_c<DType::F16>(0x1p-24f);
}

TEST(NarrowArithmetic, BitsAndComparisons) {
  using B = Narrow<DType::BF16>;
  EXPECT_EQ(B(1.0f).bits(), 0x3f80u);
  EXPECT_EQ((-B(1.0f)).bits(), 0xbf80u);
  EXPECT_TRUE(B(0.0f) == B(-0.0f));
  EXPECT_TRUE(signbit(B(-0.0f)));
  EXPECT_FALSE(B(std::nanf("")) == B(std::nanf("")));
  // fmaxf's rule: -0 orders below +0, a NaN operand is ignored.
  EXPECT_EQ(fmax_k(B(-0.0f), B(0.0f)).bits(), 0x0000u);
  EXPECT_EQ(fmax_k(B(0.0f), B(-0.0f)).bits(), 0x0000u);
  EXPECT_EQ(fmax_k(B(std::nanf("")), B(2.0f)).bits(), B(2.0f).bits());
  // The AND of +0's and -0's bits (hardened's tie rule of m) is +0 in the format's 16 bits.
  EXPECT_EQ(bits_float(float_bits(B(0.0f)) & float_bits(B(-0.0f))).bits(), 0x0000u);
}

// --- combine_pairs_in: the executors' narrow states

std::vector<State> states(std::initializer_list<State> s) {
  return std::vector<State>(s);
}

TEST(CombinePairsIn, F32IsCombinePairs) {
  const auto cpu = make_cpu_executor();
  const auto a = states({{1.0f, 3.0f}, {-2.5f, 0.75f}}), b = states({{0.5f, 2.0f}, {4.0f, 1.0f}});
  const auto want = cpu->combine_pairs(CombineKind::Hardened, a, b);
  const auto got = cpu->combine_pairs_in(DType::F32, CombineKind::Hardened, a, b);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(bitwise_equal(got[i], want[i]));
}

// A tie of +0 and -0 with d's 1 and 2^-8: e = exp(+-0) = 1, d = fl(1 + 2^-8), m = +0 (the AND).
// In bf16 (8 bits) 1 + 2^-8 is the midpoint of 1 and 1 + 2^-7, which rounds to the even 1; in fp16
// (11 bits) and float it is exact.
TEST(CombinePairsIn, RoundsTheCombineToTheFormat) {
  const auto cpu = make_cpu_executor();
  const auto a = states({{0.0f, 1.0f}}), b = states({{-0.0f, 0x1p-8f}});
  for (CombineKind k : {CombineKind::Hardened, CombineKind::Seed}) {
    const State bf16 = cpu->combine_pairs_in(DType::BF16, k, a, b).front();
    const State fp16 = cpu->combine_pairs_in(DType::F16, k, a, b).front();
    EXPECT_EQ(float_bits(bf16.m), 0u) << to_string(k);
    EXPECT_EQ(bf16.d, 1.0f) << to_string(k);
    EXPECT_EQ(float_bits(fp16.m), 0u) << to_string(k);
    EXPECT_EQ(fp16.d, 1.00390625f) << to_string(k);
  }
}

using test::expect_refused;

TEST(CombinePairsIn, RefusesWhatItCannotRun) {
  const auto cpu = make_cpu_executor();
  const auto ok = states({{1.0f, 1.0f}});
  expect_refused([&] { cpu->combine_pairs_in(DType::I32, CombineKind::Hardened, ok, ok); },
                 "not i32");
  // 1 + 2^-10 is a float and an fp16 value, but no bf16 value.
  const auto fine = states({{1.0f + 0x1p-10f, 1.0f}});
  expect_refused([&] { cpu->combine_pairs_in(DType::BF16, CombineKind::Hardened, fine, ok); },
                 "a[0] holds 0x1.004p+0, which is no bf16 value");
  EXPECT_NO_THROW(cpu->combine_pairs_in(DType::F16, CombineKind::Hardened, fine, ok));
  // A NaN whose payload does not fit the format's significand.
  const auto payload = states({{1.0f, std::bit_cast<float>(0x7fc00001u)}});
  expect_refused([&] { cpu->combine_pairs_in(DType::F16, CombineKind::Hardened, ok, payload); },
                 "b[0] holds");
  expect_refused([&] { cpu->combine_pairs_in(DType::BF16, CombineKind::Hardened, ok, states({})); },
                 "operand counts differ");
  expect_refused([&] { cpu->combine_pairs_in(DType::BF16, CombineKind::MutantFastExp, ok, ok); },
                 "runs on float32 states only");
}

// Which registered operators run on narrow states: those that declare kNarrowStates and whose
// combine takes a NarrowState (runs_on_narrow_states).
TEST(CombinePairsIn, OperatorsThatRunOnNarrowStates) {
  for (CombineKind k : {CombineKind::Seed, CombineKind::Hardened, CombineKind::MutantUnorderedTies,
                        CombineKind::MutantNaiveIdentity})
    EXPECT_NE(k.op().host.combine_narrow, nullptr) << to_string(k);
  // Their combine takes State (not a template), or calls __expf's float functor.
  for (CombineKind k :
       {CombineKind::MutantOverwriteM, CombineKind::MutantNoRescale, CombineKind::MutantFastExp})
    EXPECT_EQ(k.op().host.combine_narrow, nullptr) << to_string(k);
}

}  // namespace
}  // namespace osvs
