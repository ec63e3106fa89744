// Accuracy contracts: what a row kernel promises about its error, per element, in ulps of its
// output type (ulp(y) = 2^(max(floor(log2|y|), emin) - p + 1), so subnormal and underflowing
// outputs are measured on the type's uniform grid).
//
//   Accuracy::ulps(4)                                    a constant
//   Accuracy::ulps([](int64_t n, double range) { ... }, "2 + range / 8")
//                                                        a function of the row's length n and
//                                                        range (max - min of its finite values)
//   Accuracy::derived({"two_pass", "hardened", 256})     the a-priori bound osvs derives for a
//                                                        reduction shape of its catalogue
//   Accuracy::none()                                     no promise: measured and reported; the
//                                                        release gate says "no contract declared"
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "osvs/kernels/hex.h"

namespace osvs {

/// A reduction shape of osvs's catalogue whose per-element bound is derived (docs: oracle/).
struct DerivedShape {
  std::string kernel = "two_pass";   ///< "two_pass" (online, one block per row), "three_pass",
                                     ///< or "fast" (the row on chip; hardened; kernels/fast_plan.h)
  std::string combine = "hardened";  ///< the 2-pass kernel's combine: "seed" or "hardened"
  int block = 256;                   ///< threads per block: 32 ... 1024 (fast: its plan's, unused)
  /// The exp the kernel calls, whose verified figure (kernels/exp.h) the bound takes: "" (where
  /// it runs decides: CUDA expf on the device, glibc expf on the host), "cuda_expf",
  /// "cuda_fast_expf" (__expf, -use_fast_math: 2.5 + floor(1.173 |a|) ulp at a = x_j - m, taken
  /// at the row's finite range, which bounds every |a| of the 2-pass and 3-pass kernels),
  /// "glibc_expf" or "portable_expf". Not for "fast", whose exp is its own.
  std::string exp;
};

class Accuracy {
 public:
  enum class Kind { None, Ulps, Derived };
  using UlpsFn = std::function<double(std::int64_t n, double range)>;

  static Accuracy none() { return Accuracy{}; }
  static Accuracy ulps(double u) {
    return ulps([u](std::int64_t, double) { return u; }, digits9(u) + " ulp");
  }
  static Accuracy ulps(UlpsFn f, std::string formula) {
    Accuracy a;
    a.kind_ = Kind::Ulps;
    a.fn_ = std::move(f);
    a.formula_ = std::move(formula);
    return a;
  }
  static Accuracy derived(DerivedShape shape) {
    Accuracy a;
    a.kind_ = Kind::Derived;
    a.shape_ = std::move(shape);
    a.formula_ = "derived: " + a.shape_.kernel + "/" + a.shape_.combine + "/" +
                 std::to_string(a.shape_.block) +
                 (a.shape_.exp.empty() ? "" : ", exp " + a.shape_.exp);
    return a;
  }

  Kind kind() const { return kind_; }
  bool declared() const { return kind_ != Kind::None; }
  /// "4 ulp", "derived: two_pass/hardened/256", "none declared".
  const std::string& describe() const { return formula_; }
  const DerivedShape& shape() const { return shape_; }
  /// The promise for a row of n elements with the given range (Kind::Ulps only).
  double ulps_for(std::int64_t n, double range) const { return fn_(n, range); }

 private:
  Kind kind_ = Kind::None;
  UlpsFn fn_;
  DerivedShape shape_;
  std::string formula_ = "none declared";
};

}  // namespace osvs
