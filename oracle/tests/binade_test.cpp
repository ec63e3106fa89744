// The ulp of a reference element is the ulp of the exact value's binade, decided by the oracle,
// not the ulp of its double. On a peaked row (one dominant element, the others tiny) the dominant
// output is y_0 = 1 / (1 + S), just below 1, and its double is 1.0: reading the binade off the
// double used ulp 2^-23 where the exact value has 2^-24, so a kernel output was judged twice as
// close as it is, while the bounds are stated in the finer ulp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "osvs/oracle/matcher.h"
#include "osvs/oracle/reference.h"
#include "osvs/oracle/ulp.h"

namespace osvs::oracle {
namespace {

const float kInf = std::numeric_limits<float>::infinity();

/// Float spacing just below 1, i.e. the ulp of the binade [1/2, 1).
const double kUlpBelowOne = 1.0 - static_cast<double>(std::nextafter(1.0f, 0.0f));

/// Both reference paths of a row.
std::vector<RowReference> both_paths(const std::vector<float>& x) {
  const auto n = static_cast<std::int64_t>(x.size());
  return {reference_row(x.data(), n), reference_row_mpfr(x.data(), n)};
}

/// One dominant element 0 and n - 1 tiny ones at `gap` (every output but the first is e^gap / d).
std::vector<float> peaked_row(std::int64_t n, float gap) {
  std::vector<float> x(static_cast<std::size_t>(n), gap);
  x[0] = 0.0f;
  return x;
}

struct Peaked {
  std::int64_t n;
  float gap;
};

/// Peaked rows whose dominant output 1 - S rounds to the double 1.0: S = (n - 1) e^gap < 2^-54
/// (half the double spacing below 1). -40 and -50 keep the tiny elements in the fast path's sum
/// (the binade is decided by MPFR there); -200 leaves them out as negligible.
constexpr Peaked kPeakedRows[] = {{2, -40.0f},     {4, -40.0f},  {1000, -50.0f},
                                  {32768, -60.0f}, {2, -200.0f}, {1000, -200.0f}};

/// S = sum of the tiny terms; y_0 = 1 / (1 + S). Long double keeps e^-200 (2^-288) as a value.
long double tiny_sum(const Peaked& p) {
  return static_cast<long double>(p.n - 1) * std::exp(static_cast<long double>(p.gap));
}

TEST(Binade, PeakedRowsAreWhatTheTestNeeds) {
  for (const Peaked& p : kPeakedRows) {
    const long double s = tiny_sum(p);
    EXPECT_GT(s, 0.0L);
    EXPECT_LT(s, 0x1p-54L) << "n " << p.n << " gap " << p.gap << ": 1 - S would not round to 1.0";
  }
}

TEST(Binade, DominantOutputOfAPeakedRowTakesTheUlpBelowOne) {
  const float one_below = std::nextafter(1.0f, 0.0f);
  for (const Peaked& p : kPeakedRows) {
    const auto x = peaked_row(p.n, p.gap);
    const double s = static_cast<double>(tiny_sum(p));
    for (const RowReference& ref : both_paths(x)) {
      SCOPED_TRACE(::testing::Message() << "n " << p.n << " gap " << p.gap);
      EXPECT_EQ(ref.y_binade[0], -1);  // 1/2 <= 1 / (1 + S) < 1
      EXPECT_EQ(ulp_of_binade(ref.y_binade[0]), kUlpBelowOne);
      EXPECT_EQ(ref.y_rounded[0], 1.0f);  // it still rounds to 1
      EXPECT_LT(ref.y[0], 1.0);           // the double lies in the exact binade
      EXPECT_EQ(binade_of(ref.y[0]), ref.y_binade[0]);
      // The float below 1 is (1 - S) - (1 - 2^-24) = 2^-24 - S away: one ulp of [1/2, 1), less S.
      const double exact = 1.0 - s / kUlpBelowOne;
      EXPECT_NEAR(ulp_distance(one_below, ref.y[0], ref.y_binade[0]), exact, kReferenceUlpSlack);
      EXPECT_NEAR(ulp_distance(one_below, ref.y[0]), exact, kReferenceUlpSlack);
      // Reading the binade off the double 1.0 halves it.
      EXPECT_EQ(ulp_distance(one_below, 1.0), 0.5);
    }
  }
}

TEST(Binade, MatcherRejectsAnOutputOneUlpBelowTheDominantOne) {
  // Tolerance 0.75 ulp: the float below 1 is about 1 ulp from y_0 and must fail; with the ulp of
  // the double 1.0 it measured 0.5 ulp and passed.
  for (const Peaked& p : kPeakedRows) {
    const auto x = peaked_row(p.n, p.gap);
    const RowReference ref = reference_row(x.data(), p.n);
    std::vector<float> y = ref.y_rounded;
    y[0] = std::nextafter(1.0f, 0.0f);
    const MatchResult m =
        match_softmax(x.data(), p.n, y.data(), ref, std::vector<double>(x.size(), 0.75));
    EXPECT_FALSE(m.ok) << "n " << p.n << " gap " << p.gap << ": worst " << m.worst_ulp;
    EXPECT_EQ(m.worst_index, 0);
    EXPECT_NEAR(m.worst_ulp, 1.0, 0x1p-20);
  }
}

TEST(Binade, TiesWithTheMaximumAreDecidedExactly) {
  // c elements equal to the maximum: y = 1/c exactly when nothing finite lies below it, else
  // 1 / (c + S), just below 1/c. Expected binades from the doubles 1/c and the one below it
  // (1/c rounded to double stays in the binade of 1/c).
  struct Tie {
    std::vector<float> x;
    int c;
    bool below;
  };
  const Tie ties[] = {{{0.0f}, 1, false},
                      {{5.0f, 5.0f}, 2, false},
                      {{5.0f, 5.0f, 5.0f}, 3, false},
                      {{5.0f, 5.0f, 5.0f, 5.0f}, 4, false},
                      {{-0.0f, 0.0f}, 2, false},
                      {{5.0f, -kInf, 5.0f}, 2, false},
                      {{0.0f, -200.0f}, 1, true},
                      {{5.0f, 5.0f, -195.0f}, 2, true},
                      {{2.0f, 2.0f, 2.0f, 2.0f, -300.0f}, 4, true},
                      {{2.0f, 2.0f, 2.0f, -300.0f}, 3, true}};
  for (const Tie& t : ties) {
    const double reciprocal = 1.0 / t.c;
    const int expected = binade_of(t.below ? std::nextafter(reciprocal, 0.0) : reciprocal);
    for (const RowReference& ref : both_paths(t.x)) {
      for (std::size_t j = 0; j < t.x.size(); ++j) {
        if (t.x[j] != t.x[0]) continue;
        EXPECT_EQ(ref.y_binade[j], expected) << "c " << t.c << " below " << t.below;
        EXPECT_EQ(binade_of(ref.y[j]), expected);
      }
    }
  }
}

TEST(Binade, NeighboursOfATieFallOnBothSidesOfOneHalf) {
  // [0, -2^-149]: y_0 = 1 / (1 + e^g) lies just above 1/2, y_1 = e^g / (1 + e^g) just below it
  // (g < 0, so e^g < 1); both doubles are 0.5 or next to it.
  const std::vector<float> x = {0.0f, -std::numeric_limits<float>::denorm_min()};
  for (const RowReference& ref : both_paths(x)) {
    EXPECT_EQ(ref.y_binade[0], binade_of(0.5));
    EXPECT_EQ(ref.y_binade[1], binade_of(std::nextafter(0.5, 0.0)));
    EXPECT_EQ(binade_of(ref.y[1]), ref.y_binade[1]);
  }
}

TEST(Binade, FastPathAgreesWithMpfrOnRandomPeakedRows) {
  // Dominant element 0, the others drawn from [-75, -38]: the dominant output lands within 2^-48
  // of 1 (undecided in double) on many rows, so both decision paths run.
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> tiny(-75.0f, -38.0f);
  std::uniform_int_distribution<int> size(2, 200);
  int below_one = 0, handed_to_mpfr = 0;
  for (int row = 0; row < 300; ++row) {
    std::vector<float> x(static_cast<std::size_t>(size(rng)));
    for (float& v : x) v = tiny(rng);
    x[0] = 0.0f;
    const auto n = static_cast<std::int64_t>(x.size());
    const RowReference fast = reference_row(x.data(), n);
    std::vector<std::int64_t> undecided;
    const RowReference slow = reference_row_mpfr_at(x.data(), n, 640, &undecided);
    ASSERT_TRUE(undecided.empty());
    for (std::size_t j = 0; j < x.size(); ++j) {
      ASSERT_EQ(fast.y_binade[j], slow.y_binade[j]) << "row " << row << " element " << j;
      ASSERT_EQ(binade_of(fast.y[j]), fast.y_binade[j]) << "row " << row << " element " << j;
    }
    below_one += fast.y_binade[0] == -1;
    handed_to_mpfr += fast.mpfr_fallbacks > 0;
  }
  EXPECT_EQ(below_one, 300);  // 1 / (1 + S) with S > 0: in [1/2, 1) on every row
  EXPECT_GT(handed_to_mpfr, 30) << "the rows should leave the binade to MPFR often";
}

}  // namespace
}  // namespace osvs::oracle
