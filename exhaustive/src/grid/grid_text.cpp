// Texts of grid values and counterexamples, shared by the reports and the tool.
#include <cstdio>

#include "osvs/exhaustive/grid/grid_report.h"
#include "osvs/kernels/hex.h"

namespace osvs::exhaustive::grid {

std::string float_text(float x) {
  if (x == x) return hex(x);
  char buf[32];
  std::snprintf(buf, sizeof buf, "nan(0x%08x)", float_bits(x));
  return buf;
}

std::string state_text(State s) {
  std::string t = "(";  // appended, not "(" + ...: GCC 12 warns (-Wrestrict) on the latter
  t += float_text(s.m);
  t += ", ";
  t += float_text(s.d);
  t += ")";
  return t;
}

namespace {

std::string example_text(Law l, const Counterexample& c) {
  if (is_state_law(l))
    return "s = " + state_text(c.a) + ", e = " + state_text(c.b) +
           ": e (+) s = " + state_text(c.r1) + ", s (+) e = " + state_text(c.r2);
  std::string t = "a = " + state_text(c.a) + ", b = " + state_text(c.b) +
                  ": a (+) b = " + state_text(c.r1) + ", b (+) a = " + state_text(c.r2);
  if (l == Law::OneStepBound) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "; T = %a, B = %a, err / B = %.7g%s", c.reference, c.bound,
                  c.ratio, c.decided_by_mpfr ? " (decided by MPFR)" : "");
    t += buf;
  }
  return t;
}

}  // namespace

std::vector<std::string> counterexample_lines(const GridResult& r) {
  std::vector<std::string> lines;
  for (const LawResult& l : r.laws)
    if (l.held && l.violations > 0 && !l.first.empty())
      lines.push_back("COUNTEREXAMPLE " + r.combine + " " + to_string(l.law) + ": " +
                      example_text(l.law, l.first.front()));
  return lines;
}

std::string counterexample_text(Law l, const Counterexample& c) {
  return example_text(l, c);
}

}  // namespace osvs::exhaustive::grid
