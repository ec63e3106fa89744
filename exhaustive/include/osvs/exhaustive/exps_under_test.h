// The exps osvs relies on, each with the accuracy its vendor documents and the constant of
// kernels/include/osvs/kernels/exp.h (or portable_exp.h) that declares it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "osvs/exhaustive/exact_exp.h"

namespace osvs::exhaustive {

enum class Side { Host, Device };

const char* to_string(Side side);

/// The exps the device evaluator knows (device_exps.h).
enum class DeviceExp { Expf, Exp2f, FastExpf, PortableExpf };

/// Declared accuracy: at most max_ulp + floor(ulp_per_abs_x |x|) ulps of the exact result
/// (docs/semantics.md §4), over every input, or only where the correctly rounded result is normal.
struct DeclaredAccuracy {
  double max_ulp = 0;
  double ulp_per_abs_x = 0;
  bool normal_results_only = false;
  std::string constant;  ///< the C++ constant that declares max_ulp
  std::string source;    ///< where the figure comes from

  double bound(float x) const;
};

struct ExpUnderTest {
  std::string name;  ///< e.g. "cuda_expf"
  ExpBase base = ExpBase::E;
  Side side = Side::Host;
  DeclaredAccuracy declared;
  float (*host)(float) = nullptr;      ///< Side::Host
  DeviceExp device = DeviceExp::Expf;  ///< Side::Device
  std::string used_by;                 ///< which part of osvs calls it
};

/// Every exp under test, host ones first.
const std::vector<ExpUnderTest>& exps_under_test();

/// The one named `name`; throws std::invalid_argument listing the names otherwise.
const ExpUnderTest& find_exp(std::string_view name);

}  // namespace osvs::exhaustive
