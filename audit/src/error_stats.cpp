#include "osvs/audit/error_stats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
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

/// Above 4 ulps an error's bin is read off its bits: each octave [2^e, 2^(e+1)), e = 2 ... 23, is
/// cut into 2^kBucketBits equal buckets by the top bits of the significand.
constexpr int kFirstOctave = 2, kEndOctave = 24, kBucketBits = 6;

/// For each bucket [B, B') (octave by octave), the first bin whose edge is >= B. The edges grow by
/// 2^(1/8) > 1 + 2^-kBucketBits >= B' / B, so the edge after that one is >= B': checked here.
const std::vector<std::ptrdiff_t>& bucket_first_bins() {
  static const std::vector<std::ptrdiff_t> first = [] {
    const auto& edges = ulp_bin_edges();
    std::vector<std::ptrdiff_t> f;
    for (int e = kFirstOctave; e < kEndOctave; ++e)
      for (int t = 0; t < (1 << kBucketBits); ++t) {
        const double b = std::ldexp(1.0 + std::ldexp(t, -kBucketBits), e);
        const double b_next = std::ldexp(1.0 + std::ldexp(t + 1, -kBucketBits), e);
        const auto lo = std::lower_bound(edges.begin(), edges.end(), b);
        if (lo != edges.end() && lo + 1 != edges.end() && !(*(lo + 1) >= b_next))
          throw std::logic_error("ulp histogram: two bin edges in one bucket");
        f.push_back(lo - edges.begin());
      }
    return f;
  }();
  return first;
}

/// The bin of an error above 4 ulps: the first edge >= ulp (the overflow bin when none is), that
/// is, the number of edges below ulp (they increase). With ulp in the bucket [B, B') whose first
/// bin is lo, every edge before lo is below B <= ulp and every edge after it is >= B' > ulp, so
/// that number is lo, plus one when edges[lo] < ulp: the bin the search over all edges finds.
/// Errors of 2^kEndOctave ulps or more (and +inf) are rare: they search.
std::ptrdiff_t bin_above_four(double ulp) {
  const auto& edges = ulp_bin_edges();
  if (!(ulp < std::ldexp(1.0, kEndOctave)))
    return std::lower_bound(edges.begin(), edges.end(), ulp) - edges.begin();
  const auto bits = std::bit_cast<std::uint64_t>(ulp);  // 4 < ulp < 2^24: normal, positive
  const int e = static_cast<int>(bits >> 52) - 1023;
  const auto t = static_cast<int>(bits >> (52 - kBucketBits)) & ((1 << kBucketBits) - 1);
  const std::ptrdiff_t lo =
      bucket_first_bins()[static_cast<std::size_t>(((e - kFirstOctave) << kBucketBits) + t)];
  return lo + (lo < std::ssize(edges) && edges[static_cast<std::size_t>(lo)] < ulp);
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
