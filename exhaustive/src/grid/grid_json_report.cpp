// combine-grid.json: provenance, then per operator and law every count, every non-zero
// classification key and the first counterexamples (floats as hex text, NaNs with their bits).
#include <nlohmann/json.hpp>

#include "../provenance_json.h"
#include "osvs/exhaustive/grid/grid_report.h"
#include "osvs/kernels/hex.h"

namespace osvs::exhaustive::grid {
namespace {

using nlohmann::json;

json state_json(State s) {
  return {{"m", float_text(s.m)}, {"d", float_text(s.d)}};
}

json example_json(Law l, const Counterexample& c) {
  json j = {{"index", c.index}, {"text", counterexample_text(l, c)}};
  if (is_state_law(l)) {
    if (c.index == kGridStates) j["index"] = "initial (+) initial";
    j["s"] = state_json(c.a);
    j["e"] = state_json(c.b);
    j["e_s"] = state_json(c.r1);
    j["s_e"] = state_json(c.r2);
    return j;
  }
  j["pass"] = c.pass;
  j["a"] = state_json(c.a);
  j["b"] = state_json(c.b);
  j["a_b"] = state_json(c.r1);
  j["b_a"] = state_json(c.r2);
  if (l == Law::OneStepBound) {
    j["reference"] = hex(c.reference);
    j["bound"] = hex(c.bound);
    j["ratio"] = std::isfinite(c.ratio) ? json(c.ratio) : json(hex(c.ratio));
    j["decided_by_mpfr"] = c.decided_by_mpfr;
  }
  return j;
}

json keys_json(Law l, const std::vector<std::uint64_t>& by_key) {
  json keys = json::array();
  for (std::size_t k = 0; k < by_key.size(); ++k)
    if (by_key[k] != 0)
      keys.push_back({{"class", key_label(l, static_cast<int>(k))}, {"count", by_key[k]}});
  return keys;
}

json law_json(const LawResult& l) {
  json examples = json::array(), outside = json::array();
  for (const Counterexample& c : l.first) examples.push_back(example_json(l.law, c));
  for (const Counterexample& c : l.first_outside) outside.push_back(example_json(l.law, c));
  json j = {{"law", to_string(l.law)},
            {"held", l.held},
            {"checked", l.checked},
            {"violations", l.violations},
            {"violations_by_class", keys_json(l.law, l.by_key)},
            {"first_violations", examples}};
  if (l.law == Law::OneStepBound) {
    j["outside_domain"] = l.outside;
    j["undecided_by_double_reference"] = l.undecided;
  } else {
    j["outside_domain"] = l.outside;
    j["outside_domain_differences"] = l.outside_differences;
    j["outside_differences_by_class"] = keys_json(l.law, l.outside_by_key);
    j["first_outside_differences"] = outside;
  }
  return j;
}

json result_json(const GridResult& r) {
  json laws = json::array();
  for (const LawResult& l : r.laws) laws.push_back(law_json(l));
  json j = {{"combine", r.combine},
            {"executor", r.executor},
            {"device", r.device},
            {"inputs", r.spec.describe()},
            {"exp_ulp", r.exp_ulp},
            {"seconds", r.seconds},
            {"passed", r.passed()},
            {"initial", state_json(r.initial)},
            {"initial_combined_with_itself", state_json(r.initial_twice)},
            {"laws", laws}};
  if (!r.original.empty()) {
    j["mutant_of"] = r.original;
    j["defect"] = r.defect;
  }
  if (r.worst_ratio > 0) j["worst_bound_ratio"] = example_json(Law::OneStepBound, r.worst);
  return j;
}

}  // namespace

std::string to_json(const GridReport& r) {
  json results = json::array();
  for (const GridResult& g : r.results) results.push_back(result_json(g));
  const json j = {{"provenance", provenance_json(r.provenance)}, {"results", results}};
  return j.dump(1) + "\n";
}

}  // namespace osvs::exhaustive::grid
