#include "py_combine_kernel.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "py_declaration.h"
#include "py_reduction_kernel.h"

namespace osvs::python {
namespace {

CombineKernel combine_kernel_from_python(const nb::dict& declaration, nb::callable) {
  const std::string name = nb::cast<std::string>(declaration["name"]);
  const std::optional<CombineKind> op = parse_combine(name);
  if (!op)
    throw std::invalid_argument("no combine operator named '" + name +
                                "' is registered (a combine operator is a C++ type: "
                                "OSVS_REGISTER_COMBINE)");
  return declared(CombineKernel(name, Where::Host, &op->op()), declaration);
}

nb::dict case_dict(const CombineCase& c) {
  nb::dict d;
  nb::list states;
  for (const State& s : c.states) states.append(nb::make_tuple(s.m, s.d));
  d["states"] = states;
  d["state_format"] = to_string(c.state_format);
  d["rows"] = row_arrays(c.rows);
  nb::list schedules;
  for (const HarnessCase& h : c.schedules) {
    nb::dict s;
    add_schedule(s, h);
    schedules.append(s);
  }
  d["schedules"] = schedules;
  return d;
}

bool contract_missing(const CombineKernel&) {
  return false;  // the combine laws are bitwise or hold a derived bound: nothing to declare
}

}  // namespace

PythonSide<CombineOperatorKind> python_side(CombineOperatorKind) {
  return {combine_kernel_from_python, case_dict, contract_missing};
}

}  // namespace osvs::python
