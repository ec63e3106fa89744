// The parameter points of the one-step scripts (one_step.h): the gaps, the accounting states and
// the output step's (D, rho).
#pragma once

#include <cmath>
#include <iterator>
#include <string>
#include <vector>

namespace osvs::formal::gappa::detail {

inline constexpr double kU = 0x1p-24;

/// The smaller side's m and the result's m (so g = small - big <= 0, exact).
struct GapPoint {
  std::string name;
  float small, big;
};

/// Gaps from a tie to beyond kFarGap: arguments whose rounding is exact and inexact, exp results
/// normal, subnormal, and below 2^-149; then a sweep g = -1.2345 2^(2i - 16), i = 0 ... 13 (from
/// -1.9e-5 to -1264), from a larger m that moves with i, so that fl(g) is inexact for most.
inline std::vector<GapPoint> gaps() {
  std::vector<GapPoint> out{
      {"tie", 1.5f, 1.5f},               // g = 0: e = kexp(+-0) = 1 exactly
      {"tiny", -0x1.0c6f7ap-20f, 0.0f},  // g ~ -1e-6: fl(g) = g
      {"quarter", 0.75f, 1.0f},          // g = -0.25
      {"six", -3.1f, 2.7f},              // g ~ -5.8, fl(g) inexact
      {"sixty_four", -40.3f, 23.9f},     // g ~ -64.2
      {"subnormal", -87.7f, 0.0f},       // e^g ~ 8e-39: a subnormal exp result
      {"deep", -95.5f, 0.0f},            // e^g ~ 3e-42: products below the normal range
      {"below_ulp", -100.25f, 3.5f},     // e^g ~ 9e-46 < 2^-149: e_hat is 0 or 2^-149
      {"far", -150.0f, 60.5f},           // g = -210.5 > kFarGap: absolute terms only
  };
  for (int i = 0; i < 14; ++i) {
    const float big = 0.3f + 7.1f * static_cast<float>(i);
    const float small = big - static_cast<float>(std::ldexp(1.2345, 2 * i - 16));
    out.push_back({"sweep" + std::to_string(i), small, big});
  }
  return out;
}

/// An accounting state as a script's input: the exact D and err >= |d_hat - D|.
struct StatePoint {
  double D;
  double err;
};

/// A lifted element (1, 0); partial sums with accumulated errors (tens of u relative, as after a
/// few levels of a block's tree); a state far less accurate (2^-10).
inline constexpr StatePoint kStates[] = {
    {1.0, 0.0}, {1000.3, 37 * kU * 1000.3}, {3.1e6, 90 * kU * 3.1e6}, {7.5, 0x1p-10 * 7.5}};
/// Pairs of (smaller side, larger side) states for a combine and for a sum.
inline constexpr int kStatePairs[][2] = {{0, 0}, {1, 2}, {2, 0}, {3, 1}};
/// The output step's d_hat: D = kStates[k].D with relative error kRhos[k].
inline constexpr double kRhos[] = {0.0, 10 * kU, 300 * kU, 0x1p-10};
static_assert(std::size(kRhos) == std::size(kStates));

/// The scaled scripts' range: the states' D and err multiplied by every real lam in [1, kScaleMax].
inline constexpr double kScaleMax = 0x1p10;

}  // namespace osvs::formal::gappa::detail
