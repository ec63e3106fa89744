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
#include "osvs/properties/gen/cases.h"
#include "osvs/properties/gen/floats.h"

namespace osvs::test {
namespace {

/// n samples of g at size 100 from a fixed seed.
template <class T>
std::vector<T> sample(const rc::Gen<T>& g, int n) {
  rc::Random random(12345);
  std::vector<T> out;
  for (int i = 0; i < n; ++i) out.push_back(g(random.split(), 100).value());
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

TEST(Generators, SpecialRowsReachEveryRowClass) {
  std::set<std::string> seen;
  for (const auto& r : sample(gen::special_row(), 3000)) seen.insert(gen::row_class(r));
  for (const char* cls : {"empty", "nan", "+inf", "all -inf", "has -inf", "subnormal", "FLT_MAX"})
    EXPECT_TRUE(seen.count(cls)) << cls;
  std::set<std::string> finite;
  for (const auto& r : sample(gen::finite_row(), 2000)) finite.insert(gen::row_class(r));
  EXPECT_TRUE(finite.count("ties max"));
  EXPECT_FALSE(finite.count("nan") || finite.count("+inf") || finite.count("has -inf"));
}

TEST(Generators, SchedulesAreValidTrees) {
  for (const Case& c : sample(gen::tree_case(CombineKind::Hardened), 300)) {
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
  for (const Case& c : sample(gen::permutation_case({}), 200)) {
    std::vector<std::int64_t> p = c.permutation;
    std::sort(p.begin(), p.end());
    for (std::size_t i = 0; i < p.size(); ++i) EXPECT_EQ(p[i], static_cast<std::int64_t>(i));
    EXPECT_EQ(c.permutation.size(), c.rows[0].size());
  }
}

TEST(Generators, ShiftsAreExact) {
  for (const Case& c : sample(gen::shift_case({}), 200))
    for (float x : c.rows[0]) EXPECT_EQ((x + c.shift) - c.shift, x);
}

}  // namespace
}  // namespace osvs::test
