// Reduction-order laws: the warp's shuffle tree and arbitrary partitions, orders and trees agree
// with the oracle within their derived bounds.
#include <stdexcept>

#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/merge_trees.h"
#include "osvs/oracle/reference.h"
#include "osvs/properties/checks.h"
#include "root_judge.h"
#include "support.h"

namespace osvs {
namespace {

HarnessCase on_row(HarnessCase hc, const std::vector<float>& row) {
  hc.row = row;
  return hc;
}

const std::vector<float>& first_row(const Case& c, const char* property) {
  if (c.rows.empty()) throw std::invalid_argument(std::string(property) + " needs rows[0]");
  return c.rows.front();
}

}  // namespace

Verdict check_warp_reduce(const Case& c, Executor& ex) {
  const auto& row = first_row(c, "warp_reduce");
  if (c.schedules.empty() || c.schedules[0].chunk_offsets.size() != kWarpSize + 1)
    throw std::invalid_argument("warp_reduce needs schedules[0] with 32 chunks");
  HarnessBatch hb{c.combine, {on_row(c.schedules[0], row)}, true};
  const HarnessResult lanes = ex.run_harness(hb);
  const State root = ex.warp_reduce(c.combine, lanes.chunk_states[0])[0];
  const oracle::RowReference ref = oracle::reference_row(row.data(), std::ssize(row));
  // The bound of a schedule whose merges are the shuffle tree describes the warp's order.
  HarnessCase tree = warp_tree_schedule(hb.cases[0].chunk_offsets);
  tree.row = hb.cases[0].row;
  return props::judge_root(root, ref, tree, c.combine, props::exp_ulp(ex), "warp root");
}

Verdict check_tree_invariance(const Case& c, Executor& ex) {
  const auto& row = first_row(c, "tree_invariance");
  if (c.schedules.size() != 2) throw std::invalid_argument("tree_invariance needs two schedules");
  HarnessBatch hb{c.combine, {on_row(c.schedules[0], row), on_row(c.schedules[1], row)}, false};
  const HarnessResult r = ex.run_harness(hb);
  const oracle::RowReference ref = oracle::reference_row(row.data(), std::ssize(row));
  Verdict v;
  for (int t = 0; t < 2; ++t) {
    Verdict one = props::judge_root(r.root[t], ref, hb.cases[t], c.combine, props::exp_ulp(ex),
                                    "tree " + std::to_string(t) + " root");
    if (!one.holds()) return one;
    v.evidence.insert(v.evidence.end(), one.evidence.begin(), one.evidence.end());
  }
  const bool differ = !bitwise_equal(r.root[0], r.root[1]);
  v.evidence.push_back({"roots differ bitwise", differ ? 1.0 : 0.0, 0, 0, 0});
  if (differ) v.explanation = "roots " + props::hex(r.root[0]) + " and " + props::hex(r.root[1]);
  return v;
}

}  // namespace osvs
