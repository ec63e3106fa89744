// What the Python declarations of every kind share: the laws a declaration leaves out or is
// known to break, and the value conventions (osvs/kernels/attention/value_conventions.h).
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "osvs/kernels/attention/lse_math.h"
#include "osvs/kernels/attention/value_conventions.h"

namespace osvs::python {

namespace nb = nanobind;

/// d[key] as a T, or `fallback` where d has no key or None under it.
template <class T>
T get_or(const nb::dict& d, const char* key, T fallback) {
  return d.contains(key) && !d[key].is_none() ? nb::cast<T>(d[key]) : fallback;
}

/// The laws across launches that the row and the row-wise kinds declare alike, under the same
/// keywords and defaults: "strided" (accepts padded rows), "deterministic", "batch_invariant"
/// (each true when absent) and "order_independent" (false when absent).
template <class Kernel>
Kernel& declare_row_invariances(Kernel& k, const nb::dict& d) {
  return k.strided(get_or<bool>(d, "strided", true))
      .deterministic(get_or<bool>(d, "deterministic", true))
      .batch_invariant(get_or<bool>(d, "batch_invariant", true))
      .order_independent(get_or<bool>(d, "order_independent", false));
}

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

/// parse(name) for each name of the list d[key], in order (parse throws for a name it refuses).
template <class T, class Parse>
std::vector<T> parsed(const nb::dict& d, const char* key, Parse parse) {
  std::vector<T> out;
  for (nb::handle h : nb::cast<nb::list>(d[key])) out.push_back(parse(nb::cast<std::string>(h)));
  return out;
}

/// The lse base named ("e", "2": what a merge or an attention kernel writes);
/// std::invalid_argument for another name.
inline LseBase lse_base_of(const std::string& name) {
  if (const std::optional<LseBase> base = parse_lse_base(name)) return *base;
  throw std::invalid_argument("lse base '" + name + "': e or 2");
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
