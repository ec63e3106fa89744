// Implementation of gen/schedules.h.
#pragma once

#include <numeric>

namespace osvs::gen {

inline const char* to_string(TreeShape s) {
  return name_in(kTreeShapeNames, s);
}

inline rc::Gen<std::vector<std::int64_t>> partition(std::int64_t n, int chunks) {
  return rc::gen::map(
      rc::gen::container<std::vector<std::int64_t>>(static_cast<std::size_t>(chunks - 1),
                                                    rc::gen::inRange<std::int64_t>(0, n + 1)),
      [n](std::vector<std::int64_t> cuts) { return offsets_from_cuts(std::move(cuts), n); });
}

namespace detail {

/// A pseudo-random source of choices for the builders of merge_trees.h (an LCG over `seed`).
inline auto lcg_below(std::uint64_t seed) {
  return [seed](std::int64_t k) mutable {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::int64_t>((seed >> 33) % static_cast<std::uint64_t>(k));
  };
}

}  // namespace detail

inline rc::Gen<std::vector<std::int64_t>> permutation(std::int64_t n) {
  std::vector<std::int64_t> identity(static_cast<std::size_t>(n));
  std::iota(identity.begin(), identity.end(), 0);
  return rc::gen::weightedOneOf<std::vector<std::int64_t>>({
      {1, rc::gen::just(identity)},
      {1, rc::gen::just(std::vector<std::int64_t>(identity.rbegin(), identity.rend()))},
      {4, rc::gen::map(
              rc::gen::arbitrary<std::uint64_t>(),
              [n](std::uint64_t seed) { return random_permutation(n, detail::lcg_below(seed)); })},
  });
}

inline rc::Gen<std::vector<Merge>> tree(TreeShape shape, int slots) {
  switch (shape) {
    case TreeShape::LeftDeep:
      return rc::gen::just(left_deep_tree(slots));
    case TreeShape::RightDeep:
      return rc::gen::just(right_deep_tree(slots));
    case TreeShape::Balanced:
      return rc::gen::just(balanced_tree(slots));
    case TreeShape::Shuffle:
      return rc::gen::just(shuffle_tree(slots));
    case TreeShape::Random:
      break;
  }
  return rc::gen::map(rc::gen::arbitrary<std::uint64_t>(), [slots](std::uint64_t seed) {
    return random_tree(slots, detail::lcg_below(seed));
  });
}

inline rc::Gen<HarnessCase> schedule(std::int64_t n) {
  const auto shape = rc::gen::element(TreeShape::LeftDeep, TreeShape::RightDeep,
                                      TreeShape::Balanced, TreeShape::Random, TreeShape::Shuffle);
  return rc::gen::mapcat(
      rc::gen::pair(rc::gen::inRange(1, kMaxChunks + 1), shape), [n](auto kshape) {
        const int k = kshape.first;
        return rc::gen::map(rc::gen::tuple(partition(n, k), permutation(k), tree(kshape.second, k)),
                            [](const std::tuple<std::vector<std::int64_t>,
                                                std::vector<std::int64_t>, std::vector<Merge>>& t) {
                              HarnessCase c;
                              c.chunk_offsets = std::get<0>(t);
                              for (std::int64_t s : std::get<1>(t))
                                c.slot_chunk.push_back(static_cast<std::int32_t>(s));
                              c.merges = std::get<2>(t);
                              c.root = 0;
                              return c;
                            });
      });
}

inline rc::Gen<HarnessCase> warp_schedule(std::int64_t n) {
  return rc::gen::map(partition(n, kWarpSize), &warp_tree_schedule);
}

}  // namespace osvs::gen
