#include "osvs/audit/error_stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace osvs::audit {
namespace {

TEST(ErrorStats, CountMeanMax) {
  ErrorStats s;
  for (double v : {0.0, 0.25, 0.5, 3.0}) s.add(v);
  EXPECT_EQ(s.count(), 4);
  EXPECT_DOUBLE_EQ(s.mean(), 3.75 / 4);  // (0 + 0.25 + 0.5 + 3) / 4
  EXPECT_DOUBLE_EQ(s.max(), 3.0);
}

TEST(ErrorStats, QuantileIsTheUpperEdgeOfItsBin) {
  ErrorStats s;
  // 999 values of 0.1 and one of 7: the 99.9 % quantile is 0.1, whose 1/64-wide bin ends at
  // 7/64 = 0.109375 (0.1 lies in (6/64, 7/64]); the 100 % quantile is the maximum.
  for (int i = 0; i < 999; ++i) s.add(0.1);
  s.add(7.0);
  EXPECT_DOUBLE_EQ(s.quantile_upper(0.999), 7.0 / 64);
  EXPECT_DOUBLE_EQ(s.quantile_upper(1.0), 7.0);
}

TEST(ErrorStats, InfinityGoesToTheOverflowBin) {
  ErrorStats s;
  s.add(INFINITY);
  EXPECT_EQ(s.counts().back(), 1);
  EXPECT_TRUE(std::isinf(s.quantile_upper(0.5)));
}

TEST(ErrorStats, MergeAddsCounts) {
  ErrorStats a, b;
  a.add(1.0);
  b.add(2.0);
  b.add(0.0);
  a.merge(b);
  EXPECT_EQ(a.count(), 3);
  EXPECT_DOUBLE_EQ(a.max(), 2.0);
  EXPECT_DOUBLE_EQ(a.mean(), 1.0);
}

}  // namespace
}  // namespace osvs::audit

namespace osvs::audit {
namespace {

// add() computes the bin of values up to 4 ulps directly and counts only the edges of one octave
// above; it must be the bin a search of all the edges finds ((edges[k-1], edges[k]]), on the
// edges, next to them and between them, and on and next to the octaves' powers of two.
TEST(ErrorStats, TheDirectBinIsTheSearchedOne) {
  const auto& edges = ulp_bin_edges();
  std::vector<double> values = {
      0.0, 1e-300, 4.0, std::nextafter(4.0, 5.0), 1e30, std::numeric_limits<double>::infinity()};
  for (double e : edges)
    for (double v : {std::nextafter(e, 0.0), e, std::nextafter(e, 1e300), e * 0.999})
      values.push_back(v);
  for (int k = 2; k <= 30; ++k)
    for (double v : {std::ldexp(1.0, k), std::nextafter(std::ldexp(1.0, k), 0.0),
                     std::nextafter(std::ldexp(1.0, k), 1e300)})
      values.push_back(v);
  for (double v : values) {
    ErrorStats s;
    s.add(v);
    const auto searched =
        static_cast<std::size_t>(std::lower_bound(edges.begin(), edges.end(), v) - edges.begin());
    ASSERT_EQ(s.counts()[searched], 1) << "ulp " << v;
  }
}

}  // namespace
}  // namespace osvs::audit
