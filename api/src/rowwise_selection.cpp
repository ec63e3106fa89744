// The judge of argmax's and topk's outputs (rowwise_selection.h).
#include "rowwise_selection.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <vector>

#include "osvs/kernels/hex.h"
#include "osvs/oracle/selection_reference.h"

namespace osvs {
namespace {

std::string list(const std::vector<std::int64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size() && i < 8; ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() > 8 ? ", ...]" : "]");
}

bool same_bits_or_nans(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

std::optional<Finding> selection_problem(const RowwiseKernel& k, const SelectionRow& row,
                                         const std::string& where) {
  const auto fail = [&](const char* kind, const std::string& why) {
    return Finding{kind, where + why};
  };
  const std::vector<std::int64_t> expected =
      oracle::top_indices({row.x, static_cast<std::size_t>(row.n)}, row.k);
  std::vector<std::int64_t> got;
  for (std::int64_t i = 0; i < row.k; ++i) {
    const float v = row.indices[i];
    if (!(std::trunc(v) == v && v >= 0 && v < static_cast<float>(row.n)))
      return fail("index outside the row", "index " + std::to_string(i) + " is " + readable(v) +
                                               ", not in [0, " + std::to_string(row.n) + ")");
    got.push_back(static_cast<std::int64_t>(v));
  }
  const auto at = [&](std::int64_t j) { return row.x[static_cast<std::size_t>(j)]; };
  const std::string expected_text =
      "; the exact indices " + list(expected) + " (ties: " + to_string(k.traits().ties) + ")";
  if (std::set<std::int64_t>(got.begin(), got.end()).size() != got.size())
    return fail("an index repeated", "indices " + list(got) + " repeat one" + expected_text);
  if (row.values)
    for (std::int64_t i = 0; i < row.k; ++i)
      if (!same_bits_or_nans(row.values[i], at(got[static_cast<std::size_t>(i)])))
        return fail("a value not its element",
                    "values[" + std::to_string(i) + "] = " + readable(row.values[i]) + " but x[" +
                        std::to_string(got[static_cast<std::size_t>(i)]) +
                        "] = " + readable(at(got[static_cast<std::size_t>(i)])));
  // The selected values against the k largest, both in rank order of value (index ignored).
  const auto by_value = [&](std::int64_t a, std::int64_t b) {
    return oracle::ranks_above(at(a), 0, at(b), 0);
  };
  std::vector<std::int64_t> sorted_got = got;
  std::stable_sort(sorted_got.begin(), sorted_got.end(), by_value);
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (!oracle::same_rank_value(at(sorted_got[i]), at(expected[i])))
      return fail("not the largest", "selected x at " + list(got) + ": rank " +
                                         std::to_string(i + 1) + " by value is " +
                                         readable(at(expected[i])) + ", not " +
                                         readable(at(sorted_got[i])) + expected_text);
  const bool lowest = k.traits().ties == Ties::Lowest;
  if (lowest && std::set<std::int64_t>(got.begin(), got.end()) !=
                    std::set<std::int64_t>(expected.begin(), expected.end()))
    return fail("not the lowest index of a tie",
                "indices " + list(got) + " pick other elements of a tie" + expected_text);
  const bool sorted = k.op() == RowwiseOp::Argmax || k.traits().sorted;
  if (sorted)
    for (std::size_t i = 1; i < got.size(); ++i) {
      const bool misordered =
          lowest ? !oracle::ranks_above(at(got[i - 1]), got[i - 1], at(got[i]), got[i])
                 : by_value(got[i], got[i - 1]);
      if (misordered)
        return fail("not in descending order",
                    "indices " + list(got) + " at position " + std::to_string(i) + expected_text);
    }
  return std::nullopt;
}

}  // namespace osvs
