// Implementation of gen/rows.h.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "osvs/properties/gen/domain.h"
#include "osvs/properties/gen/floats.h"

namespace osvs::gen {

namespace detail {

/// `g`'s values, shrinking through every smaller value toward 0 (a choice among alternatives
/// would otherwise shrink only within its alternative, e.g. 255 to 33 but never to 2).
inline rc::Gen<std::int64_t> shrinking_to_zero(rc::Gen<std::int64_t> g) {
  return rc::Gen<std::int64_t>([g](const rc::Random& random, int size) {
    return rc::shrinkable::shrinkRecur(g(random, size).value(), [](std::int64_t n) {
      return rc::shrink::towards<std::int64_t>(n, 0);
    });
  });
}

}  // namespace detail

inline rc::Gen<std::int64_t> row_length() {
  return detail::shrinking_to_zero(rc::gen::weightedOneOf<std::int64_t>({
      {4, rc::gen::element<std::int64_t>(0, 1, 31, 32, 33, 255, 256, 257)},
      {5, rc::gen::withSize([](int size) {
         return rc::gen::inRange<std::int64_t>(0, 2 + std::int64_t{size} * 8);
       })},
      {1, rc::gen::withSize([](int size) {
         return rc::gen::inRange<std::int64_t>(
             0, std::min<std::int64_t>(64 + std::int64_t{size} * 40, kMaxRowLength + 1));
       })},
  }));
}

namespace detail {

inline rc::Gen<Row> row_of(std::int64_t n, rc::Gen<float> element) {
  return rc::gen::container<Row>(static_cast<std::size_t>(n), std::move(element));
}

/// Values m - k ulps and m - δ for a generated maximum m: a cluster just below the max.
inline rc::Gen<Row> clustered_row(std::int64_t n) {
  return rc::gen::mapcat(finite_float(), [n](float m) {
    const rc::Gen<float> near = rc::gen::map(rc::gen::inRange(0, 64), [m](int k) {
      float x = m;
      for (int i = 0; i < k; ++i) x = std::nextafter(x, -FLT_MAX);
      return x;
    });
    const rc::Gen<float> below =
        rc::gen::map(rc::gen::inRange(0, 4096), [m](int k) { return m - k / 64.0f; });
    return row_of(n, rc::gen::oneOf(near, below));
  });
}

/// |x - m| up to 300: most exp(x - m) underflow.
inline rc::Gen<Row> wide_row(std::int64_t n) {
  return row_of(
      n, rc::gen::map(rc::gen::inRange(-300 * 64, 50 * 64), [](int k) { return k / 64.0f; }));
}

/// Sets a few generated positions to the row maximum or a few ulps below it.
inline rc::Gen<Row> with_ties(Row row) {
  if (row.empty()) return rc::gen::just(std::move(row));
  const auto n = static_cast<int>(row.size());
  using Tie = std::pair<int, int>;  // (position, ulps below the max)
  return rc::gen::map(
      rc::gen::container<std::vector<Tie>>(rc::gen::pair(
          rc::gen::inRange(0, n), rc::gen::weightedElement<int>({{3, 0}, {1, 1}, {1, 2}}))),
      [row](const std::vector<Tie>& ties) {
        Row r = row;
        const float m = *std::max_element(r.begin(), r.end());
        for (auto [pos, ulps] : ties) {
          float x = m;
          for (int i = 0; i < ulps; ++i) x = std::nextafter(x, -FLT_MAX);
          r[static_cast<std::size_t>(pos)] = x;
        }
        return r;
      });
}

}  // namespace detail

inline rc::Gen<Row> finite_row(std::int64_t n) {
  const rc::Gen<Row> styled = rc::gen::weightedOneOf<Row>({
      {3, detail::row_of(n, finite_float())},
      {2, detail::row_of(n, normal_float(1.0f))},
      {3, detail::row_of(n, normal_float(10.0f))},
      {2, detail::row_of(n, normal_float(100.0f))},
      {2, detail::wide_row(n)},
      {2, detail::clustered_row(n)},
      {1, detail::row_of(n, fp16_exact_float())},
  });
  return rc::gen::mapcat(styled, [](Row r) {
    return rc::gen::weightedOneOf<Row>({{2, rc::gen::just(r)}, {1, detail::with_ties(r)}});
  });
}

inline rc::Gen<Row> finite_row() {
  return rc::gen::mapcat(row_length(), [](std::int64_t n) { return finite_row(n); });
}

inline rc::Gen<Row> grid_row() {
  return rc::gen::mapcat(row_length(),
                         [](std::int64_t n) { return detail::row_of(n, grid_float()); });
}

namespace detail {

/// Places `value` at generated positions of the row (at least one when the row is not empty).
inline rc::Gen<Row> inject(Row row, float value) {
  if (row.empty()) return rc::gen::just(std::move(row));
  const auto n = static_cast<int>(row.size());
  return rc::gen::map(
      rc::gen::nonEmpty(rc::gen::container<std::vector<int>>(rc::gen::inRange(0, n))),
      [row, value](const std::vector<int>& at) {
        Row r = row;
        for (int i : at) r[static_cast<std::size_t>(i)] = value;
        return r;
      });
}

inline Row all_masked(std::int64_t n) {
  return Row(static_cast<std::size_t>(n), -std::numeric_limits<float>::infinity());
}

}  // namespace detail

inline rc::Gen<Row> special_row(std::int64_t n) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto injected = [n](float v) {
    return rc::gen::mapcat(finite_row(n), [v](Row r) { return detail::inject(std::move(r), v); });
  };
  return rc::gen::weightedOneOf<Row>({
      {3, injected(nan)},
      {3, injected(inf)},
      {3, rc::gen::just(detail::all_masked(n))},
      {3, injected(-inf)},
      {2, detail::row_of(
              n, rc::gen::map(rc::gen::pair(detail::subnormal(), rc::gen::arbitrary<bool>()),
                              [](std::pair<float, bool> p) {
                                return p.second ? std::fabs(p.first) : p.first;
                              }))},
      {2, injected(FLT_MAX)},
      {2, injected(-FLT_MAX)},
      {2, detail::row_of(n, any_float())},
      {2, finite_row(n)},
  });
}

