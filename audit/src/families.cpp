#include "osvs/audit/families.h"

#include <cfloat>
#include <cmath>
#include <limits>

#include "osvs/kernels/find_by_name.h"
#include "osvs/properties/gen/domain.h"

namespace osvs::audit {
namespace {

template <int Sigma>
void normal(std::mt19937_64& rng, float* row, std::int64_t n) {
  std::normal_distribution<float> dist(0.0f, static_cast<float>(Sigma));
  for (std::int64_t j = 0; j < n; ++j) row[j] = dist(rng);
}

void uniform(std::mt19937_64& rng, float* row, std::int64_t n) {
  std::uniform_real_distribution<float> dist(-10.0f, 10.0f);
  for (std::int64_t j = 0; j < n; ++j) row[j] = dist(rng);
}

/// x - m spans [-110, 0]: exp(x - m) reaches the subnormal range below -87.3 and rounds to 0
/// below -103.9, so outputs are normal, subnormal and zero.
void wide_range(std::mt19937_64& rng, float* row, std::int64_t n) {
  std::uniform_real_distribution<float> dist(-110.0f, 0.0f);
  for (std::int64_t j = 0; j < n; ++j) row[j] = dist(rng);
}

/// Rows made of the values that break naive code (gen/domain.h's special floats: +-0, subnormals,
/// FLT_MIN, +-FLT_MAX, exp's overflow and underflow edges, ...) and masked (-inf) elements (a row
/// of only -inf is a fully masked row, judged by each kernel's documented output). The audit once
/// found the oracle giving NaN for a masked element of a finite row; the oracle now gives its exact
/// 0.
void special_values(std::mt19937_64& rng, float* row, std::int64_t n) {
  static const std::vector<float> pool = [] {  // the shared pool less NaN and +inf
    std::vector<float> p;
    for (float x : gen::kSpecialFloats)
      if (!std::isnan(x) && x != std::numeric_limits<float>::infinity()) p.push_back(x);
    return p;
  }();
  std::uniform_int_distribution<std::size_t> pick(0, std::size(pool) - 1);
  for (std::int64_t j = 0; j < n; ++j) row[j] = pool[pick(rng)];
}

/// Ties and clusters near the maximum: many exact copies of the maximum and values a few ulps
/// below it, so the combine's tie rule and the exp of tiny negative arguments are exercised.
void ties(std::mt19937_64& rng, float* row, std::int64_t n) {
  const float top = std::uniform_real_distribution<float>(-50.0f, 50.0f)(rng);
  std::uniform_int_distribution<int> kind(0, 3);
  std::uniform_int_distribution<int> steps(1, 8);
  for (std::int64_t j = 0; j < n; ++j) {
    float v = top;
    switch (kind(rng)) {
      case 0:
        break;  // an exact copy of the maximum
      case 1:
        for (int s = steps(rng); s > 0; --s)
          v = std::nextafter(v, -std::numeric_limits<float>::infinity());
        break;
      case 2:
        v = top - static_cast<float>(steps(rng));  // an integer below
        break;
      default:
        v = top - std::uniform_real_distribution<float>(0.0f, 20.0f)(rng);
    }
    row[j] = v;
  }
}

}  // namespace

const std::vector<InputFamily>& all_families() {
  static const std::vector<InputFamily> families = {
      {"normal_1", "x ~ N(0, 1)", &normal<1>},
      {"normal_10", "x ~ N(0, 10)", &normal<10>},
      {"normal_100", "x ~ N(0, 100)", &normal<100>},
      {"uniform", "x ~ U(-10, 10)", &uniform},
      {"wide_range", "x ~ U(-110, 0): normal, subnormal and underflowing outputs", &wide_range},
      {"special_values", "+-0, subnormals, FLT_MIN, +-FLT_MAX, exp edges, -inf", &special_values},
      {"ties", "copies of the maximum and values a few ulps or integers below it", &ties},
  };
  return families;
}

const InputFamily* find_family(std::string_view name) {
  return find_named(all_families(), name);
}

}  // namespace osvs::audit
