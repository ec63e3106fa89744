#include "osvs/audit/error_stats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace osvs::audit {

const std::vector<double>& ulp_bin_edges() {
  static const std::vector<double> edges = [] {
    std::vector<double> e;
    for (int k = 1; k <= 4 * 64; ++k) e.push_back(k / 64.0);  // exact binary fractions
    for (double v = 4 * std::exp2(0.125); v <= 0x1p24; v *= std::exp2(0.125)) e.push_back(v);
    return e;
  }();
  return edges;
}

namespace {

/// Octaves of the bins above 4 ulps: the edges grow by 2^(1/8), so each octave [2^e, 2^(e+1))
/// holds about 8 of them.
constexpr int kFirstOctave = 2, kLastOctave = 24;

/// For e = kFirstOctave ... kLastOctave + 1, the first bin whose upper edge is >= 2^e (the
/// edges' end when none is).
const std::vector<std::ptrdiff_t>& octave_first_bins() {
  static const std::vector<std::ptrdiff_t> first = [] {
    const auto& edges = ulp_bin_edges();
    std::vector<std::ptrdiff_t> f;
    for (int e = kFirstOctave; e <= kLastOctave + 1; ++e)
      f.push_back(std::lower_bound(edges.begin(), edges.end(), std::ldexp(1.0, e)) - edges.begin());
    return f;
  }();
  return first;
}

/// The bin of an error above 4 ulps: the first edge >= ulp (the overflow bin when none is), that
/// is, the number of edges below ulp (they increase). For 2^e <= ulp < 2^(e+1) every edge before
/// first[e] is below 2^e <= ulp and every edge from first[e+1] on is >= 2^(e+1) > ulp, so only the
/// edges in between (about 8) need counting: the same bin as the search over all edges, without
/// its unpredictable branches. Errors from 2^kLastOctave on (and +inf) count the edges' tail.
std::ptrdiff_t bin_above_four(double ulp) {
  const auto& edges = ulp_bin_edges();
  const auto& first = octave_first_bins();
  const int e = std::clamp(std::ilogb(ulp), kFirstOctave, kLastOctave);  // ulp > 4: ilogb >= 2
  const std::ptrdiff_t begin = first[static_cast<std::size_t>(e - kFirstOctave)];
  const std::ptrdiff_t end =
      e < kLastOctave ? first[static_cast<std::size_t>(e + 1 - kFirstOctave)] : std::ssize(edges);
  std::ptrdiff_t below = begin;
  for (std::ptrdiff_t k = begin; k < end; ++k) below += edges[static_cast<std::size_t>(k)] < ulp;
  return below;
}

}  // namespace

ErrorStats::ErrorStats() : counts_(ulp_bin_edges().size() + 1, 0) {}

void ErrorStats::add(double ulp) {
  // bin k holds values in (edges[k-1], edges[k]]; bin 0 holds [0, edges[0]]. Up to 4 ulps the
  // edges are k/64 exactly, so the bin is ceil(64 ulp) - 1 (64 ulp and ceil are exact): what the
  // search below would find, without it, for nearly every element.
  const auto bin = ulp <= 4.0 ? std::max(std::ceil(ulp * 64.0), 1.0) - 1.0
                              : static_cast<double>(bin_above_four(ulp));
  ++counts_[static_cast<std::size_t>(bin)];
  ++count_;
  sum_ += ulp;
  max_ = std::max(max_, ulp);
}

void ErrorStats::merge(const ErrorStats& other) {
  for (std::size_t k = 0; k < counts_.size(); ++k) counts_[k] += other.counts_[k];
  count_ += other.count_;
  sum_ += other.sum_;
  max_ = std::max(max_, other.max_);
}

ErrorStats ErrorStats::from_parts(std::int64_t count, double sum, double max,
                                  std::vector<std::int64_t> counts) {
  ErrorStats s;
  if (counts.size() != s.counts_.size())
    throw std::invalid_argument("error statistics with " + std::to_string(counts.size()) +
                                " histogram bins, expected " + std::to_string(s.counts_.size()));
  std::int64_t total = 0;
  for (std::int64_t c : counts) total += c;
  if (total != count)
    throw std::invalid_argument("error statistics: the histogram holds " + std::to_string(total) +
                                " elements, the count says " + std::to_string(count));
  s.count_ = count;
  s.sum_ = sum;
  s.max_ = max;
  s.counts_ = std::move(counts);
  return s;
}

double ErrorStats::quantile_upper(double q) const {
  if (count_ == 0) return 0;
  const auto& edges = ulp_bin_edges();
  const auto rank = static_cast<std::int64_t>(std::ceil(q * static_cast<double>(count_)));
  std::int64_t seen = 0;
  for (std::size_t k = 0; k < counts_.size(); ++k) {
    seen += counts_[k];
    if (seen >= rank) return k < edges.size() ? std::min(edges[k], max_) : max_;
  }
  return max_;
}

}  // namespace osvs::audit
