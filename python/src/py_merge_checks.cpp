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
  return law_outcome(
      k, law, s, false,
      [&](const auto& on_first) {
        return testbed::run_merge_law(law, k, s.shrink_seconds, on_first, s.rc_params());
      },
      [](const MergeCase& c) { return case_dict(c); },
      [&](const MergeRegression& r) {
        return write_merge_regression(r, s.regression_dir).string();
      });
}

MergeRegression read_file(const std::string& path) {
  return merge_regression_from_json(api::read_text(path));
}

nb::dict regression_dict(const MergeRegression& r) {
  return python::regression_dict(r, [](const MergeCase& c) { return case_dict(c); });
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
