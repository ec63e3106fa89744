#include "py_checks.h"

#include <nanobind/stl/string.h>

namespace osvs::python {

CheckSettings settings_from_python(const nb::dict& d) {
  CheckSettings s;
  s.seed = nb::cast<std::uint64_t>(d["seed"]);
  s.max_cases = nb::cast<int>(d["max_cases"]);
  s.max_size = nb::cast<int>(d["max_size"]);
  s.shrink_seconds = nb::cast<double>(d["shrink_seconds"]);
  s.max_findings = nb::cast<int>(d["max_findings"]);
  s.regression_dir = nb::cast<std::string>(d["regression_dir"]);
  s.progress = d.contains("progress") ? nb::borrow(d["progress"]) : nb::none();
  return s;
}

nb::dict law_result(const std::string& law, const std::string& description, const char* status,
                    const std::string& reason) {
  nb::dict d;
  d["law"] = law;
  d["description"] = description;
  d["status"] = status;
  d["reason"] = reason;
  d["case"] = nb::none();
  d["regression"] = nb::none();
  return d;
}

}  // namespace osvs::python
