// Implementation of gen/schedules.h.
#pragma once

#include <algorithm>
#include <numeric>

namespace osvs::gen {

inline const char* to_string(TreeShape s) {
  switch (s) {
    case TreeShape::LeftDeep:
      return "left-deep";
    case TreeShape::RightDeep:
      return "right-deep";
    case TreeShape::Balanced:
      return "balanced";
    case TreeShape::Random:
      return "random";
    case TreeShape::Shuffle:
      return "shuffle";
  }
  return "?";
}

inline rc::Gen<std::vector<std::int64_t>> partition(std::int64_t n, int chunks) {
  return rc::gen::map(
      rc::gen::container<std::vector<std::int64_t>>(static_cast<std::size_t>(chunks - 1),
                                                    rc::gen::inRange<std::int64_t>(0, n + 1)),
      [n](std::vector<std::int64_t> cuts) {
        std::sort(cuts.begin(), cuts.end());
        cuts.insert(cuts.begin(), 0);
        cuts.push_back(n);
        return cuts;
      });
}

inline rc::Gen<std::vector<std::int64_t>> permutation(std::int64_t n) {
  std::vector<std::int64_t> identity(static_cast<std::size_t>(n));
  std::iota(identity.begin(), identity.end(), 0);
  return rc::gen::weightedOneOf<std::vector<std::int64_t>>({
      {1, rc::gen::just(identity)},
      {1, rc::gen::just(std::vector<std::int64_t>(identity.rbegin(), identity.rend()))},
      {4, rc::gen::map(rc::gen::arbitrary<std::uint64_t>(),
                       [identity](std::uint64_t seed) {
                         std::vector<std::int64_t> p = identity;
                         for (std::size_t i = p.size(); i > 1; --i) {  // Fisher-Yates, splitmix
                           seed += 0x9e3779b97f4a7c15ull;
                           std::uint64_t z = seed;
                           z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
                           z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
                           std::swap(p[i - 1], p[(z ^ (z >> 31)) % i]);
                         }
                         return p;
                       })},
  });
}

namespace detail {

inline std::vector<Merge> deterministic_tree(TreeShape shape, int slots) {
  std::vector<Merge> merges;
  switch (shape) {
    case TreeShape::LeftDeep:  // ((s0 + s1) + s2) + ...
      for (int s = 1; s < slots; ++s) merges.push_back(Merge{0, s});
      break;
    case TreeShape::RightDeep:  // s0 + (s1 + (s2 + ...))
      for (int s = slots - 2; s >= 0; --s) merges.push_back(Merge{s, s + 1});
      break;
    case TreeShape::Balanced:  // pairs, then pairs of pairs
      for (int stride = 1; stride < slots; stride *= 2)
        for (int s = 0; s + stride < slots; s += 2 * stride) merges.push_back(Merge{s, s + stride});
      break;
    default:
      merges = shuffle_tree(slots);
  }
  return merges;
}

/// A random bracketing: repeatedly merge two random live slots (random operand order); the last
/// live slot is moved into slot 0 by one final relabelling of the merges.
inline std::vector<Merge> random_tree(int slots, std::uint64_t seed) {
  std::vector<int> live(static_cast<std::size_t>(slots));
  std::iota(live.begin(), live.end(), 0);
  std::vector<Merge> merges;
  auto next = [&seed] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return seed >> 33;
  };
  while (live.size() > 1) {
    const std::size_t i = next() % live.size();
    std::size_t j = next() % (live.size() - 1);
    if (j >= i) ++j;
    merges.push_back(Merge{live[i], live[j]});
    live.erase(live.begin() + static_cast<std::ptrdiff_t>(j));
  }
  const int root = live.front();
  for (Merge& m : merges) {  // swap the names of slot 0 and the root slot
    auto rename = [root](std::int32_t s) { return s == root ? 0 : (s == 0 ? root : s); };
    m = Merge{rename(m.dst), rename(m.src)};
  }
  return merges;
}

}  // namespace detail

inline rc::Gen<std::vector<Merge>> tree(TreeShape shape, int slots) {
  if (shape != TreeShape::Random) return rc::gen::just(detail::deterministic_tree(shape, slots));
  return rc::gen::map(rc::gen::arbitrary<std::uint64_t>(),
                      [slots](std::uint64_t seed) { return detail::random_tree(slots, seed); });
}

inline rc::Gen<HarnessCase> schedule(std::int64_t n) {
  const auto shape = rc::gen::element(TreeShape::LeftDeep, TreeShape::RightDeep,
                                      TreeShape::Balanced, TreeShape::Random, TreeShape::Shuffle);
  return rc::gen::mapcat(rc::gen::pair(rc::gen::inRange(1, 41), shape), [n](auto kshape) {
    const int k = kshape.first;
    return rc::gen::map(rc::gen::tuple(partition(n, k), permutation(k), tree(kshape.second, k)),
                        [](const std::tuple<std::vector<std::int64_t>, std::vector<std::int64_t>,
                                            std::vector<Merge>>& t) {
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
  return rc::gen::map(partition(n, 32), [](std::vector<std::int64_t> offsets) {
    HarnessCase c;
    c.chunk_offsets = std::move(offsets);
    for (std::int32_t lane = 0; lane < 32; ++lane) c.slot_chunk.push_back(lane);
    c.merges = shuffle_tree(32);
    c.root = 0;
    return c;
  });
}

}  // namespace osvs::gen
