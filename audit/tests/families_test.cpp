#include "osvs/audit/families.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "osvs/oracle/reference.h"

namespace osvs::audit {
namespace {

// Every family gives rows without NaN or +inf (finite, or fully masked for special_values at tiny
// lengths: the sweep judges those by the documented outputs), and the same rows for a seed.
TEST(Families, RowsAreFiniteAndReproducible) {
  for (const InputFamily& f : all_families())
    for (std::int64_t n : {1, 2, 33, 1000}) {
      std::vector<float> a(n), b(n);
      std::mt19937_64 ra(7), rb(7);
      for (int rep = 0; rep < 50; ++rep) {
        f.fill(ra, a.data(), n);
        f.fill(rb, b.data(), n);
        const oracle::RowKind kind = oracle::classify_row(a.data(), n);
        EXPECT_TRUE(kind == oracle::RowKind::Finite || kind == oracle::RowKind::AllMasked)
            << f.name << " " << n << ": " << oracle::to_string(kind);
        EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), [](float x, float y) {
          return std::memcmp(&x, &y, sizeof x) == 0;
        })) << f.name;
      }
    }
}

TEST(Families, SpecialValuesReachMaskedElements) {
  const InputFamily* f = find_family("special_values");
  ASSERT_NE(f, nullptr);
  std::vector<float> x(1000);
  std::mt19937_64 rng(3);
  f->fill(rng, x.data(), std::ssize(x));
  EXPECT_TRUE(std::any_of(x.begin(), x.end(), [](float v) { return v == -INFINITY; }));
  EXPECT_EQ(oracle::classify_row(x.data(), std::ssize(x)), oracle::RowKind::Finite);
}

TEST(Families, WideRangeReachesUnderflow) {
  const InputFamily* f = find_family("wide_range");
  ASSERT_NE(f, nullptr);
  std::vector<float> x(4096);
  std::mt19937_64 rng(1);
  f->fill(rng, x.data(), std::ssize(x));
  const float m = *std::max_element(x.begin(), x.end());
  // exp(x - m) rounds to float 0 below log(2^-150) = -103.97
  EXPECT_TRUE(std::any_of(x.begin(), x.end(), [m](float v) { return v - m < -103.98f; }));
  EXPECT_EQ(find_family("no_such_family"), nullptr);
}

}  // namespace
}  // namespace osvs::audit
