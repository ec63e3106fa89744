// A counterexample as a regression record, confirmed by a replay before it is written.
#include "osvs/formal/regression_file.h"

#include <z3.h>

#include <algorithm>
#include <cmath>

#include "osvs/kernels/combine_kind.h"
#include "osvs/kernels/combine_operator.h"
#include "osvs/kernels/hex.h"
#include "osvs/properties/registry.h"

namespace osvs::formal {
namespace {

/// "z3 4.8.12", the solver this program links.
std::string solver_version() {
  unsigned major = 0, minor = 0, build = 0, revision = 0;
  Z3_get_version(&major, &minor, &build, &revision);
  return "z3 " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(build);
}

/// The solver, operator, law, domain and solver time, in words (Provenance::solver).
std::string solver_words(const ProofResult& r) {
  return solver_version() + ": " + r.op + " " + to_string(r.law) + " over " + r.domain +
         ", counterexample in " + digits9(r.seconds) + " s, " +
         std::to_string(r.counterexample->refinements) + " refinements";
}

/// The property's case states of the law's counterexample, or nullopt with the reason.
std::optional<std::vector<State>> property_states(const ProofResult& r, CombineKind combine,
                                                  std::string* why_not) {
  const Counterexample& c = *r.counterexample;
  if (r.law == Law::Commutativity) return std::vector<State>{c.a, c.b};
  if (r.law == Law::IdentityOfIdentity) {
    *why_not =
        "no property states identity_of_identity (identity_right of the identity does, "
        "where the identity is (-inf, 0))";
    return std::nullopt;
  }
  // identity_left / identity_right combine with (-inf, 0): the same law only for an operator whose
  // identity that is.
  if (!bitwise_equal(combine.op().host.initial(), identity_state()) || c.identity_from_model) {
    *why_not = r.op + "'s identity is not the properties' (-inf, 0): its identity law is not " +
               to_string(r.law) + "'s";
    return std::nullopt;
  }
  return std::vector<State>{c.a};
}

}  // namespace

bool depends_on_no_exp_value(const Counterexample& c) {
  return std::all_of(c.exps.begin(), c.exps.end(), [](const ExpValue& v) {
    return (v.function == "exp" || v.function == "exp2") && v.argument == 0.0f;
  });
}

std::optional<RegressionRecord> counterexample_record(const ProofResult& r,
                                                      const Executor& executor,
                                                      std::string* why_not) {
  if (!r.counterexample) {
    *why_not = r.proven ? "proven: no counterexample" : "no counterexample";
    return std::nullopt;
  }
  if (!r.counterexample->reproduced) {
    *why_not = "the model's counterexample is not reproduced on the CPU model";
    return std::nullopt;
  }
  const std::optional<CombineKind> combine = parse_combine(r.op);
  if (!combine) {
    *why_not = "'" + r.op +
               "' is no combine operator of this program's registry (combine_kind.h): "
               "`osvs replay` cannot run it";
    return std::nullopt;
  }
  std::optional<std::vector<State>> states = property_states(r, *combine, why_not);
  if (!states) return std::nullopt;
  RegressionRecord record;
  record.property = to_string(r.law);  // Law's names are the properties' names
  record.input.combine = *combine;
  record.input.states = std::move(*states);
  record.input.state_format = r.format.dtype();
  record.expectation = Expectation::Violates;
  record.note =
      "the SMT solver's counterexample from the operator's own source (formal/): " + describe(r);
  record.provenance = make_provenance(executor, "smt");
  record.provenance.solver = solver_words(r);
  record.provenance.any_exp = depends_on_no_exp_value(*r.counterexample);
  return record;
}

WrittenCounterexample write_counterexample(const ProofResult& r, Executor& executor,
                                           const std::filesystem::path& root) {
  WrittenCounterexample w;
  std::optional<RegressionRecord> record = counterexample_record(r, executor, &w.why_not);
  if (!record) return w;
  w.confirmation = replay_record(*record, "<new>", executor, &find_property);
  if (w.confirmation->status != ReplayStatus::Met) {
    w.why_not = std::string("the ") + executor.name() + " executor does not confirm it (" +
                to_string(w.confirmation->status) + "): " + w.confirmation->message;
    return w;
  }
  record->verdict = *w.confirmation->verdict;
  w.new_file =
      !std::filesystem::exists(root / record->property / (regression_id(*record) + ".json"));
  w.file = write_regression(*record, root);
  return w;
}

}  // namespace osvs::formal
