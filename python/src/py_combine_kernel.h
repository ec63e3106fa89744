// A combine operator from Python. An operator is a C++ type (OSVS_REGISTER_COMBINE): the
// declaration names a registered one (d["name"]: osvs's own, a mutant, or one of the program's)
// and may declare skips and known defects; the callable is not used (pass None). On the CPU
// model. Its case as a dict: states ((m, d) each), state_format, rows, schedules (add_schedule's
// fields each), summary. The combine laws are bitwise or hold a derived bound: nothing to declare.
#pragma once

#include "osvs/api/kind.h"
#include "py_kind_side.h"

namespace osvs::python {

PythonSide<CombineOperatorKind> python_side(CombineOperatorKind);

}  // namespace osvs::python
