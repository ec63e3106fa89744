// Row kernels' cases for the law runs (kind_cases.h).
#include <algorithm>

#include "column_removal.h"
#include "kind_cases.h"
#include "osvs/api/row_cases.h"

namespace osvs::testbed {
namespace {

/// c without columns [first, first + count) of every row (column_removal.h).
RowCase without_columns(const RowCase& c, std::size_t first, std::size_t count) {
  RowCase out = c;
  erase_columns(out.rows, first, count);
  out.permutation = permutation_without_columns(c.permutation, first, count);
  return out;
}

}  // namespace

rc::Gen<RowCase> law_cases(const RowKernel& k, const RowLaw& law) {
  return row_case(k, law.name);
}

std::vector<RowCase> declared_cases(const RowKernel& k, const RowLaw& law) {
  return layout_cases(k, law.name);
}

void reduce_case(const RowKernel&, const RowCase& smallest, const Reduction<RowCase>& r) {
  // Later rows first: the subject row 0 stays the subject when a later one goes.
  for (std::size_t i = smallest.rows.size(); i-- > 0 && smallest.rows.size() > 1;)
    r.accept(without_element(smallest, &RowCase::rows, i));
  for (std::size_t chunk = smallest.rows[0].size() / 2; chunk >= 1 && !r.out_of_time(); chunk /= 2)
    for (std::size_t first = 0; first + chunk <= smallest.rows[0].size() && !r.out_of_time();)
      if (smallest.rows[0].size() <= chunk || !r.accept(without_columns(smallest, first, chunk)))
        first += chunk;
  for (std::int64_t b = 1; b < smallest.batch_rows && !r.out_of_time(); ++b) {
    RowCase candidate = smallest;
    candidate.batch_rows = b;
    candidate.batch_position = std::min(candidate.batch_position, b - 1);
    if (r.accept(candidate)) break;
  }
}

}  // namespace osvs::testbed
