// The fast kernel's reduction order, written once (see fast_plan.h for the layout). A part of a
// row (the whole row, a cluster row's block or a split row's chunk; "chunk" below) is held in
// registers, so its maximum is found before any exp: inside a part nothing is ever rescaled, and
// the online combine is used where it is needed, between the parts of a row.
//
//   1 thread   its vec * 4 values v[0..V) (V a power of two, the tail -inf):
//              m_t = fmaxf of the values (exact); +inf when one is NaN or +inf (fast_thread_max)
//   2 max      the chunk's maximum M: the m_t folded by FastMaxAlg (exact; equal values give the
//              AND of their bits, so +0 beats -0 on both executors) along the chunk's trees:
//              the __shfl_down_sync tree of block_schedule.h (offsets 16 .. 1) in each warp, then
//              (threads > 32) the warps' values are folded with the same tree (on the device by
//              every warp, the same bits; in the model once), lanes past the
//              number of warps starting from the initial value; every thread receives M
//   3 thread   the terms e_i = fast_term(v[i], M) = compensated_exp_diff_with<FastKernelExp>
//              (compensated_exp.h: the rounding of v[i] - M compensated); v[i] = -inf gives 0
//              exactly; d_t = their pairwise sum in binary64 (each term widened exactly):
//              level w = 1, 2, 4, ..: s[i] = s[i] + s[i+w] for i = 0, 2w, 4w, ..
//              (depth log2 V <= 5, left operand the lower index; pairwise_tree)
//   4 sum      the chunk's sum: the d_t added in binary64 along the same trees as step 2, then
//              rounded once to binary32, D = fl(S); chunk state (M, D) and its rest
//              lo = fl(S - D) (S - D is exact in binary64; FastMergeState); M = +inf -> the NaN
//              state (the hardened lift of NaN, +inf); M = -inf (only masked values) -> the
//              identity
//   5 row      (rows of several parts: a cluster row's blocks, a split row's chunks) every block
//              of the row merges the C part states identically with fast_merge: the hardened
//              combine over fexp (combine_hardened.h), its state bit for bit, with lo carrying
//              the combine's rounding error (ErrFma) and the rescaled rests; thread t folds part
//              states [t q, (t + 1) q), q = ceil(C / threads), with the binary-counter pairwise
//              tree (pairwise_stream), then the trees of step 2 over the threads
//              (fast_merge_threads: a cluster row's warp 0, whose lanes hold the C <= 8 states,
//              exchanged through distributed shared memory; a split row's whole block); the
//              row's d = fl(s.d + lo) (fast_row_state)
//   6 output   each part keeps the terms of step 3, taken against its own maximum m_c, and
//              scales them: y_j = fl(e_j * a_c), a_c = fl(fast_term(m_c, m) / d) for the row
//              state (m, d) (fast_part_scale); 0 where d = 0 (a fully masked row, the hardened
//              convention) or m_c = -inf (a part of masked values). The part holding the row's
//              maximum has a_c = fl(1 / d). Every element costs one exp on every layout; a part
//              costs one more exp and one division. The bound counts a_c's exp and roundings
//              (oracle/src/bounds.cpp, fast_output_ulps).
//
// Skipped rounds: where only lanes [0, L) of a warp tree hold values and the rest the fold's
// initial value (the warps' values in steps 2, 4 and 5; a cluster row's C part states), the device
// starts the tree at offset L/2 (L rounded up to a power of two) instead of 16 (fold_lanes,
// kernels/src/cuda/fast/fast_kernels.cuh). Lane 0's result keeps the full tree's bits because each
// initial value is an exact right identity on every value it meets: fmaxf(m, -inf) = m; a binary64
// sum of terms (never -0) plus +0 is itself; fast_merge(a, initial) = a bit for bit, lo included
// (the FastSchedule.InitialValuesAreExactRightIdentities test). The same holds for whole warps
// whose threads hold only the initial value (a split row's chunk states, fewer than its threads:
// chunk_fold_used). The CPU model keeps the full trees.
//
// fexp = FastKernelExp = portable_expf (exp_functors.h) on both executors in every build, not the
// build's kexp: 1 ulp where CUDA expf has 2, and the device's bits are the model's without the
// OSVS_PORTABLE_EXP build (the last step that differed between the two was the exp).
//
// Why the maximum first (steps 2-4) rather than the online state of each thread: every element's
// term then goes through one exp and binary64 sums only, never a rescaling, so D carries the
// exp's error and one rounding. The sums' roundings, up to u D a tree level, were the largest part
// of d's error with plain float sums: on the CPU model's audit of x ~ N(0, 10) (N up to 65537),
// d's largest relative error was 3.2e-7 with plain sums and 7.7e-8 with compensated float pairs
// (TwoSum). Binary64 sums lose at most 2^-53 a level, below the pairs' O(u^2), for two
// instructions an element (a widening and an add) where a pair addition takes eight. Merged without
// lo, the 64 chunk states of a 2^20-element row gave d 2.3e-7 on the H200; with it, 5.6e-8
// (reports/gpu/2026-11-30-fast-accurate/).
//
// Why each part's own maximum (steps 5-6) rather than the row's: a part's block never waits for
// the other parts before its exps, so the parts of a row meet once, to merge their states. A
// cluster row whose blocks first agreed on the row's maximum (one cluster barrier for the maxima,
// one for the sums) reached 67 % of a copy on 1024 x 32768, where the same bytes in block rows
// grouped into unused clusters reached 90 % (reports/gpu/2026-12-01-fast-cluster); a split row
// that recomputed its terms against the row's maximum took two exps an element.
//
// Every step is deterministic (no atomics in the arithmetic; the split kernel uses a counter only
// to know when the chunk states of its row are all written), so every block of a row computes the
// same row state and the device equals this model bit for bit. The order is written over an
// algebra so that the bounds (oracle/src/fast_error_algebra.h) follow it:
//
//   Alg::value_type, Alg::initial(), Alg::combine(a, b)   a chunk state and step 5's merge
//   Alg::sum_type, Alg::sum_alg(M)                        step 4's partial sums and their fold
//   Alg::thread_sum(const float* v, int V, float M)       step 3 for V values
//   Alg::chunk_state(float M, sum_type D)                 the chunk state of step 4
//   Alg::finish(value_type)                               the row state step 6 uses
//
// and over a schedule policy (fast_schedule_policy.h: FastSchedule is the order as written): the
// CPU model below and the device kernels (kernels/src/cuda/fast/) read the same members, which
// steps 1 and 5 follow (what is loaded, which part states each block merges).
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "osvs/kernels/algebras.h"
#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/combine_hardened.h"
#include "osvs/kernels/compensated_exp.h"
#include "osvs/kernels/exp_functors.h"
#include "osvs/kernels/fast_plan.h"
#include "osvs/kernels/fast_schedule_policy.h"
#include "osvs/kernels/rounded_ops.h"

