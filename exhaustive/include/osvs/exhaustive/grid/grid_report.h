// What a combine-grid run leaves behind: combine-grid.json (everything: counts, every non-zero
// classification key, the first counterexamples) and combine-grid.md (for people).
#pragma once

#include <string>
#include <vector>

#include "osvs/exhaustive/grid/grid_result.h"
#include "osvs/exhaustive/report.h"

namespace osvs::exhaustive::grid {

struct GridReport {
  Provenance provenance;
  std::vector<GridResult> results;
};

/// A float as hex text; a NaN with its bits ("nan(0x7f810000)"), since payloads matter here.
std::string float_text(float x);
/// "(m, d)" with float_text.
std::string state_text(State s);

std::string to_json(const GridReport& r);
std::string to_markdown(const GridReport& r);

/// One line per violated held law: "COUNTEREXAMPLE hardened commutativity: a = (...), b = (...):
/// a (+) b = (...), b (+) a = (...)".
std::vector<std::string> counterexample_lines(const GridResult& r);

/// One counterexample of law l in words (the operands, both results; the bound law adds T, B).
std::string counterexample_text(Law l, const Counterexample& c);

}  // namespace osvs::exhaustive::grid
