#include <fmt/format.h>

#include "osvs/audit/report.h"

namespace osvs::audit {

std::string console_table(const AuditReport& r) {
  std::string s = fmt::format("{:<18} {:>12} {:>9} {:>9} {:>9} {:>10} {:>9} {:>10} {:>7} {:>7}\n",
                              "kernel", "elements", "max ulp", "p99.9", "bound", "tightness",
                              "search", "violations", "laws", "defects");
  for (const KernelSummary& k : summarize_kernels(r))
    s += k.configs == 0 ? fmt::format("{:<18} {:>12}\n", k.kut.label(), "not run")
                        : fmt::format(
                              "{:<18} {:>12} {:>9.3f} {:>9.3f} {:>9} {:>10.3f} {:>9.3f} {:>10} "
                              "{:>7} {:>7}\n",
                              k.kut.label(), k.elements, k.ulp.max(), k.ulp.quantile_upper(0.999),
                              bound_text(k.y_bound_max), k.tightness, k.search_ratio,
                              k.violating_rows, k.law_failures, k.known_defects);
  if (r.perf.ran)
    for (const ShapeTiming& t : r.perf.shapes)
      s += fmt::format("perf {}x{}: 3-pass / 2-pass = {:.2f} (seed), {:.2f} (hardened)\n", t.rows,
                       t.cols, three_over_two(t, CombineKind::Seed),
                       three_over_two(t, CombineKind::Hardened));
  else
    s += "perf: " + r.perf.skipped_because + "\n";
  s += fmt::format("{:.3g} elements/s; release {}\n", elements_per_second(r),
                   release_passes(r) ? "PASSES" : "FAILS");
  return s;
}

}  // namespace osvs::audit