namespace osvs {

/// The pairwise tree of step 3 over get(lo), .., get(lo + V - 1), V a power of two: the fold of
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

/// The fast kernel's exp (see the head comment) and its combine: the hardened operator over it.
using FastKernelExp = PortableExp;
using FastCombine = HardenedCombineWith<FastKernelExp>;

/// max(a, b) (MAX) or min(a, b), NaN when either is: one max.NaN or min.NaN on the device (sm_80
/// and later). The maximum is IEEE 754-2019's (+0 over -0, as fmax_k), exact, so any order of a
/// fold gives the same bits; the minimum serves range tests, where the sign of a zero is moot.
template <bool MAX>
OSVS_HD float fast_extremum_nan(float a, float b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  float r;
  if constexpr (MAX)
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  else
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
#else
  if (a != a || b != b) return a + b;
  return MAX ? fmax_k(a, b) : (a < b ? a : b);
#endif
}

/// Step 1: the largest of the thread's V values; +inf when one of them is NaN or +inf (the row's
/// outputs are then NaN), so that the fold of step 2 carries the special exactly. On the device
/// (sm_80 and later) a pairwise tree of max.NaN, one an element: NaN when a value is NaN, else
/// the maximum (+inf when a value is +inf; +0 over -0, as fmax_k), mapped to +inf once. The
/// maximum is exact in any order, so the tree and the host's sequential fold agree.
template <int V>
OSVS_HD float fast_thread_max(const float* v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const float m = pairwise_tree<V>(
      0, [&](int i) { return v[i]; },
      [](float a, float b) { return fast_extremum_nan<true>(a, b); });
  return m < __builtin_huge_valf() ? m : __builtin_huge_valf();  // NaN or +inf -> +inf
#else
  float m = -__builtin_huge_valf();
  bool special = false;
  for (int i = 0; i < V; ++i) {
    m = fmax_k(m, v[i]);
    special |= !(v[i] < __builtin_huge_valf());
  }
  return special ? __builtin_huge_valf() : m;
#endif
}

/// Step 2's fold: the maximum, exact and bitwise commutative (never sees a NaN, step 1).
struct FastMaxAlg {
  using value_type = float;
  OSVS_HD float initial() const { return -__builtin_huge_valf(); }
  OSVS_HD float combine(float a, float b) const {
    return a == b ? bits_float(float_bits(a) & float_bits(b)) : fmax_k(a, b);
  }
};

/// Step 4's fold: binary64 addition.
struct FastSumAlg {
  using value_type = double;
  OSVS_HD double initial() const { return 0.0; }
  OSVS_HD double combine(double a, double b) const { return detail::add_rn(a, b); }
};

/// Step 3's term (and step 6's numerator): e^(x - M), the difference's rounding compensated.
OSVS_HD float fast_term(float x, float M) {
  return compensated_exp_diff_with<FastKernelExp>(x, M);
}

/// e[c] = fast_term(v[c], M) for c = 0 .. 3, the same bits, with one range test for the four
/// instead of a branch an element: every difference t = fl(v[c] - M) in portable_expf's
/// exponent-field range takes that path (finite, so compensated); if one is outside it (NaN, an
/// infinity, a gap below -86: rare), the four are computed again by fast_term. `e` may not alias
/// `v`.
OSVS_HD void fast_terms4(const float* v, float M, float* e) {
  float lo = 0.0f, hi = 0.0f;  // the range of the t, NaN when one is NaN
  for (int c = 0; c < 4; ++c) {
    const float t = v[c] - M;
    const float E = portable_expf_scaled(portable_expf_parts(t));
    e[c] = detail::fma_f(E, two_diff_error(v[c], M, t), E);
    lo = fast_extremum_nan<false>(lo, t);
    hi = fmax_k(hi, t);
  }
  if (portable_expf_scales_exactly(lo) && portable_expf_scales_exactly(hi)) return;
  for (int c = 0; c < 4; ++c) e[c] = fast_term(v[c], M);
}

/// v[i] = fast_term(v[i], M) for the thread's V values (V a multiple of 4), four at a time.
template <int V>
OSVS_HD void fast_terms_in_place(float* v, float M) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int k = 0; k < V; k += 4) {
    float e[4];
    fast_terms4(v + k, M, e);
    for (int c = 0; c < 4; ++c) v[k + c] = e[c];
  }
}

