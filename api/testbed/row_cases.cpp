#include "osvs/api/row_cases.h"

#include "large_batch_law.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "osvs/api/row_layouts.h"
#include "osvs/properties/gen/rows.h"

namespace osvs::testbed {
namespace {

/// The lengths a kernel's structure makes interesting: 1 ... 3, and w k - 1, w k, w k + 1 for
/// its vector width, its block, 32 (a warp) and powers of two up to 2^16.
std::vector<std::int64_t> boundary_lengths(const RowKernel& k) {
  std::vector<std::int64_t> widths = {32, k.traits().vector_width};
  if (k.traits().block > 0) widths.push_back(k.traits().block);
  std::vector<std::int64_t> out = {1, 2, 3};
  for (std::int64_t w : widths)
    for (std::int64_t mult : {1, 2, 3, 8})
      for (std::int64_t d : {-1, 0, 1}) out.push_back(w * mult + d);
  for (int e = 2; e <= 16; ++e)
    for (std::int64_t d : {-1, 0, 1}) out.push_back((std::int64_t{1} << e) + d);
  // The declared layouts' edges up to 2^16 among the random draws too (longer ones would cost
  // each run their oracle evaluations many times over: layout_cases judges each once).
  for (const LayoutLength& l : layout_lengths(k))
    if (l.cols <= std::int64_t{1} << 16) out.push_back(l.cols);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  const std::int64_t cap = k.traits().max_cols;
  out.erase(
      std::remove_if(out.begin(), out.end(), [cap](std::int64_t n) { return n < 1 || n > cap; }),
      out.end());
  return out;
}

/// Magnitude limit of generated values: an f16 output keeps |y| < 65504 for log-softmax.
float value_limit(const RowKernel& k) {
  if (k.out_type() == DType::F16 || k.in_type() == DType::F16) return 16384.0f;
  return INFINITY;
}

/// x made exact in the kernel's input type, staying finite where the type overflows.
float to_input(const RowKernel& k, float x) {
  const float lim = value_limit(k);
  if (std::isfinite(x) && std::fabs(x) > lim) x = std::copysign(lim, x);
  return round_to(k.in_type(), x);
}

Rows to_inputs(const RowKernel& k, Rows rows) {
  for (auto& r : rows)
    for (float& x : r) x = to_input(k, x);
  return rows;
}

rc::Gen<Rows> batch(const RowKernel& k, bool special) {
  const RowKernel* kp = &k;
  const auto lengths = row_length(k, special);
  return rc::gen::exec([kp, lengths, special] {
    const std::int64_t n = *lengths;
    const auto row = special ? rc::gen::weightedOneOf<std::vector<float>>(
                                   {{1, gen::finite_row(n)}, {2, gen::special_row(n)}})
                             : gen::finite_row(n);
    const auto count = *rc::gen::inRange<std::size_t>(1, 4);
    return to_inputs(*kp, *rc::gen::container<Rows>(count, row));
  });
}

/// A row on the grid q 2^s (|q| < 2^(p - 2)) and a shift on the same grid: every x_j + c is then
/// exact in a type of p significand bits (|x_j + c| < 2^(p - 1) 2^s), whatever s is; s reaches
/// far beyond |x| < 128 (2^40 for f32 and bf16).
rc::Gen<RowCase> shift_case(const RowKernel& k) {
  const int p = precision_of(k.in_type());
  const int s_max = k.in_type() == DType::F16 || k.out_type() == DType::F16 ? 2 : 40;
  const auto lengths = row_length(k, false);
  return rc::gen::exec([p, s_max, lengths] {
    const std::int64_t n = *lengths;
    const std::int64_t q_max = (std::int64_t{1} << (p - 2)) - 1;
    const int s = *rc::gen::inRange(-12, s_max + 1);
    const auto qs = *rc::gen::container<std::vector<std::int64_t>>(
        static_cast<std::size_t>(n), rc::gen::inRange(-q_max, q_max + 1));
    const auto qc = *rc::gen::inRange(-q_max, q_max + 1);
    RowCase c;
    std::vector<float> row;
    for (std::int64_t q : qs) row.push_back(std::ldexp(static_cast<float>(q), s));
    c.rows = {row};
    c.shift = std::ldexp(static_cast<float>(qc), s);
    return c;
  });
}

/// A permutation built from a rotation, an optional reversal and generated swaps: it shrinks
/// toward the identity (fewer swaps, no rotation, no reversal).
rc::Gen<RowCase> permutation_case(const RowKernel& k) {
  const auto rows = batch(k, false);
  return rc::gen::exec([rows] {
    RowCase c;
    c.rows = {(*rows)[0]};
    const auto n = static_cast<std::int64_t>(c.rows[0].size());
    std::vector<std::int64_t> p(static_cast<std::size_t>(n));
    std::iota(p.begin(), p.end(), 0);
    std::rotate(p.begin(), p.begin() + *rc::gen::inRange<std::int64_t>(0, n), p.end());
    if (*rc::gen::arbitrary<bool>()) std::reverse(p.begin(), p.end());
    const auto swaps = *rc::gen::container<std::vector<std::pair<std::int64_t, std::int64_t>>>(
        rc::gen::pair(rc::gen::inRange<std::int64_t>(0, n), rc::gen::inRange<std::int64_t>(0, n)));
    for (auto [a, b] : swaps)
      std::swap(p[static_cast<std::size_t>(a)], p[static_cast<std::size_t>(b)]);
    c.permutation = p;
    return c;
  });
}

}  // namespace

rc::Gen<std::int64_t> row_length(const RowKernel& k, bool with_empty) {
  const auto boundaries = boundary_lengths(k);
  const std::int64_t cap = std::min<std::int64_t>(k.traits().max_cols, std::int64_t{1} << 16);
  const std::int64_t low = with_empty ? 0 : 1;
  return rc::gen::weightedOneOf<std::int64_t>({
      {3, rc::gen::elementOf(boundaries)},
      {5, rc::gen::withSize([low, cap](int size) {
         return rc::gen::inRange<std::int64_t>(low, std::min<std::int64_t>(cap, 2 + size * 8) + 1);
       })},
      // the long tail: up to 2^16 at full size, a few cases per run
      {1, rc::gen::withSize([low, cap](int size) {
         const std::int64_t top = std::min<std::int64_t>(cap, std::int64_t{1} << (6 + size / 10));
         return rc::gen::inRange<std::int64_t>(low, top + 1);
       })},
  });
}

rc::Gen<RowCase> row_case(const RowKernel& k, const std::string& law) {
  if (law == "large_batch") return rc::gen::just(api::large_batch_case(k));
  if (law == "shift_invariance") return shift_case(k);
  if (law == "permutation") return permutation_case(k);
  const bool special = law == "accuracy" || law == "determinism";
  const bool padded = law == "strided" && k.traits().strided;
  const bool batched = law == "batch_invariance";
  const auto rows = batch(k, special);
  return rc::gen::exec([rows, padded, batched] {
    RowCase c;
    c.rows = *rows;
    if (padded)
      c.layout = {*rc::gen::inRange<std::int64_t>(1, 9), *rc::gen::inRange<std::int64_t>(0, 9)};
    if (batched) {
      c.batch_rows = *rc::gen::inRange<std::int64_t>(1, 9);
      c.batch_position = *rc::gen::inRange<std::int64_t>(0, c.batch_rows);
    }
    return c;
  });
}

std::vector<RowCase> layout_cases(const RowKernel& k, const std::string& law) {
  if (law == "large_batch" || law == "shift_invariance" || law == "permutation") return {};
  std::vector<RowCase> out;
  for (const LayoutLength& l : layout_lengths(k)) {
    constexpr int kFullSize = 100;  // RapidCheck's default largest size: every style of row
    const rc::Random random(0x6c61796f7574ULL ^ static_cast<std::uint64_t>(l.cols));
    RowCase c;
    c.rows = to_inputs(k, {gen::finite_row(l.cols)(random, kFullSize).value()});
    if (law == "strided" && k.traits().strided) c.layout = {3, 5};
    if (law == "batch_invariance") {
      c.batch_rows = 3;
      c.batch_position = 1;
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace osvs::testbed
