// Statistics of per-element ULP errors: count, mean, max, a fixed histogram and percentiles read
// from it. The histogram has fixed edges so that statistics of any two runs merge exactly.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace osvs::audit {

/// Upper edges of the histogram bins, in ulps: 1/64-ulp bins up to 4 ulps, then bins growing by
/// 2^(1/8) up to 2^24 ulps; a final bin holds everything above (and +inf).
const std::vector<double>& ulp_bin_edges();

class ErrorStats {
 public:
  ErrorStats();
  /// Adds one element's ULP error (>= 0; +inf for a NaN or infinite mismatch).
  void add(double ulp);
  /// Adds every element of `other`.
  void merge(const ErrorStats& other);
  /// The statistics with these parts (a shard file's, read back); throws std::invalid_argument
  /// when counts is not one count per bin or does not add up to count.
  static ErrorStats from_parts(std::int64_t count, double sum, double max,
                               std::vector<std::int64_t> counts);

  std::int64_t count() const { return count_; }
  double max() const { return max_; }
  double mean() const { return count_ ? sum_ / static_cast<double>(count_) : 0; }
  double sum() const { return sum_; }
  /// The upper edge of the bin holding the q-quantile (0 < q <= 1): a value at least as large as
  /// the true quantile and less than one bin above it (1/64 ulp below 4 ulps, 9 % above).
  double quantile_upper(double q) const;
  const std::vector<std::int64_t>& counts() const { return counts_; }

 private:
  std::int64_t count_ = 0;
  double sum_ = 0;
  double max_ = 0;
  std::vector<std::int64_t> counts_;  ///< one per ulp_bin_edges() entry, plus the overflow bin
};

}  // namespace osvs::audit