/// Step 3: the binary64 pairwise sum of the thread's V terms e[i] (V = 4, 8, 16 or 32).
template <int V>
OSVS_HD double fast_terms_sum(const float* e) {
  return pairwise_tree<V>(
      0, [&](int i) { return static_cast<double>(e[i]); },
      [](double a, double b) { return detail::add_rn(a, b); });
}

/// Step 3 from the values: the sum of fast_term(v[i], M); 0 when M is not finite (the chunk
/// state is then decided by M alone).
template <int V>
OSVS_HD double fast_thread_sum(const float* v, float M) {
  if (!(abs_f(M) < __builtin_huge_valf())) return 0.0;
  float e[V];
  for (int k = 0; k < V; k += 4) fast_terms4(v + k, M, e + k);
  return fast_terms_sum<V>(e);
}

/// The chunk state of step 4 from the chunk's maximum M and its binary64 sum S.
OSVS_HD State fast_chunk_state(float M, double S) {
  if (M == __builtin_huge_valf()) return State{canonical_nan(), canonical_nan()};
  if (M == -__builtin_huge_valf()) return identity_state();
  return State{M, static_cast<float>(S)};  // rounded to nearest
}

/// A chunk state of a split row in the merges of step 5: s, the hardened combine's state (bit for
/// bit what the verified combine gives), and lo, what its roundings lost, carried along: the
/// row's d is fl(s.d + lo) (fast_row_state). A chunk starts with lo = the rest of its sum's
/// rounding, S - s.d (exact in binary64), rounded to binary32: s.d + lo is S within u |S - s.d|.
struct FastMergeState {
  State s;
  float lo;
  float pad;  ///< 16 bytes: one 128-bit load between blocks (0 where written)
};

