// exp-check.md: the summary, the worst inputs and the largest error per input binade.
#include <cstdio>
#include <sstream>

#include "osvs/exhaustive/report.h"
#include "osvs/kernels/hex.h"

namespace osvs::exhaustive {
namespace {

/// Four decimals; errors below 10^-3 ulp (inputs next to 0, whose b^x is next to 1) in %.2e.
std::string ulps(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, v > 0 && v < 1e-3 ? "%.2e" : "%.4f", v);
  return buf;
}

std::string seconds(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string at(const Sample& s) {
  return s.ulp > 0 ? ulps(s.ulp) + " at `" + hex(s.x) + "`" : "0";
}

std::string declared_text(const DeclaredAccuracy& d) {
  std::string t = ulps(d.max_ulp);
  if (d.ulp_per_abs_x != 0) t += " + ⌊" + ulps(d.ulp_per_abs_x) + " \\|x\\|⌋";
  return t + (d.normal_results_only ? " (normal results)" : "");
}

void summary(std::ostringstream& o, const Report& r) {
  o << "| exp | side | declared (constant) | max ulp, normal results | max ulp, subnormal "
       "results | not correctly rounded | beyond declared | seconds |\n"
       "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const ExpMeasurement& m : r.exps)
    o << "| " << m.exp.name << " | " << to_string(m.exp.side) << " | "
      << declared_text(m.exp.declared) << " (`" << m.exp.declared.constant << "`) | "
      << at(m.worst_normal) << " | " << at(m.worst_subnormal) << " | " << m.not_correctly_rounded
      << " of " << m.inputs << " | " << m.violations << " | " << seconds(m.seconds) << " |\n";
}

void worst_inputs(std::ostringstream& o, const Report& r) {
  o << "\n## Worst inputs (errors recomputed in MPFR)\n\n| exp | x | observed | correctly "
       "rounded | ulp |\n| --- | --- | --- | --- | --- |\n";
  for (const ExpMeasurement& m : r.exps)
    for (const Sample& s : m.worst)
      o << "| " << m.exp.name << " | `" << hex(s.x) << "` | `" << hex(s.observed) << "` | `"
        << hex(exact_exp(s.x, m.exp.base).rounded) << "` | " << ulps(s.ulp) << " |\n";
  for (const ExpMeasurement& m : r.exps)
    if (m.violations > 0)
      o << "\n**" << m.exp.name << "**: " << m.violations
        << " inputs beyond the declared accuracy; worst: " << counterexample(m) << "\n";
}

void by_binade(std::ostringstream& o, const Report& r) {
  o << "\n## Largest error per input binade (normal results / subnormal results; — none)\n\n"
       "| input binade |";
  for (const ExpMeasurement& m : r.exps) o << " " << m.exp.name << " |";
  o << "\n| --- |";
  for (std::size_t k = 0; k < r.exps.size(); ++k) o << " --- |";
  o << "\n";
  for (int i = 0; i < kInputBinades; ++i) {
    bool any = false;
    for (const ExpMeasurement& m : r.exps) {
      const BinadeStats& b = m.by_input_binade[static_cast<std::size_t>(i)];
      any |= b.worst_normal.ulp > 0 || b.worst_subnormal.ulp > 0;
    }
    if (!any) continue;
    o << "| " << input_binade_label(i) << " |";
    for (const ExpMeasurement& m : r.exps) {
      const BinadeStats& b = m.by_input_binade[static_cast<std::size_t>(i)];
      if (b.inputs == 0) {
        o << " |";
        continue;
      }
      const bool has_subnormal = b.worst_subnormal.ulp > 0 || b.worst_subnormal.x != 0;
      o << " " << ulps(b.worst_normal.ulp) << " / "
        << (has_subnormal ? ulps(b.worst_subnormal.ulp) : std::string("—")) << " |";
    }
    o << "\n";
  }
}

void double_exps(std::ostringstream& o, const Report& r) {
  if (r.double_exps.empty()) return;
  o << "\n## The host libm's double exp (the premise of the reference and of the oracle)\n\n"
       "| function | domain | samples | max ulp (double) | worst argument | seconds |\n"
       "| --- | --- | --- | --- | --- | --- |\n";
  for (const DoubleExpCheck& c : r.double_exps)
    o << "| glibc " << to_string(c.base) << " | " << c.domain << " | " << c.samples << " | "
      << ulps(c.max_ulp) << " | `" << hex(c.worst_argument) << "` | " << seconds(c.seconds)
      << " |\n";
}

}  // namespace

std::string to_markdown(const Report& r) {
  std::ostringstream o;
  const Provenance& p = r.provenance;
  o << "# Exp accuracy measured by osvs_exp_check\n\n"
    << "- date: " << p.date << "\n- commit: " << p.commit << "\n- host: " << p.host << ", "
    << p.libc << "\n- device: " << p.device << "\n- device code: " << p.nvcc
    << "\n- inputs: " << p.inputs << "\n\n"
    << "Errors are in ulps of the exact result (docs/semantics.md §4: subnormal ulp 2^-149), "
       "measured against the correctly rounded exp (certified double fast path, MPFR where it "
       "cannot decide; exhaustive/README.md). A result is *subnormal* when its correctly rounded "
       "value is subnormal or 0.\n\n";
  summary(o, r);
  worst_inputs(o, r);
  double_exps(o, r);
  by_binade(o, r);
  return o.str();
}

}  // namespace osvs::exhaustive
