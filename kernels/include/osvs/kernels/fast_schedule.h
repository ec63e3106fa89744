// The fast kernel's reduction order, written once (see fast_plan.h for the layout):
//
//   1 thread   its vec * 4 values v[0..V) (V a power of two, the tail -inf):
//              m_t = fmaxf of the values (exact), NaN or +inf anywhere -> the NaN state;
//              d_t = pairwise sum of kexp(v[i] - m_t): level w = 1, 2, 4, ..: s[i] = s[i] + s[i+w]
//                    for i = 0, 2w, 4w, ..  (depth log2 V <= 5, left operand the lower index;
//                    pairwise_tree)
//              state (m_t, d_t); m_t = -inf (only masked values) -> the identity (-inf, 0)
//   2 warp     the __shfl_down_sync tree of block_schedule.h (offsets 16 .. 1) over the
//              hardened combine (combine_hardened.h), lane 0 receives the warp's state
//   3 block    (threads > 32) warp 0 folds the warps' states with the same tree, lanes past the
//              number of warps starting from the identity: the chunk's state
//   4 row      (split rows) every block of the row merges the C chunk states identically:
//              thread t folds chunk states [t q, (t + 1) q), q = ceil(C / threads), with the
//              binary-counter pairwise tree (pairwise_stream), then steps 2 and 3 over the threads
//   5 output   y_j = compensated_exp_diff(x_j, m) / d (compensated_exp.h); 0 where d = 0 (a fully
//              masked row, the hardened convention)
//
// Every step is deterministic (no atomics in the arithmetic; the split kernel uses a counter only
// to know when the chunk states of its row are all written), so every block of a row computes the
// same row state and the device equals this model bit for bit in the portable-exp build. The
// order is written over an algebra so that the bounds (oracle/src/fast_bounds.cpp) follow it:
//
//   Alg::value_type                          a state (State, or the oracle's accounting state)
//   Alg::initial(), Alg::combine(a, b)       as in block_schedule.h
//   Alg::thread_state(const float* v, int V) step 1 for V values
#pragma once

#include <cstdint>
#include <vector>

#include "osvs/kernels/algebras.h"
#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/combine_hardened.h"
#include "osvs/kernels/compensated_exp.h"
#include "osvs/kernels/fast_plan.h"

namespace osvs {

/// The pairwise tree of step 1 over get(lo), .., get(lo + V - 1), V a power of two: the fold of
/// the left half, then of the right half, then their combine. The same tree as the levels
/// w = 1, 2, 4, .. of the head comment; written recursively so that only log2 V partial sums are
/// live at once (registers).
template <int V, class Get, class Combine>
OSVS_HD auto pairwise_tree(int lo, Get get, Combine combine) {
  if constexpr (V == 1) {
    return get(lo);
  } else {
    const auto left = pairwise_tree<V / 2>(lo, get, combine);
    return combine(left, pairwise_tree<V / 2>(lo + V / 2, get, combine));
  }
}

/// Step 1 in floats: the thread's state of V values (V = 4, 8, 16 or 32).
template <int V>
OSVS_HD State fast_thread_state(const float* v) {
  float m = -__builtin_huge_valf();
  bool special = false;  // NaN or +inf: the row's outputs are NaN (hardened lift)
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int i = 0; i < V; ++i) {
    m = fmax_k(m, v[i]);
    special |= !(v[i] < __builtin_huge_valf());
  }
  // v = -inf: kexp(-inf) = 0 exactly (m finite; m = -inf is replaced below)
  const float d = pairwise_tree<V>(
      0, [&](int i) { return kexp(v[i] - m); }, [](float a, float b) { return a + b; });
  if (special) return State{canonical_nan(), canonical_nan()};
  if (m == -__builtin_huge_valf()) return identity_state();  // only masked values
  return State{m, d};
}

/// The binary-counter pairwise fold of get(0), .., get(count - 1): the same tree as pairwise_tree
/// for a power-of-two count; for others the complete subtrees of the binary expansion of count,
/// largest first, folded right to left. Used for the chunk states of a split row (step 4).
template <class V, class Get, class Combine>
OSVS_HD V pairwise_stream(std::int64_t count, V initial, Get get, Combine combine) {
  V stack[64];
  std::int64_t size[64];
  int top = 0;
  for (std::int64_t i = 0; i < count; ++i) {
    V v = get(i);
    std::int64_t s = 1;
    while (top > 0 && size[top - 1] == s) {
      v = combine(stack[top - 1], v);
      s *= 2;
      --top;
    }
    stack[top] = v;
    size[top++] = s;
  }
  if (top == 0) return initial;
  V v = stack[top - 1];
  for (int k = top - 2; k >= 0; --k) v = combine(stack[k], v);
  return v;
}

/// Step 5: the output of x_j for the row state s.
OSVS_HD float fast_output(float x, State s) {
  return s.d == 0.0f ? 0.0f : compensated_exp_diff(x, s.m) / s.d;
}

/// Chunk states thread t of a split row's block folds first (step 4): [t q, min((t + 1) q, C)).
OSVS_HD std::int64_t fast_merge_per_thread(std::int64_t chunks, int threads) {
  return (chunks + threads - 1) / threads;
}

// ---- the CPU model of the order, over any algebra (host only) ----