/// The chunk state of step 4 with its rest (see FastMergeState).
OSVS_HD FastMergeState fast_merge_state(float M, double S) {
  const State s = fast_chunk_state(M, S);
  if (!(s.d > 0.0f && s.d < __builtin_huge_valf())) return FastMergeState{s, 0.0f, 0.0f};
  return FastMergeState{s, static_cast<float>(S - static_cast<double>(s.d)), 0.0f};
}

/// Step 5's merge: the hardened combine over fexp (FastCombine) of the states, and the exact
/// error of its d (fma_error of the same small.d * e + big.d, with the same e) plus the rescaled
/// rests: s.d + lo = (small.d + small.lo) e + (big.d + big.lo) up to O(u^2) (rounded_ops.h).
/// A NaN state, an empty side or two empty sides carry no rounding: lo is the big side's, or 0.
OSVS_HD FastMergeState fast_merge(FastMergeState a, FastMergeState b) {
  const State s = FastCombine::combine(a.s, b.s);
  if (!(s.d > 0.0f && s.d < __builtin_huge_valf())) return FastMergeState{s, 0.0f, 0.0f};
  const bool a_small = a.s.m < b.s.m;  // the combine's choice of sides
  const FastMergeState big = a_small ? b : a;
  const FastMergeState small = a_small ? a : b;
  const float e = small.s.m == -__builtin_huge_valf() ? 0.0f : FastKernelExp{}(small.s.m - big.s.m);
  const float err = fma_error(small.s.d, e, big.s.d, s.d);
  return FastMergeState{s, detail::fma_f(small.lo, e, big.lo) + err, 0.0f};
}

/// The row state step 6 uses: d = fl(s.d + lo).
OSVS_HD State fast_row_state(FastMergeState v) {
  if (!(v.s.d > 0.0f && v.s.d < __builtin_huge_valf())) return v.s;
  return State{v.s.m, v.s.d + v.lo};
}

/// Step 5's fold.
struct FastMergeAlg {
  using value_type = FastMergeState;
  OSVS_HD FastMergeState initial() const { return FastMergeState{identity_state(), 0.0f, 0.0f}; }
  OSVS_HD FastMergeState combine(FastMergeState a, FastMergeState b) const {
    return fast_merge(a, b);
  }
};

/// The binary-counter pairwise fold of get(0), .., get(count - 1): the same tree as pairwise_tree
/// for a power-of-two count; for others the complete subtrees of the binary expansion of count,
/// largest first, folded right to left. Used for the chunk states of a split row (step 5).
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

/// Step 6's scale of a part (a chunk or a cluster block) whose terms were taken against its own
/// maximum m_part: fl(fast_term(m_part, s.m) / s.d) for the row state s, so that an output is
/// one product, e * scale. The part that holds the row's maximum has fast_term(m, m) = 1 exactly,
/// a scale fl(1 / d). 0 (every output 0) for a fully masked row (d = 0, the hardened convention)
/// or a part with only masked values (m_part = -inf); NaN for a NaN row state.
OSVS_HD float fast_part_scale(float m_part, State s) {
  if (s.d == 0.0f || m_part == -__builtin_huge_valf()) return 0.0f;
  // fast_term(m, m) = 1 exactly for finite m (t = 0, no rest): the same bits without the exp
  const float w = m_part == s.m ? 1.0f : fast_term(m_part, s.m);
  return w / s.d;  // IEEE division on both executors
}

/// Step 6 from the term e = fast_term(x_j, m_part) and its part's scale: fl(e * scale), 0 where
/// the scale is 0 (a masked element's term may be NaN: -inf - -inf).
OSVS_HD float fast_output_of_term(float e, float scale) {
  return scale == 0.0f ? 0.0f : e * scale;
}

/// Step 6: the output of x_j in a part of maximum m_part and scale `scale` (fast_part_scale).
OSVS_HD float fast_output(float x, float m_part, float scale) {
  return fast_output_of_term(fast_term(x, m_part), scale);
}

/// Step 6 for four values at once (fast_terms4): out[c] = fast_output(x[c], m_part, scale).
OSVS_HD void fast_outputs4(const float* x, float m_part, float scale, float* out) {
  float e[4];
  fast_terms4(x, m_part, e);
  for (int c = 0; c < 4; ++c) out[c] = fast_output_of_term(e[c], scale);
}

