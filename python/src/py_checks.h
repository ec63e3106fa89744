// What a run of the laws reports to Python: the settings a check takes from Python and the dict
// of one law's result (py_kind_checks.cpp fills it from the testbed's law runs, law_run.h).
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <sstream>
#include <string>

#include "rc_check.h"

namespace osvs::python {

namespace nb = nanobind;

/// The settings of one check, as osvs/_check.py passes them.
struct CheckSettings {
  std::uint64_t seed = 0;
  int max_cases = 100;         ///< RapidCheck's max_success
  int max_size = 100;          ///< RapidCheck's max_size (row lengths scale with it)
  double shrink_seconds = 20;  ///< shrinking budget per law
  int max_findings = 4;        ///< distinct classes of failure per law (law_run.h's run_law)
  std::string regression_dir;  ///< where shrunk failures are written
  nb::object progress;         ///< called with a line of progress text, or None

  testbed::RcParams rc_params() const {
    rc::detail::TestParams p;
    p.seed = seed;
    p.maxSuccess = max_cases;
    p.maxSize = max_size;
    return p;
  }
  std::string budget_text() const {
    std::ostringstream s;
    s << shrink_seconds << " s";
    return s.str();
  }
  void report(const std::string& line) const {
    if (progress.is_valid() && !progress.is_none()) progress(line);
  }
};

CheckSettings settings_from_python(const nb::dict& d);

/// A law's result: {"law", "description", "status", "reason", "judged", "not_judged",
/// "shrink_steps", "budget_spent", "case", "regression"}; status is "passed", "failed",
/// "skipped", "known_defect" (a declared defect shown), "defect_missing" (declared, not shown) or
/// "not_judged" (the generator missed the law's domain).
nb::dict law_result(const std::string& law, const std::string& description, const char* status,
                    const std::string& reason);

}  // namespace osvs::python
