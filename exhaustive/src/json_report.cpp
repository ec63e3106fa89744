// exp-check.json and verified.json.
#include <nlohmann/json.hpp>

#include "osvs/exhaustive/report.h"
#include "osvs/kernels/hex.h"
#include "provenance_json.h"

namespace osvs::exhaustive {
namespace {

using nlohmann::json;

json number(double v) {
  return std::isfinite(v) ? json(v) : json(hex(v));  // JSON has no inf
}

json sample_json(const Sample& s, const ExpBase base) {
  return {{"x", hex(s.x)},
          {"observed", hex(s.observed)},
          {"correctly_rounded", hex(exact_exp(s.x, base).rounded)},
          {"ulp", number(s.ulp)}};
}

json declared_json(const DeclaredAccuracy& d) {
  return {{"max_ulp", d.max_ulp},
          {"ulp_per_abs_x", d.ulp_per_abs_x},
          {"scope", d.normal_results_only ? "normal results" : "every result"},
          {"constant", d.constant},
          {"source", d.source}};
}

json measurement_json(const ExpMeasurement& m) {
  const ExpBase base = m.exp.base;
  json binades = json::array();
  for (int i = 0; i < kInputBinades; ++i) {
    const BinadeStats& b = m.by_input_binade[static_cast<std::size_t>(i)];
    if (b.inputs == 0) continue;
    binades.push_back({{"input_binade", input_binade_label(i)},
                       {"inputs", b.inputs},
                       {"not_correctly_rounded", b.not_correctly_rounded},
                       {"normal_results", sample_json(b.worst_normal, base)},
                       {"subnormal_results", sample_json(b.worst_subnormal, base)}});
  }
  json worst = json::array();
  for (const Sample& s : m.worst) worst.push_back(sample_json(s, base));
  return {{"name", m.exp.name},
          {"base", to_string(base)},
          {"side", to_string(m.exp.side)},
          {"used_by", m.exp.used_by},
          {"declared", declared_json(m.exp.declared)},
          {"inputs", m.inputs},
          {"seconds", m.seconds},
          {"not_correctly_rounded", m.not_correctly_rounded},
          {"max_normal_results", sample_json(m.worst_normal, base)},
          {"max_subnormal_results", sample_json(m.worst_subnormal, base)},
          {"needed_max_ulp", number(m.needed_max_ulp)},
          {"needed_at", sample_json(m.needed_at, base)},
          {"violations", m.violations},
          {"worst_violation", m.violations ? sample_json(m.worst_violation, base) : json()},
          {"worst", worst},
          {"by_input_binade", binades}};
}

json double_json(const DoubleExpCheck& c) {
  return {{"function", std::string("glibc ") + to_string(c.base) + " (double)"},
          {"domain", c.domain},
          {"samples", c.samples},
          {"max_ulp", c.max_ulp},
          {"worst_argument", hex(c.worst_argument)},
          {"seconds", c.seconds}};
}

}  // namespace

std::string to_json(const Report& r) {
  json exps = json::array(), doubles = json::array();
  for (const ExpMeasurement& m : r.exps) exps.push_back(measurement_json(m));
  for (const DoubleExpCheck& c : r.double_exps) doubles.push_back(double_json(c));
  return json{{"provenance", provenance_json(r.provenance)},
              {"exps", exps},
              {"double_exps", doubles}}
             .dump(1) +
         "\n";
}

std::string to_verified_json(const Report& r) {
  json figures = json::array();
  for (const ExpMeasurement& m : r.exps) {
    if (m.inputs != (std::uint64_t{1} << 32)) continue;  // only exhaustive runs verify
    figures.push_back({{"name", m.exp.name},
                       {"side", to_string(m.exp.side)},
                       {"declared", declared_json(m.exp.declared)},
                       {"needed_max_ulp", number(m.needed_max_ulp)},
                       {"violations", m.violations},
                       {"counterexample", counterexample(m)},
                       {"seconds", m.seconds}});
  }
  return json{{"provenance", provenance_json(r.provenance)}, {"figures", figures}}.dump(1) + "\n";
}

}  // namespace osvs::exhaustive
