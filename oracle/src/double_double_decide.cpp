// Error analysis (u = 2^-53; eta = kExpGapDdRelErr = 2^-96, the error of each term):
//   E_j = exp_gap_dd(x_j, m)   for the elements the double path keeps in d (not negligible); the
//                              others (each < 2^-184.6 of d >= 1, reference_common.h) left out
//   d = sum of the E_j         dd_add of positive terms, 3.02 u^2 of each partial sum, in fixed
//                              chunks and the chunks' sums in chunk order: n - 1 additions, so
//                              with D the exact softmax denominator |d - D| <= delta D,
//                              delta = eta + 1.01 (n - 1) 3.02 u^2 + n 2^-184.6 + products
//                                    <= 2^-76.3 for n <= kMaxReferenceRow = 2^28
// y_j = e^(x_j - m) / D. A threshold mu > 0 (a midpoint between two floats, or a power of two) is
// compared with y_j through Delta = E_j - mu d, computed as dd_add(E_j, -dd_mul(d, mu)) with an
// absolute error below (8.05 u^2 mu d + 3.02 u^2 (E_j + mu d)) 1.01 <= 11.2 u^2 (E_j + mu d):
//   y_j > mu  when  Delta > (eta + 2 delta)(E_j + mu d), since e^(x_j - m) >= E_j (1 - eta) and
//             D <= d (1 + 2 delta);  y_j < mu  when  -Delta > (eta + 2 delta)(E_j + mu d).
// The computed Delta's high part above tau (E_j.h + mu d.h), tau = 2^-70, proves it: tau / 2 >=
// eta + 2 delta + 11.2 u^2, and the other half covers reading Delta, E_j and d off their high
// parts (relative u each) and the margin's three roundings in double.
// An element is decided when y_j lies strictly between the two midpoints around one float f (it
// rounds to f, ties never arise) and strictly inside one binade [2^b, 2^(b+1)) (or b is known,
// binade_of_maximum): the candidates f and b come from E_j.h / d.h, and only the comparisons
// above decide. What they cannot prove (y_j within about 2^-70 of a threshold, or exactly on a
// power of two) is left to MPFR, whose Ziv loop ends (reference_mpfr.cpp).
#include "double_double_decide.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "double_double.h"
#include "exp_double_double.h"
#include "osvs/oracle/element_chunks.h"
#include "osvs/oracle/ulp.h"
#include "reference_common.h"

namespace osvs::oracle::detail {
namespace {

constexpr double kTau = 0x1p-70;

/// The row's d and the E_j of the asked elements; ok is false when some exp_gap_dd refused.
struct DdRow {
  DoubleDouble d;
  std::vector<DoubleDouble> e;  // of which[i]
  bool ok = true;
};

DdRow dd_row(const float* x, std::int64_t n, float m, const std::vector<std::int64_t>& which,
             const IndexLoop* loops) {
  DdRow row;
  row.e.resize(which.size());
  const auto chunks = static_cast<std::size_t>(element_chunk_count(n));
  std::vector<DoubleDouble> partial(chunks);
  std::vector<char> refused(chunks, 0);
  run_element_chunks(loops, n, [&](std::int64_t begin, std::int64_t end) {
    const auto c = static_cast<std::size_t>(begin / kElementChunk);
    auto next = std::lower_bound(which.begin(), which.end(), begin);
    DoubleDouble sum;
    for (std::int64_t j = begin; j < end; ++j) {
      if (negligible(x[j], m)) continue;  // never asked (the double path rounds them to 0)
      DoubleDouble e;
      if (!exp_gap_dd(x[j], m, &e)) {
        refused[c] = 1;
        return;
      }
      sum = dd_add(sum, e);
      if (next != which.end() && *next == j)
        row.e[static_cast<std::size_t>(next++ - which.begin())] = e;
    }
    partial[c] = sum;
  });
  for (std::size_t c = 0; c < chunks; ++c) {
    row.ok = row.ok && !refused[c];
    row.d = dd_add(row.d, partial[c]);
  }
  return row;
}

/// Proves y > mu (above = true) or y < mu (above = false) for y = e / d (see the analysis).
bool proves(DoubleDouble e, DoubleDouble d, double mu, bool above) {
  if (mu <= 0) return above;  // y > 0 >= mu
  const DoubleDouble delta = dd_add(e, dd_neg(dd_mul(d, mu)));
  const double margin = kTau * (e.h + mu * d.h);
  return above ? delta.h > margin : -delta.h > margin;
}

/// The midpoint between float f and its neighbour towards `to` (exact in double).
double midpoint(float f, float to) {
  return (static_cast<double>(f) + static_cast<double>(std::nextafter(f, to))) / 2;
}

}  // namespace

std::vector<std::int64_t> double_double_decide(const float* x, std::int64_t n, float m,
                                               const std::vector<std::int64_t>& which,
                                               const std::optional<int>& max_binade,
                                               std::vector<float>& y_rounded,
                                               std::vector<int>& y_binade, const IndexLoop* loops) {
  if (which.empty() || n > kMaxReferenceRow) return which;
  const DdRow row = dd_row(x, n, m, which, loops);
  if (!row.ok) return which;
  std::vector<std::int64_t> still;
  for (std::size_t i = 0; i < which.size(); ++i) {
    const auto j = static_cast<std::size_t>(which[i]);
    const DoubleDouble e = row.e[i];
    const double guess = e.h / row.d.h;
    const auto f = static_cast<float>(guess);
    const bool rounds = proves(e, row.d, midpoint(f, -INFINITY), true) &&
                        proves(e, row.d, midpoint(f, INFINITY), false);
    const std::optional<int> known = known_binade(x[j], m, max_binade);
    const int b = known ? *known : binade_of(guess);
    const bool in_binade =
        known || ((b == kLowestBinade || proves(e, row.d, exact_pow2(b), true)) &&
                  proves(e, row.d, exact_pow2(b + 1), false));
    if (rounds && in_binade) {
      y_rounded[j] = f;
      y_binade[j] = b;
    } else {
      still.push_back(which[i]);
    }
  }
  return still;
}

}  // namespace osvs::oracle::detail
