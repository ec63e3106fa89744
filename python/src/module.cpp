// osvs._core: the C++ core of osvs for Python. Kernels declared in Python (osvs/_declare.py) run
// under the core's laws, oracle, shrinking and regression files; the package osvs wraps these
// functions (osvs/_check.py).
#include <nanobind/nanobind.h>

#include "py_exact_attention.h"
#include "py_kind_checks.h"
#include "rc_check.h"

NB_MODULE(_core, m) {
  m.doc() = "The C++ core of osvs: row and merge laws run on kernels declared in Python.";
  // Every check here passes its parameters explicitly (osvs/_settings.py reads RC_PARAMS).
  osvs::testbed::load_configuration_quietly();
  osvs::python::bind_kind_checks(m);
  osvs::python::bind_exact_attention(m);
}
