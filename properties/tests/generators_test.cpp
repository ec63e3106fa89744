// The generators reach the special classes, shrink toward simple floats and produce valid
// schedules and permutations.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "osvs/kernels/validate.h"
#include "osvs/properties/exact_shift.h"
#include "osvs/properties/gen/cases.h"
#include "osvs/properties/gen/floats.h"
#include "osvs/properties/suite.h"

namespace osvs::test {
namespace {

/// n samples of g at `size` (100 by default) from a fixed seed.
template <class T>
std::vector<T> sample(const rc::Gen<T>& g, int n, int size = 100) {
  rc::Random random(12345);
  std::vector<T> out;
  for (int i = 0; i < n; ++i) out.push_back(g(random.split(), size).value());
  return out;
}

/// A size below the long rows' full length, for tests about something else: sampling stays fast.
constexpr int kModerateSize = gen::kLongRowFullSize / 2;

/// One sample of g per case of a RapidCheck run of `cases` cases with maximum size `max_size`, at
/// the size RapidCheck gives that case (evenly spread over 0..max_size, the largest included).
template <class T>
std::vector<T> sample_like_a_run(const rc::Gen<T>& g, int cases, int max_size) {
  rc::Random random(12345);
  std::vector<T> out;
  for (int i = 0; i < cases; ++i)
    out.push_back(g(random.split(), cases > 1 ? i * max_size / (cases - 1) : max_size).value());
  return out;
}

TEST(Generators, AnyFloatReachesEverySpecialClass) {
  std::set<std::string> seen;
  for (float x : sample(gen::any_float(), 4000)) seen.insert(gen::float_class(x));
  for (const char* cls : {"nan", "+inf", "-inf", "-0", "+0", "subnormal", "±FLT_MAX", "normal"})
    EXPECT_TRUE(seen.count(cls)) << cls;
}

TEST(Generators, FiniteFloatIsFinite) {
  for (float x : sample(gen::finite_float(), 2000)) EXPECT_TRUE(std::isfinite(x)) << x;
}

TEST(Generators, FloatShrinksAreStrictlySimpler) {
  for (float x : sample(gen::any_float(), 500)) {
    const auto shrinks = gen::shrink_float(x);
    auto seq = shrinks;
    while (auto s = seq.next()) EXPECT_LT(gen::float_complexity(*s), gen::float_complexity(x)) << x;
  }
}

TEST(Generators, FloatShrinksReachSimpleValues) {
  auto candidates = [](float x) {
    std::vector<float> out;
    auto seq = gen::shrink_float(x);
    while (auto s = seq.next()) out.push_back(*s);
    return out;
  };
  const auto pi = candidates(3.14159274f);
  EXPECT_NE(std::find(pi.begin(), pi.end(), 0.0f), pi.end());
  EXPECT_NE(std::find(pi.begin(), pi.end(), 3.0f), pi.end());
  EXPECT_NE(std::find(pi.begin(), pi.end(), 2.0f), pi.end());  // 1 significant bit
  const auto nan = candidates(std::nanf(""));
  EXPECT_TRUE(std::all_of(nan.begin(), nan.end(), [](float x) { return std::isfinite(x); }));
  EXPECT_TRUE(candidates(0.0f).empty());
}

TEST(Generators, RowLengthsHitTheWarpAndBlockBoundaries) {
  std::set<std::int64_t> lengths;
  for (auto n : sample(gen::row_length(), 3000)) lengths.insert(n);
  for (std::int64_t n : {0, 1, 31, 32, 33, 255, 256, 257}) EXPECT_TRUE(lengths.count(n)) << n;
  EXPECT_GT(*lengths.rbegin(), 1024);
}

TEST(Generators, LongRowsGrowWithTheSizeBeyond2To16) {
  const std::int64_t longest_at_full_size = std::int64_t{1} << gen::kLongRowExponent;
  const auto full = sample(gen::long_row_length(), 200, gen::kLongRowFullSize);
  for (std::int64_t n : full) {
    EXPECT_GE(n, longest_at_full_size / 2);
    EXPECT_LE(n, longest_at_full_size);
  }
  EXPECT_GE(*std::max_element(full.begin(), full.end()), std::int64_t{1} << 16);
  // At half the size the longest row is 2^((shortest + longest exponent) / 2): below 2^14.
  static_assert(gen::kShortestLongRowExponent + gen::kLongRowExponent <= 2 * 14);
  const auto half = sample(gen::long_row_length(), 200, gen::kLongRowFullSize / 2);
  EXPECT_LE(*std::max_element(half.begin(), half.end()), std::int64_t{1} << 14);
  // Beyond the full size nothing grows further.
  for (std::int64_t n : sample(gen::long_row_length(), 50, 4 * gen::kLongRowFullSize))
    EXPECT_LE(n, longest_at_full_size);
}

/// The length of rows[0] of every case a RapidCheck run of `law` generates with the suite's seed
/// and RapidCheck's default case count and sizes.
std::vector<std::size_t> row_lengths_in_a_run(const LawSpec& law) {
  std::vector<std::size_t> lengths;
  rc::detail::TestParams params;
  params.seed = 20240605;  // the property tests' seed (main.cpp)
  rc::detail::TestMetadata metadata;
  metadata.id = metadata.description = law.property;
  rc::detail::checkTestable(
      [&] {
        const Case c = *law.cases;
        lengths.push_back(c.rows.empty() ? 0 : c.rows.front().size());
      },
      metadata, params);
  return lengths;
}

TEST(Generators, EveryRowLawReachesRowsBeyond2To16InAFewCases) {
  // Over the property tests' run (100 cases, sizes 0..100) every softmax-level law draws rows of
  // 2^16 elements and more, while rows beyond 2^12 stay a minority (the run's cost is bounded): at
  // most the long style's share at full size, and the medium style reaching ~4000 at size 100.
  // One law per generator: accuracy, sum and range share finite_batch; determinism, special
  // values and agreement share special_batch (suite.cpp).
  const auto laws = softmax_laws(Case{});
  for (const char* name :
       {"accuracy", "special_values", "permutation", "shift_invariance", "batch_invariance"}) {
    const LawSpec& law = find_law(laws, name);
    const auto lengths = row_lengths_in_a_run(law);
    const auto beyond = [&](std::size_t n) {
      return std::count_if(lengths.begin(), lengths.end(), [n](std::size_t l) { return l >= n; });
    };
    EXPECT_GE(beyond(std::size_t{1} << 16), 1) << law.property;
    EXPECT_LE(beyond(std::size_t{1} << 12), std::ssize(lengths) / 3) << law.property;
  }
}

TEST(Generators, NoLongRowsAtSizeZero) {
  for (auto n : sample(gen::row_length(), 2000, 0)) EXPECT_LE(n, 257);
}

TEST(Generators, FiniteBatchesAndPermutationRowsAreNeverEmpty) {
  // An empty row has no softmax to judge: the accuracy, sum, range and permutation laws would be
  // vacuous on it.
  for (const auto& b : sample(gen::finite_batch(), 500, 0))
    for (const auto& row : b) EXPECT_FALSE(row.empty());
  for (const Case& c : sample(gen::permutation_case({}), 300, 0)) EXPECT_FALSE(c.rows[0].empty());
  for (auto n : sample(gen::nonempty_row_length(), 2000, 0)) EXPECT_GE(n, 1);
}

TEST(Generators, SpecialRowsReachEveryRowClass) {
  std::set<std::string> seen;
  for (const auto& r : sample(gen::special_row(), 3000, kModerateSize))
    seen.insert(gen::row_class(r));
  for (const char* cls : {"empty", "nan", "+inf", "all -inf", "has -inf", "subnormal", "FLT_MAX"})
    EXPECT_TRUE(seen.count(cls)) << cls;
  std::set<std::string> finite;
  for (const auto& r : sample(gen::finite_row(), 2000, kModerateSize))
    finite.insert(gen::row_class(r));
  EXPECT_TRUE(finite.count("ties max"));
  EXPECT_FALSE(finite.count("nan") || finite.count("+inf") || finite.count("has -inf"));
}

TEST(Generators, SchedulesAreValidTrees) {
  for (const Case& c : sample(gen::tree_case(CombineKind::Hardened), 300, kModerateSize)) {
    HarnessBatch b;
    for (HarnessCase s : c.schedules) {
      s.row = c.rows[0];
      const std::size_t slots = s.slot_chunk.size();
      EXPECT_EQ(s.merges.size(), slots - 1);  // a binary tree over the slots
      std::vector<int> sorted(s.slot_chunk.begin(), s.slot_chunk.end());
      std::sort(sorted.begin(), sorted.end());
      std::vector<int> iota(slots);
      std::iota(iota.begin(), iota.end(), 0);
      EXPECT_EQ(sorted, iota);  // every chunk placed exactly once
      std::set<int> consumed;   // a source is merged once and never used again
      for (const Merge& m : s.merges) {
        EXPECT_FALSE(consumed.count(m.src) || consumed.count(m.dst));
        consumed.insert(m.src);
      }
      EXPECT_FALSE(consumed.count(s.root));
      b.cases.push_back(s);
    }
    EXPECT_NO_THROW(validate(b));
  }
}

TEST(Generators, PermutationsArePermutations) {
  for (const Case& c : sample(gen::permutation_case({}), 200, kModerateSize)) {
    std::vector<std::int64_t> p = c.permutation;
    std::sort(p.begin(), p.end());
    for (std::size_t i = 0; i < p.size(); ++i) EXPECT_EQ(p[i], static_cast<std::int64_t>(i));
    EXPECT_EQ(c.permutation.size(), c.rows[0].size());
  }
}

TEST(Generators, ShiftsAreExactMoveEveryElementAndReachLargeMagnitudes) {
  float largest = 0;
  for (const Case& c : sample(gen::shift_case({}), 300, kModerateSize)) {
    ASSERT_FALSE(c.rows[0].empty());
    EXPECT_NE(c.shift, 0.0f);
    for (float x : c.rows[0]) {
      EXPECT_TRUE(shift_is_exact(x, c.shift)) << x << " + " << c.shift;
      largest = std::max(largest, std::fabs(x));
    }
  }
  EXPECT_GE(largest, 0x1p40f);  // far beyond |x| < 128
}

TEST(Generators, ShiftsIncludeTheOneThatMovesTheMaximumToZero) {
  int to_zero = 0;
  for (const Case& c : sample(gen::shift_case({}), 300, kModerateSize)) {
    const float m = *std::max_element(c.rows[0].begin(), c.rows[0].end());
    to_zero += m + c.shift == 0.0f;
  }
  EXPECT_GT(to_zero, 0);
}

}  // namespace
}  // namespace osvs::test