/// The end of the values step 1 loads under Schedule: the row's end, or where the schedule does
/// not load the tail the end of its last whole float4 (as a vector-only loop would).
template <class Schedule>
OSVS_HD std::int64_t fast_loaded_end(std::int64_t n) {
  return Schedule::kLoadTail ? n : n - n % 4;
}

/// Chunk states the block of part c merges (step 5) under Schedule (fast_schedule_policy.h):
/// all C as written; the first C - 1 where it does not merge all chunks, the first c + 1 where it
/// merges in a prefix's order.
template <class Schedule>
OSVS_HD std::int64_t fast_merge_count(std::int64_t chunks, std::int64_t c) {
  if (!Schedule::kMergeAllChunks) return chunks - 1;
  return Schedule::kMergeInReductionOrder ? chunks : c + 1;
}

/// Threads whose trees step 5 folds the part states over: a cluster row's warp 0 (at most 8
/// states, exchanged through distributed shared memory), a split row's whole block.
OSVS_HD int fast_merge_threads(const FastPlan& p) {
  return p.blocks > 1 ? kWarpSize : p.threads;
}

/// Chunk states thread t of a split row's block folds first (step 5): [t q, min((t + 1) q, C)).
OSVS_HD std::int64_t fast_merge_per_thread(std::int64_t chunks, int threads) {
  return (chunks + threads - 1) / threads;
}

// ---- the CPU model of the order, over any algebra (host only) ----

/// The trees of steps 2, 4 and 5 over the values of `threads` threads (a multiple of 32).
template <class Alg>
typename Alg::value_type model_fast_block(const std::vector<typename Alg::value_type>& thread_v,
                                          int threads, const Alg& alg) {
  using V = typename Alg::value_type;
  const int warps = threads / kWarpSize;
  std::array<V, kWarpSize> warp_v;
  warp_v.fill(alg.initial());  // lanes past the number of warps start from the initial value
  for (int w = 0; w < warps; ++w) {
    std::array<V, kWarpSize> lanes;
    for (int l = 0; l < kWarpSize; ++l) lanes[static_cast<std::size_t>(l)] = thread_v[w * 32 + l];
    warp_v[static_cast<std::size_t>(w)] = model_warp_reduce(lanes, alg);
  }
  if (warps == 1) return warp_v[0];
  return model_warp_reduce(warp_v, alg);
}

/// The values thread t of chunk c holds (step 1's input): -inf past the loaded end.
template <class Schedule = FastSchedule>
void model_fast_gather(const float* row, std::int64_t n, const FastPlan& p, std::int64_t chunk,
                       int t, float* v) {
  const std::int64_t base = chunk * p.chunk_span();
  const std::int64_t full_end = fast_loaded_end<Schedule>(n);
  for (int k = 0; k < p.vec; ++k)
    for (int c = 0; c < 4; ++c) {
      const std::int64_t j = base + (std::int64_t{k} * p.threads + t) * 4 + c;
      v[k * 4 + c] = j < full_end ? row[j] : -__builtin_huge_valf();
    }
}

/// f(std::integral_constant<int, V>{}) for the V = count values a thread holds (4, 8, 16 or 32):
/// the run-time count of the CPU model to the compile-time V of the per-thread steps.
template <class F>
auto with_thread_values(int count, F f) {
  switch (count) {
    case 4:
      return f(std::integral_constant<int, 4>{});
    case 8:
      return f(std::integral_constant<int, 8>{});
    case 16:
      return f(std::integral_constant<int, 16>{});
    default:
      return f(std::integral_constant<int, 32>{});
  }
}

/// Steps 1-2 in the block that holds part `part` of the row (a chunk, or a cluster block's
/// span): its values, thread after thread (v), and their maximum along the block's trees.
template <class Schedule>
float model_fast_part_max(const float* row, std::int64_t n, const FastPlan& p, std::int64_t part,
                          std::vector<float>& v) {
  const auto held = static_cast<std::size_t>(p.per_thread());
  v.resize(static_cast<std::size_t>(p.threads) * held);
  std::vector<float> thread_m(static_cast<std::size_t>(p.threads));
  for (int t = 0; t < p.threads; ++t) {
    float* mine = v.data() + static_cast<std::size_t>(t) * held;
    model_fast_gather<Schedule>(row, n, p, part, t, mine);
    thread_m[static_cast<std::size_t>(t)] = with_thread_values(
        p.per_thread(), [&](auto V) { return fast_thread_max<decltype(V)::value>(mine); });
  }
  return model_fast_block(thread_m, p.threads, FastMaxAlg{});
}

