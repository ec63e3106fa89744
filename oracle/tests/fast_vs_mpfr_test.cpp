// The fast path against the MPFR-only path, bit for bit, on more than 10^6 elements: random rows
// of several shapes, and rows built so that an output lies next to a rounding boundary (where the
// fast path must hand the decision to MPFR).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <thread>
#include <vector>

#include "mpfr_decide.h"
#include "osvs/oracle/element_chunks.h"
#include "osvs/oracle/reference.h"
#include "osvs/oracle/ulp.h"
#include "random_rows.h"

namespace osvs::oracle {
namespace {

/// Rows of the random part: each a different shape of difficulty (underflow: [-110, 0); ties: -3
/// to 3), with a masked element and a -0.
std::vector<float> masked_random_row(int kind, std::int64_t n, std::mt19937& rng) {
  std::vector<float> x = random_row(kShapes[kind % 5], n, {-110, -3, 3}, rng);
  x[0] = -std::numeric_limits<float>::infinity();  // a masked element in every row
  x[1] = -0.0f;
  return x;
}

/// Same rounding and same binade of every element, and each double in its decided binade.
void expect_same_rounding(const std::vector<float>& x, const RowReference& fast,
                          const RowReference& slow) {
  ASSERT_EQ(fast.y_rounded.size(), slow.y_rounded.size());
  for (std::size_t j = 0; j < x.size(); ++j) {
    ASSERT_EQ(std::bit_cast<std::uint32_t>(fast.y_rounded[j]),
              std::bit_cast<std::uint32_t>(slow.y_rounded[j]))
        << "element " << j << " x = " << std::hexfloat << x[j] << " fast " << fast.y_rounded[j]
        << " mpfr " << slow.y_rounded[j];
    ASSERT_EQ(fast.y_binade[j], slow.y_binade[j]) << "element " << j;
    ASSERT_EQ(binade_of(fast.y[j]), fast.y_binade[j]) << "element " << j;
    ASSERT_EQ(binade_of(slow.y[j]), slow.y_binade[j]) << "element " << j;
  }
}

TEST(FastVsMpfr, MillionRandomElementsBitForBit) {
  std::mt19937 rng(7);
  std::int64_t elements = 0;
  for (int row = 0; elements < 1'000'000; ++row) {
    const std::int64_t n = 1000 + row % 7;
    const auto x = masked_random_row(row, n, rng);
    expect_same_rounding(x, reference_row(x.data(), n), reference_row_mpfr(x.data(), n));
    elements += n;
  }
}

/// The midpoint between two adjacent floats that lies just below y (y > 0).
long double midpoint_below(long double y) {
  const float f = static_cast<float>(y);
  const long double up = (static_cast<long double>(f) + std::nextafter(f, 2.0f)) / 2;
  const long double down = (static_cast<long double>(f) + std::nextafter(f, 0.0f)) / 2;
  return up < y ? up : down;  // exact: floats have 24 bits, long double 64
}

/// The float t nearest below log(v), so that e^t <= v (v > 0).
float log_below(long double v) {
  float t = static_cast<float>(std::log(v));
  while (std::exp(static_cast<long double>(t)) > v) t = std::nextafter(t, -INFINITY);
  return t;
}

/// A row [0, x, t, s] whose output y_1 = e^x / (1 + e^x + e^t + e^s) lies within about 2^-60
/// (relative) above a midpoint between floats: t and s are chosen so that the tiny terms e^t and
/// e^s move d by exactly the amount that brings y_1 down to the midpoint (long double arithmetic,
/// 64 bits, is far finer than the fast path's 2^-49 interval).
std::vector<float> row_next_to_a_midpoint(float x) {
  const long double ex = std::exp(static_cast<long double>(x));
  const long double d0 = 1 + ex;
  const long double target_d = ex / midpoint_below(ex / d0);  // d that puts y_1 on the midpoint
  const float t = log_below(target_d - d0);
  const long double rest = target_d - d0 - std::exp(static_cast<long double>(t));
  const float s = rest > 0 ? log_below(rest) : -INFINITY;
  return {0.0f, x, t, s};
}

TEST(FastVsMpfr, OutputsNextToRoundingBoundaries) {
  // x in [-20, -1] puts y_1 among normal floats, x in [-100, -88] among subnormal ones.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> normal_range(-20, -1), subnormal_range(-100, -88);
  std::int64_t rows = 0, fallbacks = 0;
  for (int i = 0; i < 400; ++i) {
    const float x = i % 2 ? normal_range(rng) : subnormal_range(rng);
    const auto row = row_next_to_a_midpoint(x);
    const RowReference fast = reference_row(row.data(), 4);
    expect_same_rounding(row, fast, reference_row_mpfr(row.data(), 4));
    ++rows;
    fallbacks += fast.mpfr_fallbacks;
  }
  std::printf("near-midpoint rows: %lld, MPFR fallbacks of the fast path: %lld\n",
              static_cast<long long>(rows), static_cast<long long>(fallbacks));
  EXPECT_GE(fallbacks, rows / 2);  // the construction works: the undecided branch is exercised
}

}  // namespace
}  // namespace osvs::oracle

namespace osvs::oracle {
namespace {

// The MPFR fallback of a long row (several element chunks) decides the same roundings and
// binades when its sums run on several threads, and they are the MPFR path's: here for every
// 997th element of a row of 2.5 chunks, asked of the fallback directly.
TEST(FastVsMpfr, TheFallbackOnSeveralThreadsDecidesAlike) {
  const std::int64_t n = 5 * kElementChunk / 2;
  std::vector<float> x(static_cast<std::size_t>(n));
  std::mt19937_64 rng(5);
  std::normal_distribution<float> normal(0.0f, 4.0f);
  for (float& v : x) v = normal(rng);
  const RowReference exact = reference_row_mpfr(x.data(), n);
  std::vector<std::int64_t> asked;
  for (std::int64_t j = 0; j < n; j += 997) asked.push_back(j);
  const IndexLoop two_threads = [](std::int64_t count,
                                   const std::function<void(std::int64_t)>& body) {
    std::thread other([&] {
      for (std::int64_t i = 1; i < count; i += 2) body(i);
    });
    for (std::int64_t i = 0; i < count; i += 2) body(i);
    other.join();
  };
  for (const IndexLoop* loops : {static_cast<const IndexLoop*>(nullptr), &two_threads}) {
    std::vector<float> rounded(x.size(), -1.0f);
    std::vector<int> binade(x.size(), 999);
    detail::mpfr_decide(x.data(), n, exact.m, asked, rounded, binade, 0, loops);
    for (std::int64_t j : asked) {
      const auto k = static_cast<std::size_t>(j);
      ASSERT_EQ(std::bit_cast<std::uint32_t>(rounded[k]),
                std::bit_cast<std::uint32_t>(exact.y_rounded[k]))
          << "element " << j << (loops ? " on two threads" : "");
      ASSERT_EQ(binade[k], exact.y_binade[k]) << "element " << j;
    }
  }
}

}  // namespace
}  // namespace osvs::oracle
