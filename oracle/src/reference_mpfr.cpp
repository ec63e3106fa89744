// The MPFR reference path (Boost.Multiprecision over MPFR) with a Ziv loop.
//
// Error analysis at working precision p (u = 2^-p, every operation rounded to nearest; MPFR's
// exponent range is wide enough that nothing underflows). Elements with x_j - m >= -kMpfrGap
// enter d; the others (each < e^-1024 < 2^-1477 and d >= 1) are left out.
//   t = x_j - m            |t - g| <= u |g| <= 1024 u; e^t = e^g e^(t-g)             rel 1024 u
//   e = exp(t)             correctly rounded: u                              rel <= 1026 u = eps_e
//   d = sum of e_i         n - 1 roundings of positive terms, left-out < n 2^-1477
//                                                     rel <= 1.01 (n + 1026) u + n 2^-1477 = eps_d
//   y = e_j / d            one rounding          rel <= 1.02 (n + 2053) u + 1.01 n 2^-1477 = eps_y
// (the factors 1.01 and 1.02 bound products of (1 + k u) for (n + 2053) u <= 2^-20.)
// The rounding to float is decided when both ends of [y (1 - 2 eps_y), y (1 + 2 eps_y)] (each
// rounded at precision p: relative u, far inside the doubled eps_y) round to the same float with
// mpfr_get_flt (correct rounding to binary32, subnormals included).
//
// The binade of y_j is decided alike: when lo and hi lie in one binade (mpfr_get_exp), so does
// y_j. An element equal to the maximum whose binade is known exactly (binade_of_maximum in
// reference_common.h) takes that one: its y_j may be a power of two, or lie below one by less than
// the terms left out of d, and no interval decides either.
//
// Why the loop ends: y_j = e^(x_j - m) / sum_i e^(x_i - m) is rational only when every finite
// element equals m (Lindemann-Weierstrass: e^a for distinct algebraic a are linearly independent
// over the algebraic numbers), and then y_j = 1/k is not a midpoint between floats (a midpoint is
// an odd multiple of a power of two over 2^25; 1/k is a power of two or not dyadic). So y_j sits
// at a positive distance from every rounding boundary and a finite precision decides it; the last
// rung of kZivDigits (about 2126 bits) is limited only by the left-out terms (2^-1477). The same
// argument keeps y_j away from every power of two unless y_j = 1/c with c a power of two, which
// binade_of_maximum decides (any element below m makes y_j irrational; an element equal to m has
// y_j = 1/(c + S), S a sum of e^(x_i - m) over the elements below m, which is 2^-k only if S = 0).
#include <algorithm>
#include <boost/multiprecision/mpfr.hpp>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include "mpfr_decide.h"
#include "mpfr_thread_caches.h"
#include "osvs/oracle/element_chunks.h"
#include "osvs/oracle/ulp.h"
#include "reference_common.h"

namespace osvs::oracle {
namespace {

namespace bmp = boost::multiprecision;

using detail::free_mpfr_caches_at_thread_exit;
constexpr double kMpfrGap = 1024.0;

template <unsigned Digits10>
using Real = bmp::number<bmp::mpfr_float_backend<Digits10>, bmp::et_off>;

bool in_mpfr_sum(float x, float m) {
  return static_cast<double>(x) - static_cast<double>(m) >= -kMpfrGap;
}

/// One rung's values: d over the whole row and e_j for the elements `which` (ascending) whose
/// rounding is asked. The exps and the partial sums of d run in fixed chunks of the row
/// (element_chunks.h), on `loops` when given, and the chunks' sums are added in chunk order: the
/// same d in every run. Any order of adding n positive terms makes at most n - 1 roundings, so
/// eps_d above holds for this one too.
template <unsigned Digits10>
struct Level {
  using R = Real<Digits10>;
  std::vector<std::int64_t> which;
  std::vector<R> e;  // exp(x_j - m) of which[i], 0 for left-out elements
  R d;
  R eps_y;  // in R: 2^-p and 2^-1477 underflow a double

