// What the Python declarations of every kind share: the laws a declaration leaves out or is
// known to break, and the value conventions (osvs/kernels/attention/value_conventions.h).
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <stdexcept>
#include <string>

#include "osvs/kernels/attention/value_conventions.h"

namespace osvs::python {

namespace nb = nanobind;

/// k.skip(law, reason) for each of `skip`, k.known_defect(law, reason) for each of
/// `known_defect` (dicts of law name to reason).
template <class Kernel>
void declare_laws(Kernel& k, const nb::dict& skip, const nb::dict& known_defect) {
  for (const auto& [law, why] : skip)
    k.skip(nb::cast<std::string>(law), nb::cast<std::string>(why));
  for (const auto& [law, why] : known_defect)
    k.known_defect(nb::cast<std::string>(law), nb::cast<std::string>(why));
}

/// k with the laws of d["skip"] and d["known_defect"] (dicts of law name to reason; absent or
/// None: none) declared; std::invalid_argument naming what osvs cannot use in the declaration
/// (declaration_problem: an unknown law name among them, ...). Every kind's declaration ends here.
template <class Kernel>
Kernel declared(Kernel k, const nb::dict& d) {
  const auto laws = [&](const char* key) {
    return d.contains(key) && !d[key].is_none() ? nb::cast<nb::dict>(d[key]) : nb::dict();
  };
  declare_laws(k, laws("skip"), laws("known_defect"));
  if (const std::string problem = declaration_problem(k); !problem.empty())
    throw std::invalid_argument(problem);
  return k;
}

/// The conventions named in `names` ("any_nan_bits", "either_zero_sign", and where
/// `empty_o` allows it "empty_o_unspecified"); std::invalid_argument for another name.
inline ValueConventions conventions_from_python(const nb::list& names, bool empty_o) {
  ValueConventions c;
  for (nb::handle h : names) {
    const std::string name = nb::cast<std::string>(h);
    if (name == "any_nan_bits")
      c.any_nan_bits = true;
    else if (name == "either_zero_sign")
      c.either_zero_sign = true;
    else if (empty_o && name == "empty_o_unspecified")
      c.empty_o_unspecified = true;
    else
      throw std::invalid_argument("convention '" + name + "': any_nan_bits, either_zero_sign" +
                                  (empty_o ? " or empty_o_unspecified" : ""));
  }
  return c;
}

}  // namespace osvs::python
