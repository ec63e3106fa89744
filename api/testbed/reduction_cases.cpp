// State reductions' cases for the law runs (kind_cases.h): rows in the reduction's declared
// domain (ties, mixed magnitudes, a large common offset; short rows and rows past 255 elements,
// where a narrow counter wraps) under random schedules, with values of the special grid mixed in
// for the CPU model law; the special values law's grid; and the
// reductions of a failing case: the one-chunk schedule, fewer elements, simpler values.
#include <cmath>
#include <limits>

#include "kind_cases.h"
#include "osvs/kernels/block_schedule.h"  // kWarpSize, which gen/schedules.hpp reads
#include "osvs/properties/gen/schedules.h"

namespace osvs::testbed {
namespace {

/// The exponent e with 2^e <= max_abs < 2^(e+1).
int top_exponent(float max_abs) {
  int e = 0;
  std::frexp(max_abs, &e);
  return e - 1;
}

/// x clamped into [-max_abs, max_abs].
float clamped(double x, float max_abs) {
  return static_cast<float>(std::fmax(-max_abs, std::fmin(static_cast<double>(max_abs), x)));
}

/// A value of mixed magnitude: a 24-bit significand at an exponent from 2^-30 up to the domain.
rc::Gen<float> dyadic(float max_abs) {
  const int top = top_exponent(max_abs);
  return rc::gen::map(rc::gen::pair(rc::gen::inRange(-(1 << 24) + 1, 1 << 24),
                                    rc::gen::inRange(-30 - 24, top - 23)),
                      [max_abs](const std::pair<int, int>& p) {
                        return clamped(std::ldexp(static_cast<double>(p.first), p.second), max_abs);
                      });
}

/// A row of `n` values of one style: small integers (ties), mixed magnitudes, or a large common
/// offset plus small integers (a mean far from 0, a spread of a few units).
std::vector<float> domain_row(float max_abs, int n) {
  const int style = *rc::gen::inRange(0, 3);
  if (style == 0)
    return *rc::gen::container<std::vector<float>>(
        static_cast<std::size_t>(n),
        rc::gen::map(rc::gen::inRange(-8, 9), [](int i) { return static_cast<float>(i); }));
  if (style == 1)
    return *rc::gen::container<std::vector<float>>(static_cast<std::size_t>(n), dyadic(max_abs));
  const int top = top_exponent(max_abs);
  const double offset =
      std::ldexp(*rc::gen::inRange(1 << 22, 1 << 23), top - 23 - *rc::gen::inRange(0, 4)) *
      (*rc::gen::arbitrary<bool>() ? 1 : -1);
  std::vector<float> row;
  for (int step :
       *rc::gen::container<std::vector<int>>(static_cast<std::size_t>(n), rc::gen::inRange(-4, 5)))
    row.push_back(clamped(offset + step, max_abs));
  return row;
}

/// The special values law's grid: -inf, -max_abs, -1, -0, +0, the smallest subnormal, 1,
/// max_abs, +inf, NaN.
ReductionCase special_grid(float max_abs) {
  const float inf = std::numeric_limits<float>::infinity();
  ReductionCase c;
  c.schedule.row = {-inf,      -max_abs, -1.0f,   -0.0f, 0.0f,
                    0x1p-149f, 1.0f,     max_abs, inf,   std::numeric_limits<float>::quiet_NaN()};
  c.schedule.chunk_offsets = {0, static_cast<std::int64_t>(c.schedule.row.size())};
  c.schedule.slot_chunk = {0};
  return c;
}

/// row with about one element in eight replaced by a value of the special values law's grid
/// (the CPU model law compares bits, NaNs' and signed zeros' included).
std::vector<float> with_specials(std::vector<float> row, float max_abs) {
  const std::vector<float> grid = special_grid(max_abs).schedule.row;
  for (float& x : row)
    if (*rc::gen::inRange(0, 8) == 0)
      x = grid[static_cast<std::size_t>(*rc::gen::inRange<std::size_t>(0, grid.size()))];
  return row;
}

/// h without the elements [first, first + count): every chunk keeps the rest of its own.
HarnessCase without_elements(const HarnessCase& h, std::int64_t first, std::int64_t count) {
  HarnessCase out = h;
  out.row.erase(out.row.begin() + first, out.row.begin() + first + count);
  for (std::int64_t& o : out.chunk_offsets)
    o = o <= first ? o : (o >= first + count ? o - count : first);
  return out;
}

}  // namespace

rc::Gen<ReductionCase> law_cases(const ReductionKernel& k, const ReductionLaw& law) {
  const float max_abs = k.max_abs();
  if (law.name == "special_values") return rc::gen::just(special_grid(max_abs));
  const bool sequential = law.name == "accuracy";
  const bool specials = law.name == "cpu_model";
  return rc::gen::exec([max_abs, sequential, specials] {
    const int n = *rc::gen::weightedOneOf<int>(
        {{8, rc::gen::inRange(0, 41)}, {1, rc::gen::inRange(250, 600)}});
    ReductionCase c;
    c.schedule = sequential ? whole_row_schedule({}) : *gen::schedule(n);
    c.schedule.row = domain_row(max_abs, n);
    if (specials) c.schedule.row = with_specials(std::move(c.schedule.row), max_abs);
    if (sequential) c.schedule.chunk_offsets = {0, n};
    return c;
  });
}

void reduce_case(const ReductionKernel&, const ReductionCase& smallest,
                 const Reduction<ReductionCase>& r) {
  if (smallest.schedule.slot_chunk.size() > 1)
    r.accept({whole_row_schedule(smallest.schedule.row)});
  for (auto block = static_cast<std::int64_t>(smallest.schedule.row.size()) / 2;
       block >= 1 && !r.out_of_time(); block /= 2)
    for (std::int64_t first = 0;
         first + block <= static_cast<std::int64_t>(smallest.schedule.row.size()) &&
         !r.out_of_time();)
      if (!r.accept({without_elements(smallest.schedule, first, block)})) first += block;
  for (std::size_t j = 0; j < smallest.schedule.row.size() && !r.out_of_time(); ++j)
    for (float simpler : {0.0f, 1.0f, std::trunc(smallest.schedule.row[j])}) {
      if (simpler == smallest.schedule.row[j] || std::isnan(smallest.schedule.row[j])) continue;
      ReductionCase candidate = smallest;
      candidate.schedule.row[j] = simpler;
      if (r.accept(candidate)) break;
    }
}

}  // namespace osvs::testbed
