// The kinds' case summaries (osvs/api/kind.h).
#include "osvs/api/kind.h"

#include <sstream>

namespace osvs {

std::string case_summary(const RowCase& c) {
  std::ostringstream s;
  s << c.rows.size() << " row(s) of " << (c.rows.empty() ? 0 : c.rows[0].size()) << " elements";
  if (c.layout.x_pad || c.layout.y_pad)
    s << ", padding " << c.layout.x_pad << "/" << c.layout.y_pad;
  if (c.batch_rows > 1) s << ", at row " << c.batch_position << " of " << c.batch_rows;
  return s.str();
}

std::string case_summary(const MergeCase& c) {
  const AttnStates& p = c.parts.front();
  return std::to_string(c.parts.size()) + " partials of " + std::to_string(p.rows) +
         " row(s) x head_dim " + std::to_string(p.head_dim) + ", " + to_string(p.o_type) +
         ", base " + to_string(c.base);
}

}  // namespace osvs
