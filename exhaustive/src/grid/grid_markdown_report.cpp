// combine-grid.md: the summary per operator and law, then per operator the classes of the
// counterexamples (largest first) and the first counterexamples in grid order.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <sstream>

#include "osvs/exhaustive/grid/grid_report.h"

namespace osvs::exhaustive::grid {
namespace {

constexpr std::size_t kClassesShown = 12;

std::string fixed(double v, const char* format) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string status(const LawResult& l) {
  if (l.violations == 0) return "holds";
  return l.held ? "**VIOLATED**" : "not claimed: counted";
}

void summary(std::ostringstream& o, const GridReport& r) {
  o << "| combine | executor | law | held | checked | violations | verdict | outside the "
       "domain (differences) | seconds |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- "
       "|\n";
  for (const GridResult& g : r.results)
    for (const LawResult& l : g.laws) {
      o << "| " << g.combine << " | " << g.executor << " | " << to_string(l.law) << " | "
        << (l.held ? "yes" : "no") << " | " << l.checked << " | " << l.violations << " | "
        << status(l) << " | " << l.outside;
      if (l.law != Law::OneStepBound) o << " (" << l.outside_differences << ")";
      o << " | " << fixed(g.seconds, "%.1f") << " |\n";
    }
}

void classes(std::ostringstream& o, Law law, const std::vector<std::uint64_t>& by_key,
             std::uint64_t total) {
  std::vector<std::size_t> order(by_key.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return by_key[x] > by_key[y]; });
  o << "| class | count | share |\n| --- | --- | --- |\n";
  for (std::size_t k = 0; k < std::min(kClassesShown, order.size()) && by_key[order[k]] != 0; ++k)
    o << "| " << key_label(law, static_cast<int>(order[k])) << " | " << by_key[order[k]] << " | "
      << fixed(100.0 * static_cast<double>(by_key[order[k]]) / static_cast<double>(total), "%.2f")
      << " % |\n";
  const auto nonzero = std::count_if(by_key.begin(), by_key.end(), [](auto c) { return c != 0; });
  if (static_cast<std::size_t>(nonzero) > kClassesShown)
    o << "\n(" << nonzero << " classes in all: combine-grid.json)\n";
}

void examples(std::ostringstream& o, Law law, const std::vector<Counterexample>& v) {
  for (const Counterexample& c : v) {
    o << "- ";
    if (!is_state_law(law)) o << "pass " << c.pass << ", ";
    o << "index " << c.index << ": `" << counterexample_text(law, c) << "`\n";
  }
}

void details(std::ostringstream& o, const GridResult& g) {
  o << "\n## " << g.combine << " (" << g.executor << ")\n\n";
  if (!g.original.empty())
    o << "A mutant of `" << g.original << "`: " << g.defect << ". Held to its original's laws.\n\n";
  o << "Inputs: " << g.spec.describe() << ". Exp accuracy in the bound: E = " << g.exp_ulp
    << " ulp. Initial state e = `" << state_text(g.initial) << "`, e (+) e = `"
    << state_text(g.initial_twice) << "`. " << fixed(g.seconds, "%.1f") << " s"
    << (g.device.empty() ? "" : " on " + g.device) << ".\n";
  if (g.worst_ratio > 0)
    o << "\nOne-step bound: largest err / B = " << fixed(g.worst_ratio, "%.7g")
      << " (tightness) at `" << counterexample_text(Law::OneStepBound, g.worst) << "`.\n";
  for (const LawResult& l : g.laws) {
    if (l.violations == 0 && l.outside_differences == 0) continue;
    o << "\n### " << to_string(l.law) << ": " << status(l) << "\n";
    if (l.violations > 0) {
      o << "\n" << l.violations << " of " << l.checked << " inside the domain";
      if (l.law == Law::OneStepBound) o << " (" << l.undecided << " decided by MPFR)";
      o << ". By class:\n\n";
      classes(o, l.law, l.by_key, l.violations);
      o << "\nFirst counterexamples (grid order):\n\n";
      examples(o, l.law, l.first);
    }
    if (l.outside_differences > 0) {
      o << "\nOutside the law's domain (informational): " << l.outside_differences << " of "
        << l.outside << " differ. By class:\n\n";
      classes(o, l.law, l.outside_by_key, l.outside_differences);
      o << "\nFirst ones:\n\n";
      examples(o, l.law, l.first_outside);
    }
  }
}

}  // namespace

std::string to_markdown(const GridReport& r) {
  std::ostringstream o;
  const Provenance& p = r.provenance;
  o << "# Combine laws on the bf16 grid\n\n"
       "Every law of exhaustive/README.md (\"The combine grid\") on every pair of the grid: "
       "bitwise commutativity and identity where the operator claims them, the finite identity "
       "and the one-step error bound for every operator. A law an operator does not claim is "
       "counted, not failed.\n\n"
    << "- date: " << p.date << "\n- commit: " << p.commit << "\n- host: " << p.host
    << "\n- libc: " << p.libc << "\n- device: " << p.device << "\n- nvcc: " << p.nvcc
    << "\n- inputs: " << p.inputs << "\n\n";
  summary(o, r);
  for (const GridResult& g : r.results) details(o, g);
  return o.str();
}

}  // namespace osvs::exhaustive::grid