  Level(const float* x, std::int64_t n, float m, std::vector<std::int64_t> asked,
        const IndexLoop* loops)
      : which(std::move(asked)), e(which.size()), d(0) {
    const R rm(m);  // exact: p >= 24
    std::vector<R> partial(static_cast<std::size_t>(element_chunk_count(n)), R(0));
    run_element_chunks(loops, n, [&](std::int64_t begin, std::int64_t end) {
      free_mpfr_caches_at_thread_exit();
      auto next = std::lower_bound(which.begin(), which.end(), begin);
      R sum(0);
      for (std::int64_t j = begin; j < end; ++j) {
        const bool asked_here = next != which.end() && *next == j;
        if (in_mpfr_sum(x[j], m)) {
          const R ej = exp(R(x[j]) - rm);
          sum += ej;
          if (asked_here) e[static_cast<std::size_t>(next - which.begin())] = ej;
        }
        if (asked_here) ++next;
      }
      partial[static_cast<std::size_t>(begin / kElementChunk)] = sum;
    });
    for (const R& p : partial) d += p;
    const long p = mpfr_get_prec(d.backend().data());
    const R nd(static_cast<double>(n));
    const R u = ldexp(R(1), static_cast<int>(-p));
    if ((nd + 2053) * u > ldexp(R(1), -20))
      throw std::invalid_argument("reference: row too long for the MPFR working precision");
    eps_y = R(1.02) * (nd + 2053) * u + R(1.01) * nd * ldexp(R(1), -1477);
  }

  /// y of the i-th asked element.
  R y(std::size_t i) const { return e[i] / d; }

  /// The float nearest y_j and the binade of y_j (unless `known`) of the i-th asked element,
  /// when this precision decides both.
  bool decide(std::size_t i, std::optional<int> known, float* rounded, int* binade) const {
    const R yj = y(i);
    const R lo = yj * (1 - 2 * eps_y);
    const R hi = yj * (1 + 2 * eps_y);
    const float flo = mpfr_get_flt(lo.backend().data(), MPFR_RNDN);
    const float fhi = mpfr_get_flt(hi.backend().data(), MPFR_RNDN);
    if (flo != fhi) return false;
    if (!known && binade_of_positive(lo) != binade_of_positive(hi)) return false;
    *rounded = flo;
    *binade = known ? *known : binade_of_positive(lo);
    return true;
  }

