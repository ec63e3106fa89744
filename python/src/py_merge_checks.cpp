#include "py_merge_checks.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "json_values.h"
#include "merge_law_run.h"
#include "osvs/api/merge_regression.h"
#include "py_arrays.h"
#include "py_checks.h"
#include "py_interrupt.h"
#include "py_merge_kernel.h"

namespace osvs::python {
namespace {

nb::dict case_dict(const MergeCase& c) {
  nb::dict d;
  nb::list parts;
  for (const AttnStates& p : c.parts) {
    nb::dict part;
    part["o"] = rows_array(p.o.data(), DType::F32, p.rows, p.head_dim, p.head_dim);
    part["lse"] = vector_array(p.lse);
    parts.append(part);
  }
  d["parts"] = parts;
  d["base"] = to_string(c.base);
  d["tree_choices"] = c.tree_choices;
  d["other_choices"] = c.other_choices;
  d["summary"] = testbed::summary(c);
  return d;
}

nb::dict run_one(const MergeKernel& k, const MergeLaw& law, const CheckSettings& s) {
  if (const std::string why = testbed::why_skipped(k, law); !why.empty())
    return law_result(law.name, law.law, "skipped", why);
  const auto defect = k.known_defects().find(law.name);
  const bool expect_failure = defect != k.known_defects().end();
  const testbed::MergeLawRun run = testbed::run_merge_law(
      law, k, s.shrink_seconds,
      [&](const Verdict& v, const MergeCase& c) {
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
    else if (run.mostly_vacuous())
      out = law_result(law.name, law.law, "not_judged",
                       std::to_string(run.vacuous) + " of " +
                           std::to_string(run.judged + run.vacuous) + " cases were vacuous (" +
                           run.first_vacuous_reason + "): the generator misses the law's domain");
    else
      out = law_result(law.name, law.law, "passed", "");
  } else {
    out = law_result(law.name, law.law, expect_failure ? "known_defect" : "failed",
                     run.smallest_verdict.explanation);
    const MergeRegression r = testbed::regression_of(k, law, run, "python, host");
    out["case"] = case_dict(r.input);
    out["regression"] = write_merge_regression(r, s.regression_dir).string();
  }
  out["judged"] = run.judged;
  out["not_judged"] = run.vacuous;
  out["shrink_steps"] = run.shrink_steps;
  out["budget_spent"] = run.budget_spent;
  return out;
}

MergeRegression read_file(const std::string& path) {
  return merge_regression_from_json(api::read_text(path));
}

nb::dict regression_dict(const MergeRegression& r) {
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

nb::list check_merge_kernel(const nb::dict& declaration, nb::callable call,
                            const std::vector<std::string>& laws, const nb::dict& settings) {
  const MergeKernel k = merge_kernel_from_python(declaration, std::move(call));
  const CheckSettings s = settings_from_python(settings);
  nb::list out;
  for (const std::string& name : laws) {
    const MergeLaw* law = find_merge_law(name);
    if (!law) throw std::invalid_argument("no merge law named '" + name + "'");
    out.append(run_one(k, *law, s));
    raise_pending_interrupt();
  }
  return out;
}

nb::dict replay_merge_file(const nb::dict& declaration, nb::callable call,
                           const std::string& path) {
  const MergeKernel k = merge_kernel_from_python(declaration, std::move(call));
  const MergeRegression r = read_file(path);
  nb::dict d = regression_dict(r);
  const std::string problem = replay_merge_regression(k, r);
  d["status"] = problem.empty() ? "as_expected" : "mismatch";
  d["problem"] = problem;
  return d;
}

}  // namespace

void bind_merge_checks(nb::module_& m) {
  m.def("check_merge_kernel", &check_merge_kernel, nb::arg("declaration"), nb::arg("call"),
        nb::arg("laws"), nb::arg("settings"),
        "Runs the named merge laws on a merge kernel declared from Python; one dict per law.");
  m.def("replay_merge_file", &replay_merge_file, nb::arg("declaration"), nb::arg("call"),
        nb::arg("path"), "Replays a merge regression file on a kernel declared from Python.");
  m.def(
      "read_merge_regression",
      [](const std::string& path) { return regression_dict(read_file(path)); }, nb::arg("path"),
      "Reads a merge regression file.");
  m.def(
      "is_merge_regression",
      [](const std::string& path) { return is_merge_regression(api::read_text(path)); },
      nb::arg("path"), "Whether the file is a merge regression file.");
  m.def(
      "merge_laws",
      [] {
        nb::list out;
        for (const MergeLaw& law : merge_laws()) out.append(nb::make_tuple(law.name, law.law));
        return out;
      },
      "Every merge law: (name, sentence).");
}

}  // namespace osvs::python
