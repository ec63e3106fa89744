// The row laws from Python: check_row_kernel runs them on a kernel declared in Python,
// replay_row_file replays one regression file on it, read_row_regression reads one.
#include "py_row_checks.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <sstream>

#include "json_values.h"
#include "osvs/api/row_regression.h"
#include "py_arrays.h"
#include "py_checks.h"
#include "py_interrupt.h"
#include "py_row_kernel.h"
#include "row_law_run.h"

namespace osvs::python {
namespace {

nb::dict case_dict(const RowCase& c) {
  nb::dict d;
  nb::list rows;
  for (const auto& r : c.rows) rows.append(vector_array(r));
  d["rows"] = rows;
  d["permutation"] = c.permutation;
  d["shift"] = c.shift;
  d["batch_position"] = c.batch_position;
  d["batch_rows"] = c.batch_rows;
  d["x_pad"] = c.layout.x_pad;
  d["y_pad"] = c.layout.y_pad;
  d["summary"] = testbed::summary(c);
  std::ostringstream text;
  showValue(c, text);
  d["text"] = text.str();
  return d;
}

nb::dict run_one(const RowKernel& k, const RowLaw& law, const CheckSettings& s) {
  return law_outcome(
      k, law, s, !k.accuracy().declared(),
      [&](const auto& on_first) {
        return testbed::run_row_law(law, k, s.shrink_seconds, on_first, s.rc_params());
      },
      [](const RowCase& c) { return case_dict(c); },
      [&](const RowRegression& r) { return write_row_regression(r, s.regression_dir).string(); });
}

RowRegression read_file(const std::string& path) {
  return row_regression_from_json(api::read_text(path));
}

nb::dict regression_dict(const RowRegression& r) {
  return python::regression_dict(r, [](const RowCase& c) { return case_dict(c); });
}

}  // namespace

nb::list check_row_kernel(const nb::dict& declaration, nb::callable call,
                          const std::vector<std::string>& laws, const nb::dict& settings) {
  const RowKernel k = row_kernel_from_python(declaration, std::move(call));
  const CheckSettings s = settings_from_python(settings);
  nb::list out;
  for (const std::string& name : laws) {
    const RowLaw* law = find_row_law(name);
    if (!law) throw std::invalid_argument("no row law named '" + name + "'");
    out.append(run_one(k, *law, s));
    raise_pending_interrupt();
  }
  return out;
}

nb::dict replay_row_file(const nb::dict& declaration, nb::callable call, const std::string& path) {
  const RowKernel k = row_kernel_from_python(declaration, std::move(call));
  const RowRegression r = read_file(path);
  nb::dict d = regression_dict(r);
  const RowLaw* law = find_row_law(r.law);
  if (const std::string why = law->excluded(k); !why.empty()) {
    d["status"] = "skipped";
    d["problem"] = why;
    return d;
  }
  std::string problem;
  try {
    problem = replay_row_regression(k, r);
  } catch (const KernelFailure& e) {
    problem = r.expect_holds ? std::string("the law fails again: ") + e.what() : "";
  }
  d["status"] = problem.empty() ? "as_expected" : "mismatch";
  d["problem"] = problem;
  return d;
}

void bind_row_checks(nb::module_& m) {
  m.def("check_row_kernel", &check_row_kernel, nb::arg("declaration"), nb::arg("call"),
        nb::arg("laws"), nb::arg("settings"),
        "Runs the named row laws on a kernel declared from Python; one dict per law.");
  m.def("replay_row_file", &replay_row_file, nb::arg("declaration"), nb::arg("call"),
        nb::arg("path"), "Replays a row regression file on a kernel declared from Python.");
  m.def(
      "read_row_regression",
      [](const std::string& path) { return regression_dict(read_file(path)); }, nb::arg("path"),
      "Reads a row regression file.");
  m.def(
      "row_laws",
      [] {
        nb::list out;
        for (const RowLaw& law : row_laws())
          out.append(nb::make_tuple(law.name, law.law, law.single_case));
        return out;
      },
      "Every row law: (name, sentence, single_case), cheapest first.");
}

}  // namespace osvs::python
