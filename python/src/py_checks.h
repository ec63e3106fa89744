// What a run of the laws reports to Python: one dict per law (its status, counts, the shrunk
// case and the regression file), built from the testbed's law runs (row_law_run.h,
// merge_law_run.h), and the settings a check takes from Python.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <sstream>
#include <string>

#include "merge_law_run.h"
#include "rc_check.h"
#include "row_law_run.h"

namespace osvs::python {

namespace nb = nanobind;

/// The settings of one check, as osvs/_check.py passes them.
struct CheckSettings {
  std::uint64_t seed = 0;
  int max_cases = 100;         ///< RapidCheck's max_success
  int max_size = 100;          ///< RapidCheck's max_size (row lengths scale with it)
  double shrink_seconds = 20;  ///< shrinking budget per law
  std::string regression_dir;  ///< where shrunk failures are written
  nb::object progress;         ///< called with a line of progress text, or None

  testbed::RcParams rc_params() const {
    rc::detail::TestParams p;
    p.seed = seed;
    p.maxSuccess = max_cases;
    p.maxSize = max_size;
    return p;
  }
  std::string budget_text() const {
    std::ostringstream s;
    s << shrink_seconds << " s";
    return s.str();
  }
  void report(const std::string& line) const {
    if (progress.is_valid() && !progress.is_none()) progress(line);
  }
};

CheckSettings settings_from_python(const nb::dict& d);

/// A law's result: {"law", "description", "status", "reason", "judged", "not_judged",
/// "shrink_steps", "budget_spent", "case", "regression"}; status is "passed", "failed",
/// "skipped", "known_defect" (a declared defect shown), "defect_missing" (declared, not shown) or
/// "not_judged" (the generator missed the law's domain).
nb::dict law_result(const std::string& law, const std::string& description, const char* status,
                    const std::string& reason);

/// One law on one kernel, row or merge, as Python sees it: `run_law(on_first)` runs it (the
/// testbed's run_row_law or run_merge_law with the settings), `case_dict` turns a case into a
/// dict, `write` writes a regression record and returns its path. `contract_missing`: the kernel
/// declares no accuracy contract, so a law that could judge almost nothing reports "no_contract".
template <class Kernel, class Law, class RunLaw, class CaseDict, class Write>
nb::dict law_outcome(const Kernel& k, const Law& law, const CheckSettings& s, bool contract_missing,
                     const RunLaw& run_law, const CaseDict& case_dict, const Write& write) {
  if (const std::string why = testbed::why_skipped(k, law); !why.empty())
    return law_result(law.name, law.law, "skipped", why);
  const auto defect = k.known_defects().find(law.name);
  const bool expect_failure = defect != k.known_defects().end();
  const auto run = run_law([&](const Verdict& v, const auto& c) {
    s.report(k.name() + "/" + law.name + " first counterexample (" + testbed::summary(c) +
             "): " + v.explanation + "\nshrinking (budget " + s.budget_text() + ") ...");
  });
  nb::dict out;
  if (run.errored()) {
    out = law_result(law.name, law.law, "error", run.property_failure);
  } else if (!run.failed()) {
    if (expect_failure)
      out = law_result(law.name, law.law, "defect_missing",
                       k.name() + " declares " + law.name + " a known defect (" + defect->second +
                           "), yet no counterexample was found in " + std::to_string(run.judged) +
                           " cases");
    else if (run.mostly_not_judged() && contract_missing)
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
    const auto r = testbed::regression_of(k, law, run, "python, host");
    out["case"] = case_dict(r.input);
    out["regression"] = write(r);
  }
  out["judged"] = run.judged;
  out["not_judged"] = run.not_judged;
  out["shrink_steps"] = run.shrink_steps;
  out["budget_spent"] = run.budget_spent;
  return out;
}

/// A regression record (row or merge) as a dict, its case through `case_dict`.
template <class Regression, class CaseDict>
nb::dict regression_dict(const Regression& r, const CaseDict& case_dict) {
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

}  // namespace osvs::python
