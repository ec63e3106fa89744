// Rows are merged into their configuration as the worker threads finish them; the result must
// not depend on that order (ties: the lower row; kept violations: the lowest rows, in order).
#include "osvs/audit/row_merge.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace osvs::audit {
namespace {

RowAudit row_with(double ulp, double ratio, bool ok) {
  RowAudit a;
  a.worst_ulp.ulp = ulp;
  a.ratio = ratio;
  a.ok = ok;
  a.explanation = ok ? "" : "outside";
  return a;
}

/// Eight rows: ties in the largest error (rows 2 and 5) and in the tightness (rows 3 and 6), and
/// more violating rows than are kept.
std::vector<RowAudit> rows() {
  std::vector<RowAudit> out = {row_with(1, 0.1, true),  row_with(2, 0.2, false),
                               row_with(9, 0.3, false), row_with(3, 0.8, false),
                               row_with(4, 0.4, false), row_with(9, 0.5, false),
                               row_with(5, 0.8, false), row_with(6, 0.6, false)};
  for (std::size_t i = 0; i < out.size(); ++i) out[i].worst_ulp.index = static_cast<int>(i);
  return out;
}

ConfigResult merged(const std::vector<std::int64_t>& order) {
  const std::vector<RowAudit> all = rows();
  ConfigResult r;
  for (std::int64_t i : order) merge_row(r, all[static_cast<std::size_t>(i)], i);
  return r;
}

TEST(RowMerge, TiesGoToTheLowerRowInEveryOrder) {
  std::vector<std::int64_t> order(rows().size());
  std::iota(order.begin(), order.end(), 0);
  const ConfigResult forward = merged(order);
  EXPECT_EQ(forward.worst_ulp_row, 2);
  EXPECT_EQ(forward.worst_ratio_row, 3);
  std::reverse(order.begin(), order.end());
  const ConfigResult backward = merged(order);
  EXPECT_EQ(backward.worst_ulp_row, 2);
  EXPECT_EQ(backward.worst_ratio_row, 3);
  EXPECT_EQ(backward.tightness, forward.tightness);
}

TEST(RowMerge, KeptViolationsAreTheLowestRowsInEveryOrder) {
  const std::vector<std::int64_t> expected_rows = {1, 2, 3, 4, 5};  // 7 violate, 5 are kept
  ASSERT_EQ(expected_rows.size(), kKeptViolations);
  std::vector<std::int64_t> order(rows().size());
  std::iota(order.begin(), order.end(), 0);
  do {
    const ConfigResult r = merged(order);
    EXPECT_EQ(r.violating_rows, 7);
    ASSERT_EQ(r.violation_rows, expected_rows);
    for (std::size_t k = 0; k < expected_rows.size(); ++k)
      EXPECT_EQ(r.violations[k].rfind("row " + std::to_string(expected_rows[k]) + ":", 0), 0u)
          << r.violations[k];
  } while (std::next_permutation(order.begin(), order.end()));
}

}  // namespace
}  // namespace osvs::audit
