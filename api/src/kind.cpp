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
  std::string s = std::to_string(c.parts.size()) + " partials of " + std::to_string(p.rows) +
                  " row(s) x head_dim " + std::to_string(p.head_dim) + ", " + to_string(p.o_type) +
                  ", base " + to_string(c.base);
  if (c.shape.heads > 1) s += ", " + std::to_string(c.shape.heads) + " heads a token";
  if (c.shape.head_pad || c.shape.token_pad)
    s += ", o padding " + std::to_string(c.shape.head_pad) + " a head, " +
         std::to_string(c.shape.token_pad) + " a token";
  return s;
}

}  // namespace osvs