inline rc::Gen<Row> special_row() {
  return rc::gen::mapcat(row_length(), [](std::int64_t n) { return special_row(n); });
}

namespace detail {

/// The shrinks of a batch of equal-length rows, by value (Hypothesis style): fewer rows, then the
/// same columns removed from every row, then one element simpler (shrink_float). Removing
/// elements keeps the others, so a long failing row shrinks to the few elements that matter.
inline rc::Seq<std::vector<Row>> shrink_batch(const std::vector<Row>& b) {
  const std::size_t n = b.empty() ? 0 : b.front().size();
  auto fewer_rows = rc::seq::filter(rc::shrink::removeChunks(b),
                                    [](const std::vector<Row>& r) { return !r.empty(); });
  std::vector<std::size_t> columns(n);
  for (std::size_t j = 0; j < n; ++j) columns[j] = j;
  auto fewer_columns =
      rc::seq::map(rc::shrink::removeChunks(columns), [b](const std::vector<std::size_t>& keep) {
        std::vector<Row> out;
        for (const Row& row : b) {
          Row kept;
          for (std::size_t j : keep) kept.push_back(row[j]);
          out.push_back(std::move(kept));
        }
        return out;
      });
  auto simpler = rc::seq::mapcat(rc::seq::range<std::size_t>(0, b.size()), [b](std::size_t i) {
    return rc::seq::map(rc::shrink::eachElement(b[i], &shrink_float), [b, i](Row r) {
      std::vector<Row> out = b;
      out[i] = std::move(r);
      return out;
    });
  });
  return rc::seq::concat(std::move(fewer_rows), std::move(fewer_columns), std::move(simpler));
}

inline rc::Gen<std::vector<Row>> batch_of(rc::Gen<Row> (*row_of_length)(std::int64_t)) {
  const auto generated =
      rc::gen::mapcat(rc::gen::pair(row_length(), rc::gen::inRange(1, kMaxRows + 1)),
                      [row_of_length](std::pair<std::int64_t, int> nm) {
                        return rc::gen::container<std::vector<Row>>(
                            static_cast<std::size_t>(nm.second), row_of_length(nm.first));
                      });
  return rc::Gen<std::vector<Row>>([generated](const rc::Random& random, int size) {
    return rc::shrinkable::shrinkRecur(generated(random, size).value(), &shrink_batch);
  });
}

}  // namespace detail

inline rc::Gen<std::vector<Row>> finite_batch() {
  return detail::batch_of([](std::int64_t n) { return finite_row(n); });
}

inline rc::Gen<std::vector<Row>> special_batch() {
  return detail::batch_of([](std::int64_t n) { return special_row(n); });
}

inline const char* row_class(const Row& row) {
  if (row.empty()) return "empty";
  bool neg_inf = false, subnormal = false, flt_max = false;
  for (float x : row) {
    if (std::isnan(x)) return "nan";
    if (x == std::numeric_limits<float>::infinity()) return "+inf";
    neg_inf |= x == -std::numeric_limits<float>::infinity();
    subnormal |= x != 0 && std::fabs(x) < FLT_MIN;
    flt_max |= std::fabs(x) == FLT_MAX;
  }
  if (std::all_of(row.begin(), row.end(), [](float x) { return std::isinf(x); })) return "all -inf";
  if (neg_inf) return "has -inf";
  if (subnormal) return "subnormal";
  if (flt_max) return "FLT_MAX";
  const float m = *std::max_element(row.begin(), row.end());
  if (std::count(row.begin(), row.end(), m) > 1) return "ties max";
  return "finite";
}

}  // namespace osvs::gen
