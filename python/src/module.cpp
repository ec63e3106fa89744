// osvs._core: the C++ core of osvs for Python. Kernels declared in Python (osvs/_declare.py) run
// under the core's laws, oracle, shrinking and regression files; the package osvs wraps these
// functions (osvs/_check.py).
#include <nanobind/nanobind.h>
#include <rapidcheck.h>

#include <iostream>
#include <sstream>

#include "py_kind_checks.h"

NB_MODULE(_core, m) {
  m.doc() = "The C++ core of osvs: row and merge laws run on kernels declared in Python.";
  // RapidCheck reads RC_PARAMS once, at its first use, and prints the configuration it made
  // (without RC_PARAMS, a random seed); every check here passes its parameters explicitly
  // (osvs/_settings.py reads RC_PARAMS), so the configuration is loaded now, quietly.
  {
    std::ostringstream discard;
    std::streambuf* const cerr = std::cerr.rdbuf(discard.rdbuf());
    rc::detail::configuration();
    std::cerr.rdbuf(cerr);
  }
  osvs::python::bind_kind_checks(m);
}
