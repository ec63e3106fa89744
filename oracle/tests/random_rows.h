// The random rows of the oracle's tests (bounds_test.cpp, fast_vs_mpfr_test.cpp): five shapes of
// difficulty, each row drawn from one distribution constructed for it, so that a row depends only
// on the generator's state.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace osvs::oracle {

enum class Shape {
  Sigma1,     ///< N(0, 1)
  Sigma10,    ///< N(0, 10)
  Sigma100,   ///< N(0, 100)
  Underflow,  ///< uniform on [RowRanges::low, 0): subnormal and underflowing outputs
  Ties,       ///< integers in [ties_low, ties_high]: many ties with the maximum
};
constexpr Shape kShapes[] = {Shape::Sigma1, Shape::Sigma10, Shape::Sigma100, Shape::Underflow,
                             Shape::Ties};

/// The ranges of the two shapes whose ranges each test picks.
struct RowRanges {
  float low;  ///< Underflow
  int ties_low, ties_high;
};

/// n draws of dist, each converted to float.
template <class Distribution>
std::vector<float> draws(std::int64_t n, Distribution dist, std::mt19937& rng) {
  std::vector<float> x(static_cast<std::size_t>(n));
  for (float& v : x) v = static_cast<float>(dist(rng));
  return x;
}

inline std::vector<float> random_row(Shape s, std::int64_t n, const RowRanges& ranges,
                                     std::mt19937& rng) {
  switch (s) {
    case Shape::Sigma1:
      return draws(n, std::normal_distribution<float>(0, 1), rng);
    case Shape::Sigma10:
      return draws(n, std::normal_distribution<float>(0, 10), rng);
    case Shape::Sigma100:
      return draws(n, std::normal_distribution<float>(0, 100), rng);
    case Shape::Underflow:
      return draws(n, std::uniform_real_distribution<float>(ranges.low, 0), rng);
    case Shape::Ties:
      return draws(n, std::uniform_int_distribution<int>(ranges.ties_low, ranges.ties_high), rng);
  }
  return {};
}

}  // namespace osvs::oracle
