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

/// Fills x with one row of the family `name`, from a generator seeded with `seed`; a fatal failure
/// when no family has that name.
void fill_family_row(const char* name, std::uint64_t seed, std::vector<float>& x) {
  const InputFamily* f = find_family(name);
  ASSERT_NE(f, nullptr) << name;
  std::mt19937_64 rng(seed);
  f->fill(rng, x.data(), std::ssize(x));
}

TEST(Families, SpecialValuesReachMaskedElements) {
  std::vector<float> x(1000);
  ASSERT_NO_FATAL_FAILURE(fill_family_row("special_values", 3, x));
  EXPECT_TRUE(std::any_of(x.begin(), x.end(), [](float v) { return v == -INFINITY; }));
  EXPECT_EQ(oracle::classify_row(x.data(), std::ssize(x)), oracle::RowKind::Finite);
}

TEST(Families, WideRangeReachesUnderflow) {
  std::vector<float> x(4096);
  ASSERT_NO_FATAL_FAILURE(fill_family_row("wide_range", 1, x));
  const float m = *std::max_element(x.begin(), x.end());
  // exp(x - m) rounds to float 0 below log(2^-150) = -103.97
  EXPECT_TRUE(std::any_of(x.begin(), x.end(), [m](float v) { return v - m < -103.98f; }));
  EXPECT_EQ(find_family("no_such_family"), nullptr);
}

}  // namespace
}  // namespace osvs::audit
