// The one-line counterexample a failing check prints (and the build check quotes).
#include <cstdio>

#include "osvs/exhaustive/report.h"
#include "osvs/kernels/hex.h"

namespace osvs::exhaustive {

std::string counterexample(const ExpMeasurement& m) {
  // The input that needs the largest max_ulp: beyond the declared figure when there is one.
  const Sample& s = m.violations > 0 ? m.worst_violation : m.needed_at;
  const DeclaredAccuracy& d = m.exp.declared;
  const auto g = [](double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return std::string(buf);
  };
  std::string declared = d.constant + " = " + g(d.max_ulp);
  if (d.ulp_per_abs_x != 0)
    declared += " (+ floor(" + g(d.ulp_per_abs_x) + " |x|) = " + g(d.bound(s.x)) + " here)";
  return m.exp.name + "(" + hex(s.x) + ") = " + hex(s.observed) + ", correctly rounded " +
         hex(exact_exp(s.x, m.exp.base).rounded) + ": " + g(s.ulp) + " ulp; declared " + declared +
         (d.normal_results_only ? " (normal results)" : "");
}

}  // namespace osvs::exhaustive