/// Steps 2 and 3 over the states of `threads` threads (a multiple of 32).
template <class Alg>
typename Alg::value_type model_fast_block(const std::vector<typename Alg::value_type>& thread_v,
                                          int threads, const Alg& alg) {
  using V = typename Alg::value_type;
  const int warps = threads / kWarpSize;
  std::array<V, kWarpSize> warp_v;
  for (int w = 0; w < warps; ++w) {
    std::array<V, kWarpSize> lanes;
    for (int l = 0; l < kWarpSize; ++l) lanes[static_cast<std::size_t>(l)] = thread_v[w * 32 + l];
    warp_v[static_cast<std::size_t>(w)] = model_warp_reduce(lanes, alg);
  }
  if (warps == 1) return warp_v[0];
  for (int l = warps; l < kWarpSize; ++l) warp_v[static_cast<std::size_t>(l)] = alg.initial();
  return model_warp_reduce(warp_v, alg);
}

/// The values thread t of chunk c holds (step 1's input): -inf past the row's end.
/// `skip_tail` (mutation SkipTail) drops the last partial float4 as a vector-only loop would.
inline void model_fast_gather(const float* row, std::int64_t n, const FastPlan& p,
                              std::int64_t chunk, int t, bool skip_tail, float* v) {
  const std::int64_t base = chunk * p.chunk_span();
  const std::int64_t full_end = skip_tail ? n - n % 4 : n;
  for (int k = 0; k < p.vec; ++k)
    for (int c = 0; c < 4; ++c) {
      const std::int64_t j = base + (std::int64_t{k} * p.threads + t) * 4 + c;
      v[k * 4 + c] = j < full_end ? row[j] : -__builtin_huge_valf();
    }
}

/// How a mutant changes the model's order (fast-kernel mutations, cases.h).
struct FastModelMutation {
  bool skip_tail = false;     ///< the last partial float4 of the row is never loaded
  bool lose_chunk = false;    ///< the chunk merge stops one chunk short
  bool prefix_merge = false;  ///< block c merges chunk states 0 .. c only
};

/// The state of chunk `chunk` (steps 1-3).
template <class Alg>
typename Alg::value_type model_fast_chunk(const float* row, std::int64_t n, const FastPlan& p,
                                          std::int64_t chunk, const Alg& alg,
                                          const FastModelMutation& mut = {}) {
  std::vector<typename Alg::value_type> thread_v(static_cast<std::size_t>(p.threads));
  float v[32];
  for (int t = 0; t < p.threads; ++t) {
    model_fast_gather(row, n, p, chunk, t, mut.skip_tail, v);
    thread_v[static_cast<std::size_t>(t)] = alg.thread_state(v, p.per_thread());
  }
  return model_fast_block(thread_v, p.threads, alg);
}

/// Step 4: the row state every block merges from the chunk states (first `count` of them).
template <class Alg>
typename Alg::value_type model_fast_merge(const std::vector<typename Alg::value_type>& chunk_v,
                                          std::int64_t count, int threads, const Alg& alg) {
  using V = typename Alg::value_type;
  const std::int64_t q = fast_merge_per_thread(static_cast<std::int64_t>(chunk_v.size()), threads);
  std::vector<V> thread_v(static_cast<std::size_t>(threads));
  const auto combine = [&](const V& a, const V& b) { return alg.combine(a, b); };
  for (int t = 0; t < threads; ++t) {
    const std::int64_t lo = std::int64_t{t} * q;
    const std::int64_t len = lo >= count ? 0 : (count - lo < q ? count - lo : q);
    thread_v[static_cast<std::size_t>(t)] = pairwise_stream(
        len, alg.initial(),
        [&](std::int64_t i) { return chunk_v[static_cast<std::size_t>(lo + i)]; }, combine);
  }
  return model_fast_block(thread_v, threads, alg);
}

/// The row's states as the kernel computes them: per chunk, the state its block uses in step 5
/// (all equal, the row state, except under a prefix-merge mutation).
template <class Alg>
std::vector<typename Alg::value_type> model_fast_row(const float* row, std::int64_t n,
                                                     const Alg& alg,
                                                     const FastModelMutation& mut = {}) {
  using V = typename Alg::value_type;
  const FastPlan p = fast_plan(n);
  std::vector<V> chunk_v(static_cast<std::size_t>(p.chunks));
  for (std::int64_t c = 0; c < p.chunks; ++c)
    chunk_v[static_cast<std::size_t>(c)] = model_fast_chunk(row, n, p, c, alg, mut);
  if (p.chunks == 1) return chunk_v;
  std::vector<V> used(chunk_v.size());
  const std::int64_t all = mut.lose_chunk ? p.chunks - 1 : p.chunks;
  const V row_v = model_fast_merge(chunk_v, all, p.threads, alg);
  for (std::int64_t c = 0; c < p.chunks; ++c)
    used[static_cast<std::size_t>(c)] =
        mut.prefix_merge ? model_fast_merge(chunk_v, c + 1, p.threads, alg) : row_v;
  return used;
}

/// The float algebra of the fast kernel: hardened combine, step 1 in floats.
struct FastFloatAlg {
  using value_type = State;
  State initial() const { return identity_state(); }
  State combine(State a, State b) const { return HardenedCombine::combine(a, b); }
  State thread_state(const float* v, int count) const {
    switch (count) {
      case 4:
        return fast_thread_state<4>(v);
      case 8:
        return fast_thread_state<8>(v);
      case 16:
        return fast_thread_state<16>(v);
      default:
        return fast_thread_state<32>(v);
    }
  }
};

}  // namespace osvs
