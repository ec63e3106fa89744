// Verdict: what a property says about one case. `holds` is the answer; the rest is the evidence a
// regression file records and `osvs replay` prints: observed values, reference values, ULP errors
// and the bound they were held to.
#pragma once

#include <string>
#include <vector>

namespace osvs {

struct Evidence {
  std::string what;      ///< e.g. "y[3]", "d", "a(+)b"
  double observed = 0;   ///< as a double (exact for float data)
  double reference = 0;  ///< oracle value or the other side of an equality
  double ulp_error = 0;  ///< distance in ulps (0 for bitwise laws that hold)
  double bound = 0;      ///< allowed distance (0 for bitwise laws)
};

struct Verdict {
  bool holds = true;
  std::string explanation;         ///< one readable paragraph; hex floats for inputs
  std::vector<Evidence> evidence;  ///< the worst few elements, not all of them

  static Verdict pass() { return Verdict{}; }
  static Verdict fail(std::string why, std::vector<Evidence> ev = {}) {
    return Verdict{false, std::move(why), std::move(ev)};
  }
};

}  // namespace osvs
