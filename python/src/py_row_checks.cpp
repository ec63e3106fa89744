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
  if (const std::string why = testbed::why_skipped(k, law); !why.empty())
    return law_result(law.name, law.law, "skipped", why);
  const auto defect = k.known_defects().find(law.name);
  const bool expect_failure = defect != k.known_defects().end();
  const testbed::RowLawRun run = testbed::run_row_law(
      law, k, s.shrink_seconds,
      [&](const Verdict& v, const RowCase& c) {
        s.report(k.name() + "/" + law.name + " first counterexample (" + testbed::summary(c) +
                 "): " + v.explanation + "\nshrinking (budget " + s.budget_text() + ") ...");
      },
      s.rc_params());
  nb::dict out;
  if (run.errored()) {
    out = law_result(law.name, law.law, "error", run.property_failure);
  } else if (!run.failed()) {
    if (expect_failure)
      out = law_result(law.name, law.law, "defect_missing",
                       k.name() + " declares " + law.name + " a known defect (" + defect->second +
                           "), yet no counterexample was found in " + std::to_string(run.judged) +
                           " cases");
    else if (run.mostly_not_judged() && !k.accuracy().declared())
      out = law_result(law.name, law.law, "no_contract", run.not_judged_reason);
    else if (run.mostly_not_judged())
      out = law_result(law.name, law.law, "not_judged",
                       std::to_string(run.not_judged) + " of " +
                           std::to_string(run.judged + run.not_judged) +
                           " cases could not be judged (" + run.not_judged_reason +
                           "): the generator misses the law's domain");
    else
      out = law_result(law.name, law.law, "passed", "");
  } else {
    out = law_result(law.name, law.law, expect_failure ? "known_defect" : "failed",
                     run.smallest_verdict.explanation);
    const RowRegression r = testbed::regression_of(k, law, run, "python, host");
    out["case"] = case_dict(r.input);
    out["regression"] = write_row_regression(r, s.regression_dir).string();
  }
  out["judged"] = run.judged;
  out["not_judged"] = run.not_judged;
  out["shrink_steps"] = run.shrink_steps;
  out["budget_spent"] = run.budget_spent;
  return out;
}

RowRegression read_file(const std::string& path) {
  return row_regression_from_json(api::read_text(path));
}

nb::dict regression_dict(const RowRegression& r) {
  nb::dict d;
  d["kernel"] = r.kernel;
  d["law"] = r.law;
  d["expect_holds"] = r.expect_holds;
  d["note"] = r.note;
  d["found"] = r.found;
  d["explanation"] = r.explanation;
  d["case"] = case_dict(r.input);
  return d;
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