/// Steps 3-4 in that block: the sum of its values' terms against M along the block's trees.
template <class Alg>
typename Alg::sum_type model_fast_part_sum(const std::vector<float>& v, const FastPlan& p, float M,
                                           const Alg& alg) {
  const auto held = static_cast<std::size_t>(p.per_thread());
  std::vector<typename Alg::sum_type> thread_d(static_cast<std::size_t>(p.threads));
  for (int t = 0; t < p.threads; ++t)
    thread_d[static_cast<std::size_t>(t)] =
        alg.thread_sum(v.data() + static_cast<std::size_t>(t) * held, p.per_thread(), M);
  return model_fast_block(thread_d, p.threads, alg.sum_alg(M));
}

/// The state of chunk `chunk` (steps 1-4).
template <class Schedule = FastSchedule, class Alg>
typename Alg::value_type model_fast_chunk(const float* row, std::int64_t n, const FastPlan& p,
                                          std::int64_t chunk, const Alg& alg) {
  std::vector<float> v;
  const float M = model_fast_part_max<Schedule>(row, n, p, chunk, v);
  return alg.chunk_state(M, model_fast_part_sum(v, p, M, alg));
}

/// Step 5: the row state every block merges from the chunk states (first `count` of them).
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

/// What the block of one part of a row (a chunk or a cluster block) uses in step 6: the part's
/// own maximum (its terms' reference) and the row state it merged, finished (Alg::finish).
template <class Row>
struct FastPart {
  float m;  ///< the part's maximum (its chunk state's m: -inf masked, NaN special)
  Row row;  ///< the merged row state (equal in every part, merged in a reduction's order)
};

/// The row's parts as the kernel computes them under Schedule (FastPlan::parts, in order): every
/// part's chunk state (steps 1-4), then every block's merge of them (step 5, over
/// fast_merge_threads(p) threads; fast_merge_count of them).
template <class Schedule = FastSchedule, class Alg>
auto model_fast_row(const float* row, std::int64_t n, const Alg& alg) {
  using V = typename Alg::value_type;
  const FastPlan p = fast_plan(n);
  const std::int64_t parts = p.parts();
  std::vector<V> chunk_v(static_cast<std::size_t>(parts));
  for (std::int64_t c = 0; c < parts; ++c)
    chunk_v[static_cast<std::size_t>(c)] = model_fast_chunk<Schedule>(row, n, p, c, alg);
  std::vector<FastPart<decltype(alg.finish(chunk_v.front()))>> used;
  if (parts == 1) {
    used.push_back({alg.part_max(chunk_v.front()), alg.finish(chunk_v.front())});
    return used;
  }
  const int threads = fast_merge_threads(p);
  const auto merged = [&](std::int64_t c) {
    return model_fast_merge(chunk_v, fast_merge_count<Schedule>(parts, c), threads, alg);
  };
  const V row_v = merged(0);  // the row state of every part, merged in a reduction's order
  for (std::int64_t c = 0; c < parts; ++c)
    used.push_back({alg.part_max(chunk_v[static_cast<std::size_t>(c)]),
                    alg.finish(Schedule::kMergeInReductionOrder ? row_v : merged(c))});
  return used;
}

/// The float algebra of the fast kernel: the kernel's own arithmetic (see the head comment).
struct FastFloatAlg {
  using value_type = FastMergeState;
  using sum_type = double;
  FastMergeState initial() const { return FastMergeAlg{}.initial(); }
  FastMergeState combine(FastMergeState a, FastMergeState b) const { return fast_merge(a, b); }
  FastSumAlg sum_alg(float /*M*/) const { return {}; }
  double thread_sum(const float* v, int count, float M) const {
    return with_thread_values(count,
                              [&](auto V) { return fast_thread_sum<decltype(V)::value>(v, M); });
  }
  FastMergeState chunk_state(float M, double S) const { return fast_merge_state(M, S); }
  /// A chunk state's maximum (step 6's m_part).
  float part_max(const FastMergeState& v) const { return v.s.m; }
  /// The row state of a merged value (step 6's).
  State finish(FastMergeState v) const { return fast_row_state(v); }
};

}  // namespace osvs