 private:
  /// max(floor(log2 v), -126) for v > 0: MPFR writes v = f 2^e with f in [1/2, 1).
  static int binade_of_positive(const R& v) {
    const long e = mpfr_get_exp(v.backend().data()) - 1;
    return static_cast<int>(std::max<long>(e, detail::kLowestBinade));
  }
};

/// The outputs a rung decides: the rounding and the binade of each pending element.
struct Decisions {
  std::vector<float>& y_rounded;
  std::vector<int>& y_binade;
};

/// Decides what `level`'s precision can of the elements `subset` (ascending, each one the level
/// was asked for); returns the others.
template <unsigned Digits10>
std::vector<std::int64_t> decide_with(const Level<Digits10>& level,
                                      const std::vector<std::int64_t>& subset, const float* x,
                                      std::int64_t n, float m, Decisions out) {
  const std::optional<int> max_binade = detail::binade_of_maximum(detail::maximum_ties(x, n, m));
  std::vector<std::int64_t> still;
  auto at = level.which.begin();
  for (std::int64_t j : subset) {
    at = std::lower_bound(at, level.which.end(), j);
    const auto k = static_cast<std::size_t>(j);
    if (!level.decide(static_cast<std::size_t>(at - level.which.begin()),
                      detail::known_binade(x[k], m, max_binade), &out.y_rounded[k],
                      &out.y_binade[k]))
      still.push_back(j);
  }
  return still;
}

template <unsigned Digits10>
void decide_level(const float* x, std::int64_t n, float m, std::vector<std::int64_t>& pending,
                  Decisions out, const IndexLoop* loops) {
  const Level<Digits10> level(x, n, m, pending, loops);
  pending = decide_with(level, level.which, x, n, m, out);
}

/// Runs rung `rung` of the ladder (a run-time index into kZivDigits).
void decide_rung(std::size_t rung, const float* x, std::int64_t n, float m,
                 std::vector<std::int64_t>& pending, Decisions out, const IndexLoop* loops) {
  switch (rung) {
    case 0:
      return decide_level<detail::kZivDigits[0]>(x, n, m, pending, out, loops);
    case 1:
      return decide_level<detail::kZivDigits[1]>(x, n, m, pending, out, loops);
    case 2:
      return decide_level<detail::kZivDigits[2]>(x, n, m, pending, out, loops);
    case 3:
      return decide_level<detail::kZivDigits[3]>(x, n, m, pending, out, loops);
    case 4:
      return decide_level<detail::kZivDigits[4]>(x, n, m, pending, out, loops);
  }
  throw std::logic_error("reference: no such Ziv rung");
}

std::vector<std::int64_t> significant_elements(const float* x, std::int64_t n, float m,
                                               std::vector<float>& y_rounded) {
  std::vector<std::int64_t> which;
  for (std::int64_t j = 0; j < n; ++j) {
    if (detail::negligible(x[j], m))
      y_rounded[static_cast<std::size_t>(j)] = 0.0f;  // y_j < 2^-184.6 (reference_common.h)
    else
      which.push_back(j);
  }
  return which;
}

/// d, lse and y (as doubles) of a Finite row from the first rung's values (every element asked).
void fill_doubles(const Level<detail::kZivDigits[0]>& level, RowReference& r) {
  r.d = static_cast<double>(level.d);  // eps_y + 2^-53 relative
  r.lse = static_cast<double>(Real<detail::kZivDigits[0]>(r.m) + log(level.d));
  for (std::size_t i = 0; i < level.which.size(); ++i)
    r.y[static_cast<std::size_t>(level.which[i])] = static_cast<double>(level.y(i));
}

/// 0, 1, ..., n - 1.
std::vector<std::int64_t> every_element(std::int64_t n) {
  std::vector<std::int64_t> all(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) all[static_cast<std::size_t>(j)] = j;
  return all;
}

int rung_of_digits(int digits10) {
  for (std::size_t i = 0; i < std::size(detail::kZivDigits); ++i)
    if (static_cast<int>(detail::kZivDigits[i]) == digits10) return static_cast<int>(i);
  throw std::invalid_argument("reference: digits10 must be one of 40, 80, 160, 320, 640 (got " +
                              std::to_string(digits10) + ")");
}

RowReference finite_skeleton(const float* x, std::int64_t n) {
  RowReference r;
  r.kind = RowKind::Finite;
  r.m = detail::row_max(x, n);
  r.y.resize(static_cast<std::size_t>(n));
  r.y_rounded.resize(static_cast<std::size_t>(n));
  r.y_binade.assign(static_cast<std::size_t>(n), detail::kLowestBinade);  // negligible elements'
  return r;
}

}  // namespace

namespace detail {

void mpfr_decide(const float* x, std::int64_t n, float m, const std::vector<std::int64_t>& which,
                 std::vector<float>& y_rounded, std::vector<int>& y_binade, std::size_t first_rung,
                 const IndexLoop* loops) {
  free_mpfr_caches_at_thread_exit();
  std::vector<std::int64_t> pending = which;
  for (std::size_t rung = first_rung; rung < std::size(kZivDigits) && !pending.empty(); ++rung)
    decide_rung(rung, x, n, m, pending, Decisions{y_rounded, y_binade}, loops);
  if (!pending.empty())
    throw std::runtime_error("reference: rounding or binade of element " +
                             std::to_string(pending[0]) +
                             " undecided at the highest working precision");
}

}  // namespace detail

RowReference reference_row_mpfr(const float* x, std::int64_t n) {
  free_mpfr_caches_at_thread_exit();
  const RowKind kind = classify_row(x, n);
  if (kind != RowKind::Finite) return detail::special_reference(kind, n);
  RowReference r = finite_skeleton(x, n);
  const Level<detail::kZivDigits[0]> first(x, n, r.m, every_element(n), nullptr);
  fill_doubles(first, r);
  const std::vector<std::int64_t> pending =
      decide_with(first, significant_elements(x, n, r.m, r.y_rounded), x, n, r.m,
                  Decisions{r.y_rounded, r.y_binade});
  detail::mpfr_decide(x, n, r.m, pending, r.y_rounded, r.y_binade, 1);
  detail::place_in_binades(r);
  return r;
}

RowReference reference_row_mpfr_at(const float* x, std::int64_t n, int digits10,
                                   std::vector<std::int64_t>* undecided) {
  free_mpfr_caches_at_thread_exit();
  const int rung = rung_of_digits(digits10);
  const RowKind kind = classify_row(x, n);
  if (kind != RowKind::Finite) return detail::special_reference(kind, n);
  RowReference r = finite_skeleton(x, n);
  fill_doubles(Level<detail::kZivDigits[0]>(x, n, r.m, every_element(n), nullptr), r);
  auto pending = significant_elements(x, n, r.m, r.y_rounded);
  decide_rung(static_cast<std::size_t>(rung), x, n, r.m, pending,
              Decisions{r.y_rounded, r.y_binade}, nullptr);
  for (std::int64_t j : pending)  // undecided: the double's own binade, provisionally
    r.y_binade[static_cast<std::size_t>(j)] = binade_of(r.y[static_cast<std::size_t>(j)]);
  detail::place_in_binades(r);
  if (undecided) *undecided = pending;
  return r;
}

}  // namespace osvs::oracle
