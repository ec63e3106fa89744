// What the Python bindings need of each kind (osvs/api/kind.h) beyond the C++ core, as one table
// a kind: its kernel from a Python declaration, its case as a dict, and whether a kernel declares
// no accuracy contract (a law that can judge almost nothing then reports "no_contract"). Each
// kind's table is python_side(KindTag{}), defined in the kind's own file (py_row_kernel.cpp, ...)
// next to the rest of its Python side; py_kind_cases.h gathers them for the code written once
// over the kinds (py_kind_checks.cpp). Below the table, what the kinds' case dicts share.
#pragma once

#include <nanobind/nanobind.h>

#include <sstream>
#include <string>

#include "osvs/api/runner.h"
#include "py_arrays.h"

namespace osvs::python {

namespace nb = nanobind;

template <class K>
struct PythonSide {
  /// The kernel; std::invalid_argument for a declaration the registry would refuse.
  typename K::Kernel (*kernel)(const nb::dict& declaration, nb::callable call);
  /// A case (a shrunk counterexample, a regression file's input) as Python reads it, but for
  /// its "summary" (K::summary), which py_kind_checks.cpp adds for every kind.
  nb::dict (*case_dict)(const typename K::Case& c);
  /// True when the kernel declares no accuracy contract.
  bool (*contract_missing)(const typename K::Kernel& k);
};

/// A case's rows (a row case's, a combine case's, each input of a row-wise case) as a list of
/// float32 arrays.
inline nb::list row_arrays(const Rows& rows) {
  nb::list out;
  for (const std::vector<float>& r : rows) out.append(vector_array(r));
  return out;
}

/// A case as RapidCheck shows it (its showValue), for a case dict's "text".
template <class Case>
std::string shown(const Case& c) {
  std::ostringstream text;
  showValue(c, text);
  return text.str();
}

}  // namespace osvs::python
