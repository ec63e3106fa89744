// Combine trees and harness schedules, written once: the warp's __shfl_down_sync tree as merges,
// the left-deep, right-deep and balanced trees, a random bracketing, partitions and permutations.
// The random builders take their choices from a callable `below(k)` that returns a value in
// [0, k), so that RapidCheck seeds, fuzzer bytes and std::mt19937 drive the same construction.
// Every tree here has its root in slot 0.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "osvs/kernels/cases.h"

namespace osvs {

/// Merges of the shuffle tree over `slots` slots (offsets 16, 8, 4, 2, 1 for 32): only those lane
/// 0's result depends on (a lane whose partner is out of range never feeds lane 0).
inline std::vector<Merge> shuffle_tree(int slots) {
  int width = 1;
  while (width < slots) width *= 2;
  std::vector<Merge> merges;
  for (int offset = width / 2; offset > 0; offset /= 2)
    for (int lane = 0; lane < offset && lane + offset < slots; ++lane)
      merges.push_back(Merge{lane, lane + offset});
  return merges;
}

/// The source of choices `below` for a standard random engine: uniform in [0, k).
template <class Engine>
auto uniform_below(Engine& engine) {
  return [&engine](std::int64_t k) {
    return std::uniform_int_distribution<std::int64_t>(0, k - 1)(engine);
  };
}

/// ((s0 + s1) + s2) + ...
inline std::vector<Merge> left_deep_tree(int slots) {
  std::vector<Merge> merges;
  for (int s = 1; s < slots; ++s) merges.push_back(Merge{0, s});
  return merges;
}

/// s0 + (s1 + (s2 + ...))
inline std::vector<Merge> right_deep_tree(int slots) {
  std::vector<Merge> merges;
  for (int s = slots - 2; s >= 0; --s) merges.push_back(Merge{s, s + 1});
  return merges;
}

/// Pairs, then pairs of pairs.
inline std::vector<Merge> balanced_tree(int slots) {
  std::vector<Merge> merges;
  for (int stride = 1; stride < slots; stride *= 2)
    for (int s = 0; s + stride < slots; s += 2 * stride) merges.push_back(Merge{s, s + stride});
  return merges;
}

/// A random bracketing with random operand order: while more than one slot is live, below(live)
/// picks the receiving slot and below(live - 1) another live slot merged into it (which is then
/// no longer live). Every bracketing and order is reachable. The last live slot's name is swapped
/// with slot 0's, so the root is slot 0.
template <class Below>
std::vector<Merge> random_tree(int slots, Below&& below) {
  std::vector<std::int32_t> live(static_cast<std::size_t>(slots));
  std::iota(live.begin(), live.end(), 0);
  std::vector<Merge> merges;
  while (live.size() > 1) {
    const auto count = static_cast<std::int64_t>(live.size());
    const auto dst = static_cast<std::size_t>(below(count));
    auto src = static_cast<std::size_t>(below(count - 1));
    if (src >= dst) ++src;  // any live slot but dst
    merges.push_back(Merge{live[dst], live[src]});
    live.erase(live.begin() + static_cast<std::ptrdiff_t>(src));
  }
  const std::int32_t root = live.empty() ? 0 : live.front();
  const auto rename = [root](std::int32_t s) { return s == root ? 0 : (s == 0 ? root : s); };
  for (Merge& m : merges) m = Merge{rename(m.dst), rename(m.src)};
  return merges;
}

/// A permutation of 0 .. n-1: Fisher-Yates, below(i + 1) choosing the element placed at i.
template <class Below>
std::vector<std::int64_t> random_permutation(std::int64_t n, Below&& below) {
  std::vector<std::int64_t> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  for (std::int64_t i = n - 1; i > 0; --i)
    std::swap(p[static_cast<std::size_t>(i)], p[static_cast<std::size_t>(below(i + 1))]);
  return p;
}

/// The chunk offsets 0, sorted cuts..., n of a partition of n elements (cuts in [0, n]).
inline std::vector<std::int64_t> offsets_from_cuts(std::vector<std::int64_t> cuts, std::int64_t n) {
  std::sort(cuts.begin(), cuts.end());
  cuts.insert(cuts.begin(), 0);
  cuts.push_back(n);
  return cuts;
}

/// k + 1 offsets splitting n elements into k chunks as evenly as possible (empty chunks when
/// n < k).
inline std::vector<std::int64_t> even_partition(std::int64_t n, int k) {
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(k) + 1);
  for (int i = 0; i <= k; ++i) offsets[static_cast<std::size_t>(i)] = n * i / k;
  return offsets;
}

/// The schedule of `offsets`' chunks placed in slots in order and merged by `merges` into slot 0
/// (the `row` field is left empty).
inline HarnessCase in_order_schedule(std::vector<std::int64_t> offsets, std::vector<Merge> merges) {
  HarnessCase h;
  h.slot_chunk.resize(offsets.size() - 1);
  std::iota(h.slot_chunk.begin(), h.slot_chunk.end(), 0);
  h.chunk_offsets = std::move(offsets);
  h.merges = std::move(merges);
  h.root = 0;
  return h;
}

/// The warp's order: 32 chunks (offsets.size() == 33) in lane order, reduced by the shuffle tree.
inline HarnessCase warp_tree_schedule(std::vector<std::int64_t> offsets) {
  const auto chunks = static_cast<int>(offsets.size()) - 1;
  return in_order_schedule(std::move(offsets), shuffle_tree(chunks));
}

/// A random schedule of a row of n elements in `chunks` chunks: chunks - 1 cuts below(n + 1), the
/// chunks placed into slots by random_permutation, merged along random_tree (root slot 0).
template <class Below>
HarnessCase random_schedule(std::int64_t n, int chunks, Below&& below) {
  std::vector<std::int64_t> cuts(static_cast<std::size_t>(chunks - 1));
  for (auto& cut : cuts) cut = below(n + 1);
  HarnessCase h;
  h.chunk_offsets = offsets_from_cuts(std::move(cuts), n);
  for (std::int64_t s : random_permutation(chunks, below))
    h.slot_chunk.push_back(static_cast<std::int32_t>(s));
  h.merges = random_tree(chunks, below);
  h.root = 0;
  return h;
}

}  // namespace osvs
