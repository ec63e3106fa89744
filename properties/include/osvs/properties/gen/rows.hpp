// Implementation of gen/rows.h.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "osvs/properties/gen/floats.h"

namespace osvs::gen {

namespace detail {

/// Lengths from `shortest` on: the warp and block boundaries, short and medium lengths that grow
/// with RapidCheck's size, and long rows (long_row_length); every length shrinks toward
/// `shortest` through all smaller lengths.
inline rc::Gen<std::int64_t> lengths_from(std::int64_t shortest) {
  std::vector<std::int64_t> boundaries;
  for (std::int64_t n : {0, 1, 31, 32, 33, 255, 256, 257})
    if (n >= shortest) boundaries.push_back(n);
  const auto lengths = rc::gen::withSize([boundaries, shortest](int size) {
    // Long rows grow in number and in length with the size (long_row_length); none at size 0.
    const auto long_weight = static_cast<std::size_t>(
        kLongRowWeight * std::clamp(size, 0, kLongRowFullSize) / kLongRowFullSize);
    return rc::gen::weightedOneOf<std::int64_t>({
        {40, rc::gen::elementOf(boundaries)},
        {50, rc::gen::inRange<std::int64_t>(shortest, shortest + 2 + std::int64_t{size} * 8)},
        // inRange scales its range with the size too: up to ~4000 at size 100.
        {10, rc::gen::inRange<std::int64_t>(
                 shortest, std::min<std::int64_t>(shortest + 64 + std::int64_t{size} * 40,
                                                  kMaxRowLength + 1))},
        {long_weight, long_row_length()},
    });
  });
  return rc::Gen<std::int64_t>([lengths, shortest](const rc::Random& random, int size) {
    return rc::shrinkable::shrinkRecur(lengths(random, size).value(), [shortest](std::int64_t n) {
      return rc::shrink::towards<std::int64_t>(n, shortest);
    });
  });
}

}  // namespace detail

inline rc::Gen<std::int64_t> long_row_length() {
  return rc::gen::withSize([](int size) {
    // The longest row grows geometrically with the size: 2^10 at size 0, kLongRowLength at
    // kLongRowFullSize and beyond; the length is uniform in its upper half, so that the longest
    // rows are drawn at the largest sizes only.
    const double grown =
        static_cast<double>(std::clamp(size, 0, kLongRowFullSize)) / kLongRowFullSize;
    const auto longest = static_cast<std::int64_t>(std::exp2(
        kShortestLongRowExponent + (kLongRowExponent - kShortestLongRowExponent) * grown));
    return rc::gen::map(rc::gen::arbitrary<std::uint32_t>(), [longest](std::uint32_t u) {
      return longest / 2 + static_cast<std::int64_t>(u % (longest / 2 + 1));
    });
  });
}

inline rc::Gen<std::int64_t> row_length() {
  return detail::lengths_from(0);
}

inline rc::Gen<std::int64_t> nonempty_row_length() {
  return detail::lengths_from(1);
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

inline rc::Gen<Row> nonempty_finite_row() {
  return rc::gen::mapcat(nonempty_row_length(), [](std::int64_t n) { return finite_row(n); });
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

/// The columns of [0, n) left after removing one chunk: chunks of n/2 first, then n/4, ..., then
/// single columns (at most 2n candidates, largest first, so that a long row halves quickly where
/// removing every contiguous chunk would take n^2 / 2 candidates). Candidates keeping fewer than
/// `at_least` columns are left out.
inline rc::Seq<std::vector<std::size_t>> chunk_removals(std::size_t n, std::size_t at_least) {
  return rc::Seq<std::vector<std::size_t>>(
      [n, at_least, chunk = std::max<std::size_t>(n / 2, 1),
       start = std::size_t{0}]() mutable -> rc::Maybe<std::vector<std::size_t>> {
        while (n > 0) {
          if (start >= n) {
            if (chunk == 1) return rc::Nothing;
            chunk /= 2;
            start = 0;
            continue;
          }
          const std::size_t begin = start, end = std::min(n, start + chunk);
          start = end;
          if (n - (end - begin) < at_least) continue;
          std::vector<std::size_t> keep;
          keep.reserve(n - (end - begin));
          for (std::size_t j = 0; j < n; ++j)
            if (j < begin || j >= end) keep.push_back(j);
          return keep;
        }
        return rc::Nothing;
      });
}

/// The shrinks of a batch of equal-length rows, by value (Hypothesis style): fewer rows, then the
/// same columns removed from every row (keeping at least `min_columns`), then one element simpler
/// (shrink_float). Removing elements keeps the others, so a long failing row shrinks to the few
/// elements that matter.
inline rc::Seq<std::vector<Row>> shrink_batch(const std::vector<Row>& b, std::size_t min_columns) {
  const std::size_t n = b.empty() ? 0 : b.front().size();
  auto fewer_rows = rc::seq::filter(rc::shrink::removeChunks(b),
                                    [](const std::vector<Row>& r) { return !r.empty(); });
  auto fewer_columns =
      rc::seq::map(chunk_removals(n, min_columns), [b](const std::vector<std::size_t>& keep) {
        std::vector<Row> out;
        for (const Row& row : b) {
          Row kept;
          kept.reserve(keep.size());
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

/// 1..4 rows of one length drawn from `lengths`, each from row_of_length; shrinking keeps at least
/// one column when the lengths are non-empty.
inline rc::Gen<std::vector<Row>> batch_of(rc::Gen<Row> (*row_of_length)(std::int64_t),
                                          rc::Gen<std::int64_t> lengths, std::size_t min_columns) {
  const auto generated =
      rc::gen::mapcat(rc::gen::pair(std::move(lengths), rc::gen::inRange(1, kMaxRows + 1)),
                      [row_of_length](std::pair<std::int64_t, int> nm) {
                        return rc::gen::container<std::vector<Row>>(
                            static_cast<std::size_t>(nm.second), row_of_length(nm.first));
                      });
  return rc::Gen<std::vector<Row>>([generated, min_columns](const rc::Random& random, int size) {
    return rc::shrinkable::shrinkRecur(
        generated(random, size).value(),
        [min_columns](const std::vector<Row>& b) { return shrink_batch(b, min_columns); });
  });
}

}  // namespace detail

inline rc::Gen<std::vector<Row>> finite_batch() {
  return detail::batch_of([](std::int64_t n) { return finite_row(n); }, nonempty_row_length(), 1);
}

inline rc::Gen<std::vector<Row>> special_batch() {
  return detail::batch_of([](std::int64_t n) { return special_row(n); }, row_length(), 0);
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

inline const char* length_class(std::int64_t n) {
  if (n < 1024) return "n < 1024";
  return n < (std::int64_t{1} << 16) ? "1024 <= n < 2^16" : "n >= 2^16";
}

}  // namespace osvs::gen
