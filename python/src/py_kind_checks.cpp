#include "py_kind_checks.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>

#include "json_values.h"
#include "law_run.h"
#include "osvs/api/regression.h"
#include "py_checks.h"
#include "py_interrupt.h"
#include "py_kind_cases.h"

namespace osvs::python {
namespace {

/// What an invariance asks of k (KindLaw::bitwise): "bitwise", "contract", or "" for a law of
/// one call.
template <class Kernel, class Law>
const char* asks_of(const Kernel& k, const Law& law) {
  return !law.bitwise ? "" : law.bitwise(k) ? "bitwise" : "contract";
}

/// A case of kind K as Python reads it: the kind's fields and its summary in a line.
template <class K>
nb::dict case_of(const typename K::Case& c) {
  nb::dict d = python_side(K{}).case_dict(c);
  d["summary"] = K::summary(c);
  return d;
}

/// One law on one kernel of kind K, as Python sees it (law_result's statuses).
template <class K>
nb::dict law_outcome(const typename K::Kernel& k, const typename K::Law& law,
                     const CheckSettings& s) {
  if (const std::string why = why_skipped<K>(k, law); !why.empty()) {
    nb::dict out = law_result(law.name, law.law, "skipped", why);
    out["asks"] = asks_of(k, law);
    return out;
  }
  const auto defect = k.known_defects().find(law.name);
  const bool expect_failure = defect != k.known_defects().end();
  const auto run = testbed::run_law<K>(
      law, k, s.shrink_seconds,
      [&](const Verdict& v, const typename K::Case& c) {
        s.report(k.name() + "/" + law.name + " first counterexample (" + K::summary(c) +
                 "): " + v.explanation + "\nshrinking (budget " + s.budget_text() + ") ...");
      },
      s.rc_params(), s.max_findings);
  nb::dict out;
  if (run.errored()) {
    out = law_result(law.name, law.law, "error", run.property_failure);
  } else if (!run.failed()) {
    if (expect_failure)
      out = law_result(law.name, law.law, "defect_missing",
                       k.name() + " declares " + law.name + " a known defect (" + defect->second +
                           "), yet no counterexample was found in " + std::to_string(run.judged) +
                           " cases");
    else if (run.mostly_not_judged() && python_side(K{}).contract_missing(k))
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
    const Regression<K> r = testbed::regression_of<K>(k, law, run, "python, host");
    out["case"] = case_of<K>(r.input);
    out["regression"] = write_regression(r, s.regression_dir).string();
    out["kind"] = run.smallest_verdict.failure_kind();
    nb::list others;
    for (const auto& other : run.other_findings) {
      const Regression<K> o =
          testbed::regression_of<K>(k, law, other.smallest, other.verdict, "python, host");
      nb::dict d;
      d["kind"] = other.kind;
      d["reason"] = other.verdict.explanation;
      d["case"] = case_of<K>(o.input);
      d["regression"] = write_regression(o, s.regression_dir).string();
      d["shrink_steps"] = other.shrink_steps;
      d["budget_spent"] = other.budget_spent;
      others.append(d);
    }
    out["other_findings"] = others;
  }
  out["asks"] = asks_of(k, law);
  out["shape_classes"] = run.shape_classes.size();
  out["judged"] = run.judged;
  out["not_judged"] = run.not_judged;
  out["shrink_steps"] = run.shrink_steps;
  out["budget_spent"] = run.budget_spent;
  return out;
}

template <class K>
nb::list check_kernel(const nb::dict& declaration, nb::callable call,
                      const std::vector<std::string>& laws, const nb::dict& settings) {
  const typename K::Kernel k = python_side(K{}).kernel(declaration, std::move(call));
  const CheckSettings s = settings_from_python(settings);
  nb::list out;
  for (const std::string& name : laws) {
    const typename K::Law* law = K::find_law(name);
    if (!law)
      throw std::invalid_argument("no " + std::string(K::name) + " law named '" + name + "'");
    out.append(law_outcome<K>(k, *law, s));
    raise_pending_interrupt();
  }
  return out;
}

template <class K>
nb::dict regression_dict(const Regression<K>& r) {
  nb::dict d;
  d["kind"] = K::name;
  d["kernel"] = r.kernel;
  d["law"] = r.law;
  d["expect_holds"] = r.expect_holds;
  d["note"] = r.note;
  d["found"] = r.found;
  d["explanation"] = r.explanation;
  d["case"] = case_of<K>(r.input);
  return d;
}

template <class K>
nb::dict replay_file(const nb::dict& declaration, nb::callable call, const std::string& path) {
  const typename K::Kernel k = python_side(K{}).kernel(declaration, std::move(call));
  const Regression<K> r = regression_from_json<K>(api::read_text(path));
  nb::dict d = regression_dict(r);
  if (const std::string why = K::excluded(*K::find_law(r.law), k); !why.empty()) {
    d["status"] = "skipped";
    d["problem"] = why;
    return d;
  }
  const std::string problem = replay_regression<K>(k, r);
  d["status"] = problem.empty() ? "as_expected" : "mismatch";
  d["problem"] = problem;
  return d;
}

template <class K>
nb::list laws() {
  nb::list out;
  for (const auto& law : K::laws())
    out.append(nb::make_tuple(law.name, law.law, K::single_case(law)));
  return out;
}

}  // namespace

void bind_kind_checks(nb::module_& m) {
  m.def(
      "check_kernel",
      [](const std::string& kind, const nb::dict& declaration, nb::callable call,
         const std::vector<std::string>& laws, const nb::dict& settings) {
        return visit_kind(kind, [&](auto k) {
          return check_kernel<decltype(k)>(declaration, std::move(call), laws, settings);
        });
      },
      nb::arg("kind"), nb::arg("declaration"), nb::arg("call"), nb::arg("laws"),
      nb::arg("settings"),
      "Runs the named laws of a kind (row, merge) on a kernel declared from Python; one dict per "
      "law.");
  m.def(
      "replay_file",
      [](const std::string& kind, const nb::dict& declaration, nb::callable call,
         const std::string& path) {
        return visit_kind(kind, [&](auto k) {
          return replay_file<decltype(k)>(declaration, std::move(call), path);
        });
      },
      nb::arg("kind"), nb::arg("declaration"), nb::arg("call"), nb::arg("path"),
      "Replays a regression file of that kind on a kernel declared from Python.");
  m.def(
      "read_regression",
      [](const std::string& path) {
        const std::string text = api::read_text(path);
        const std::string kind = regression_kind(text);
        // A file of no known kind is read as a row file, whose error says what is wrong.
        return visit_kind(kind.empty() ? RowKind::name : kind, [&](auto k) {
          return regression_dict(regression_from_json<decltype(k)>(text));
        });
      },
      nb::arg("path"), "Reads a regression file of any kind; its 'kind' says which.");
  m.def(
      "laws",
      [](const std::string& kind) {
        return visit_kind(kind, [](auto k) { return laws<decltype(k)>(); });
      },
      nb::arg("kind"), "Every law of a kind: (name, sentence, single_case), cheapest first.");
}

}  // namespace osvs::python
