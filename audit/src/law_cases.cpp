#include "law_cases.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/merge_trees.h"
#include "osvs/properties/exact_shift.h"

namespace osvs::audit {
namespace {

/// Chunks in slot order, merged left to right into slot 0: ((c0 (+) c1) (+) c2) ...
HarnessCase left_deep(std::int64_t n, int k) {
  return in_order_schedule(even_partition(n, k), left_deep_tree(k));
}

/// The same chunks in reverse slot order, merged by the shuffle tree.
HarnessCase reversed_shuffle(std::int64_t n, int k) {
  HarnessCase h;
  h.chunk_offsets = even_partition(n, k);
  for (int s = 0; s < k; ++s) h.slot_chunk.push_back(k - 1 - s);
  h.merges = shuffle_tree(k);
  return h;
}

/// The 32 chunk states of rows[0] as the executor computes them, plus both identity states: the
/// states the kernels really combine, and the ones the identity laws are about.
std::vector<State> kernel_states(const Case& base, Executor& executor) {
  HarnessCase h = left_deep(std::ssize(base.rows[0]), kWarpSize);
  h.row = base.rows[0];
  const HarnessResult r = executor.run_harness(HarnessBatch{base.combine, {h}, true});
  std::vector<State> states = r.chunk_states[0];
  states.push_back(identity_state());
  states.push_back(seed_initial_state());
  return states;
}

/// Every ordered pair (s_i, s_j), i < j, flattened: the pairs commutativity compares.
std::vector<State> all_pairs(const std::vector<State>& s) {
  std::vector<State> out;
  for (std::size_t i = 0; i < s.size(); ++i)
    for (std::size_t j = i + 1; j < s.size(); ++j) {
      out.push_back(s[i]);
      out.push_back(s[j]);
    }
  return out;
}

/// rows[0] snapped to its shift grid (osvs/properties/exact_shift.h), scaled down first if its
/// magnitude calls for it, with the shift that moves its maximum to 0 (the usual normalisation,
/// exact on the grid), or one grid step when the maximum is 0 already.
void shift_case(const std::vector<float>& row, Case& c) {
  const std::vector<float> scaled = scaled_for_shift(row, 0);
  const float q =
      shift_quantum(scaled);  // of the row before snapping, which may round up to 2^22 q
  c.rows = {snap_to_grid(scaled, q)};
  float m = -std::numeric_limits<float>::infinity();
  for (float x : c.rows[0]) m = std::max(m, x);
  c.shift = std::isfinite(m) && m != 0 ? -m : q;
}

/// A NaN row, a +inf row and a fully masked row of the configuration's length, then rows[0].
std::vector<std::vector<float>> special_rows(const std::vector<float>& row) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  std::vector<float> with_nan = row, with_inf = row, masked(row.size(), -inf);
  with_nan[with_nan.size() / 2] = std::numeric_limits<float>::quiet_NaN();
  with_inf[0] = inf;
  return {with_nan, with_inf, masked, row};
}

}  // namespace

bool is_combine_law(const std::string& name) {
  return name == "identity_right" || name == "identity_left" || name == "finite_identity" ||
         name == "commutativity" || name == "warp_reduce" || name == "tree_invariance";
}

std::optional<Case> law_case(const std::string& name, const Config& config,
                             const std::vector<std::vector<float>>& rows, Executor& executor,
                             std::uint64_t seed) {
  Case c;
  c.kernel = config.kut.kernel;
  c.combine = config.kut.combine;
  c.block = config.block;
  c.rows = {rows.front()};
  const std::int64_t n = std::ssize(rows.front());
  if (name == "identity_right" || name == "identity_left" || name == "finite_identity") {
    c.states = kernel_states(c, executor);
  } else if (name == "commutativity") {
    c.states = all_pairs(kernel_states(c, executor));
  } else if (name == "warp_reduce") {
    c.schedules = {warp_tree_schedule(even_partition(n, kWarpSize))};
  } else if (name == "tree_invariance") {
    c.schedules = {left_deep(n, 40), reversed_shuffle(n, 40)};
  } else if (name == "permutation") {
    c.permutation.resize(static_cast<std::size_t>(n));
    std::iota(c.permutation.begin(), c.permutation.end(), 0);
    std::mt19937_64 rng(seed);
    std::shuffle(c.permutation.begin(), c.permutation.end(), rng);
  } else if (name == "shift_invariance") {
    shift_case(rows.front(), c);
  } else if (name == "batch_invariance") {
    c.rows = rows;
    c.batch_rows = 3;
    c.batch_position = 1;
  } else if (name == "special_values") {
    c.rows = special_rows(rows.front());
  } else if (name == "accuracy" || name == "sum_to_one" || name == "softmax_range" ||
             name == "determinism" || name == "executor_agreement") {
    c.rows = rows;
  } else {
    return std::nullopt;
  }
  return c;
}

}  // namespace osvs::audit
