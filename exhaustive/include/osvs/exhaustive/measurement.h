// Measures exps over a set of binary32 inputs (every one of the 2^32, or a strided subset) against
// the exact b^x: the largest error per input binade, split by normal and subnormal results, the
// worst inputs and every input beyond the declared accuracy.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "osvs/exhaustive/exps_under_test.h"

namespace osvs::exhaustive {

/// Inputs: the bit patterns first, first + stride, ... below end (end <= 2^32).
struct InputRange {
  std::uint64_t first = 0;
  std::uint64_t end = std::uint64_t{1} << 32;
  std::uint64_t stride = 1;

  std::uint64_t count() const { return end > first ? (end - first + stride - 1) / stride : 0; }
  bool exhaustive() const { return first == 0 && end == (std::uint64_t{1} << 32) && stride == 1; }
};

/// One input with its output and error (ulps of the exact result, docs/semantics.md §4).
struct Sample {
  float x = 0;
  float observed = 0;
  double ulp = 0;
};

/// Inputs of one sign and exponent field (index sign * 256 + biased exponent; 0 holds the zeros
/// and subnormal inputs, 255 the infinities and NaNs).
struct BinadeStats {
  std::uint64_t inputs = 0;
  std::uint64_t not_correctly_rounded = 0;
  Sample worst_normal;     ///< largest error where the correctly rounded result is normal (or inf)
  Sample worst_subnormal;  ///< ... where it is subnormal or 0
};

inline constexpr int kInputBinades = 512;
inline constexpr std::size_t kWorstKept = 6;

struct ExpMeasurement {
  ExpUnderTest exp;
  std::uint64_t inputs = 0;
  std::uint64_t not_correctly_rounded = 0;
  std::array<BinadeStats, kInputBinades> by_input_binade{};
  Sample worst_normal, worst_subnormal;
  /// max over the declared scope of ulp - floor(ulp_per_abs_x |x|): the smallest max_ulp the
  /// measurement allows (the figure the build check compares with the declared one).
  double needed_max_ulp = 0;
  Sample needed_at;
  std::uint64_t violations = 0;  ///< inputs beyond the declared bound (decided by MPFR near it)
  Sample worst_violation;        ///< the one furthest beyond it
  std::vector<Sample> worst;     ///< the kWorstKept largest errors, each recomputed in MPFR
  double seconds = 0;
};

struct MeasureSettings {
  InputRange range;
  unsigned threads = 0;   ///< 0: every hardware thread
  bool progress = false;  ///< a line on stderr per 1/16 of the inputs
};

/// Measures every exp of `exps` over the range. Device exps need a device (device_exps.h).
std::vector<ExpMeasurement> measure(const std::vector<ExpUnderTest>& exps,
                                    const MeasureSettings& settings);

/// "+[2^3, 2^4)", "-subnormal or 0", "+inf or NaN" for an input binade index.
std::string input_binade_label(int index);

}  // namespace osvs::exhaustive
