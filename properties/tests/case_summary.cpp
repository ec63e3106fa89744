#include "case_summary.h"

#include <algorithm>
#include <cstdio>

#include "osvs/properties/gen/rows.h"

namespace osvs::test {
namespace {

std::string hex(float x) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%a", static_cast<double>(x));
  return buf;
}

std::string first_values(const std::vector<float>& row) {
  std::string s = "[";
  const std::size_t shown = std::min(row.size(), kSummaryValues);
  for (std::size_t j = 0; j < shown; ++j) s += (j ? ", " : "") + hex(row[j]);
  return s + (row.size() > shown ? ", ...]" : "]");
}

}  // namespace

std::string summarize_case(const Case& c) {
  std::string s = std::string("kernel ") + to_string(c.kernel) + ", combine " +
                  to_string(c.combine) + ", block " + std::to_string(c.block);
  if (!c.mutant.empty()) s += ", mutation " + c.mutant;
  if (!c.rows.empty()) {
    s += "; " + std::to_string(c.rows.size()) + " row(s) of " +
         std::to_string(c.rows.front().size()) + " (";
    for (std::size_t i = 0; i < c.rows.size(); ++i)
      s += (i ? ", " : "") + std::string(gen::row_class(c.rows[i]));
    s += "), row 0 = " + first_values(c.rows.front());
  }
  if (!c.states.empty()) {
    s += "; " + std::to_string(c.states.size()) + " state(s):";
    for (std::size_t i = 0; i < std::min(c.states.size(), kSummaryValues); ++i)
      s += " (" + hex(c.states[i].m) + ", " + hex(c.states[i].d) + ")";
    if (c.states.size() > kSummaryValues) s += " ...";
  }
  if (!c.schedules.empty()) s += "; " + std::to_string(c.schedules.size()) + " schedule(s)";
  if (!c.permutation.empty())
    s += "; a permutation of " + std::to_string(c.permutation.size()) + " indices";
  if (c.shift != 0) s += "; shift " + hex(c.shift);
  if (c.batch_rows > 1)
    s += "; row 0 at position " + std::to_string(c.batch_position) + " of " +
         std::to_string(c.batch_rows);
  return s;
}

}  // namespace osvs::test
