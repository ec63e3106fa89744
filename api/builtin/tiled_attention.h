// osvs's own attention kernel on the host: flash-attention's tiled online softmax in f32, one
// (query, head) at a time, keys in tiles of Policy::tile, K/V read through the block table when
// paged. It is an entry of the attention kind like any user's kernel (builtin_host.cpp), and the
// original of the attention mutants (a Policy with one defect each, api/tests/
// attention_mutants_test.cpp): the defects are policy members, not parameters of this code's
// callers.
//
// Split-KV (flash-decoding with FlashInfer's fixed split size): a launch's p.kv_splits > 0 cuts
// each row's keys into splits of that many keys from key 0 (declared: 4, 8 or 16, multiples of
// the tile, so that a split's tiles are the unsplit kernel's); each split runs the loop below
// from its first key, and the partials merge left to right, m = max(m_a, m_b),
// l = l_a e^(m_a - m) + l_b e^(m_b - m), acc likewise (an empty split merges away exactly). Its
// own choice (p.kv_splits = 0) is one split: the kernel as it was. A fixed size keeps a key's
// split whatever the batch and the KV length: the bits follow the size only.
//
// Per (sequence s, query i, query head h), kv head g = h / (heads_q / heads_kv):
//   diagonal D = i + (k_len - q_len) (bottom-right) or i (top-left); key j kept unless
//     causal and j > D, or a window and j > D + right or j < D - left (docs/semantics.md §9);
//   for each tile of keys: s_j = fl(fl(q . k_j) scale) (the dot a chain of fmas from +0), with a
//     softcap c then fl(c tanhf(fl(s_j / c))), with an ALiBi slope a_h then
//     fl(s_j - fl(a_h |D - j|)) (|D - j| exact in float below 2^24),
//     m' = max(m, max_j s_j), alpha = exp(m - m'), l = l alpha + sum_j exp(s_j - m'),
//     acc_c = acc_c alpha + sum_j exp(s_j - m') v_jc (fmas), m = m';
//   with a sink z: m' = max(m, z), l = l e^(m - m') + e^(z - m'), acc_c = acc_c e^(m - m');
//   o_c = acc_c / l rounded to the output type, lse = m + log(l) (base 2: times log2(e)); a row
//   that keeps no key gives o = +0 and lse = -inf (with a sink: o = +0, lse = z).
//
// Its contract (builtin_host.cpp declares it), to first order in u = 2^-24 (glibc's expf and
// logf within 1 ulp): each score is within (d + 1) u S of its exact value (d fmas and the
// scale), so each weight exp(s_j - m) within 2 (d + 1) u S relatively, the numerator and l
// together within 4 (d + 1) u S; each tile's rescale, each exp, each add and the division add
// at most 4 u relatively per key and tile, 4 n u + 4 u in all; the final rounding to the output
// type 0.5 ulp_T. In AttentionAccuracy's terms: o_ulps 5 (4 + 0.5 rounded up), o_ulps_per_key 4,
// o_per_score 4; the lse: m within (d + 1) u S, log(l) within (2 n + 4) u absolutely, the sum and
// the base change 2 ulp: lse_ulps 6, lse_ulps_per_key 2, lse_per_score 2. A softcap adds the
// division's, tanhf's (2 ulp) and the product's roundings, within 4 u c of the score: S >= c
// covers it (the laws take S = max(S, c)); a sink is one more term of l and one more rescale.
// An ALiBi bias b_j = a_h |D - j| is rounded once (u |b_j|) and subtracted once (u |s_j - b_j|):
// within 2 u (|s_j| + |b_j|), which the laws' S covers by taking the bias's size in
// (S = max_j scale sum_c |q_c k_jc| + |b_j|).
// Splits: a merge of two partials is a tile's rescale (an exp, a product and an add a side, one
// side's factor exactly 1), and splits of 4 keys or more start at tile boundaries: a merge for
// at most every tile, which the 4 u a key and tile counts.
// Underflow (missed by the first-order figures, found by the registry fuzzer: o = -1.3e-40 off by
// 27.9 ulp of M against 21.2): a weight exp(s_j - m) below 2^-126 is within 2^-149 absolutely,
// not relatively, so its error times |v_jc|, plus the fma's and the rescale's roundings of a
// subnormal acc (2^-150 each), is up to 2^-149 (|v_jc| + 1) a key; l >= 1 (the maximum's term),
// so o gains at most n (V_c + 1) 2^-149: o_underflow 1.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "osvs/osvs.h"

namespace osvs::builtin {

/// The kernel as written; each mutant overrides one member.
struct TiledAttention {
  static constexpr int tile = 4;
  static constexpr int window_left_extra = 0;            ///< keys kept left of the window
  static constexpr bool causal_keeps_diagonal = true;    ///< j == D is kept
  static constexpr bool swap_alignment = false;          ///< the other diagonal
  static constexpr bool gqa_head_modulo = false;         ///< g = h % heads_kv
  static constexpr bool page_off_by_one = false;         ///< page p >= 1 read from entry p - 1
  static constexpr bool read_past_length = false;        ///< the last page's unused slots read
  static constexpr bool rescale_acc = true;              ///< acc *= alpha
  static constexpr bool rescale_l = true;                ///< l *= alpha
  static constexpr bool max_before_alpha = true;         ///< alpha from the old m
  static constexpr bool lse_has_max = true;              ///< lse = m + log l
  static constexpr bool lse_to_base_two = true;          ///< base 2 converted
  static constexpr bool empty_row_guard = true;          ///< l == 0 gives o = +0
  static constexpr bool skip_masked = true;              ///< masked keys never accumulate
  static constexpr bool last_tile = true;                ///< the last (partial) tile runs
  static constexpr bool softcap_before_scale = false;    ///< c tanh(dot / c) scale
  static constexpr bool sink_in_lse = true;              ///< the sink's term in the lse too
  static constexpr bool apply_sinks = true;              ///< sinks taken at all
  static constexpr bool alibi_from_diagonal = true;      ///< ALiBi's distance |D - j|, not |i - j|
  static constexpr bool alibi_subtracted = true;         ///< the bias - slope |D - j|, not +
  static constexpr bool tile_by_batch_position = false;  ///< tile + s for sequence s
  static constexpr bool tiles_follow_pages = false;      ///< tiles of page_size keys when paged
  static constexpr bool split_count_from_batch = false;  ///< own choice 4 / batch splits
  static constexpr int unsplit_above_batch = 0;          ///< > 0: own choice 2 splits up to it
  static constexpr bool partials_in_varying_order =
      false;  ///< merged right to left every other launch
  static constexpr bool stale_max_after_prefix = false;    ///< the prefix's max kept after it
  static constexpr bool page_boundary_read_twice = false;  ///< a page's first key taken twice
  static constexpr bool split_parameter_as_count = false;  ///< p.kv_splits read as a count
};

namespace detail {

inline float load_one(DType t, const void* base, std::int64_t index) {
  float x;
  load_from(t, static_cast<const unsigned char*>(base) + index * size_of(t), &x, 1);
  return x;
}

}  // namespace detail

inline constexpr std::int64_t kMaxTile = 64;

/// The online-softmax state of one split of a row's keys.
struct Partial {
  float m = -INFINITY, l = 0;
  std::vector<float> acc;
};

/// The kernel's own split count when the launch asks for none: one (unsplit); the mutants: one
/// that follows the batch size, or two up to a batch threshold.
template <class P>
std::int64_t own_split_count(const AttentionProblem& p) {
  if (P::split_count_from_batch) return std::max(1, 4 / p.batch);
  if (P::unsplit_above_batch > 0) return p.batch > P::unsplit_above_batch ? 1 : 2;
  return 1;
}

/// The keys a split of a sequence of `keys` keys holds: the launch's split size (the mutant
/// reads it as a count), else its own split count's share.
template <class P>
std::int64_t split_keys_of(const AttentionProblem& p, std::int64_t keys) {
  if (p.kv_splits > 0 && !P::split_parameter_as_count) return p.kv_splits;
  const std::int64_t count = p.kv_splits > 0 ? p.kv_splits : own_split_count<P>(p);
  return std::max<std::int64_t>(1, (keys + count - 1) / count);
}

/// Whether a launch merges its partials right to left: never, or (the mutant) every other
/// launch, as float atomics land in an order of their own.
template <class P>
bool merges_right_to_left() {
  if (!P::partials_in_varying_order) return false;
  static std::atomic<unsigned> launches{0};
  return launches++ % 2 == 1;
}

template <class P>
void tiled_attention(const AttentionProblem& p) {
  const int group = p.heads_q / p.heads_kv;
  const int dqk = p.head_dim_qk, dv = p.head_dim_v;
  std::vector<float> q(static_cast<std::size_t>(dqk)), acc(static_cast<std::size_t>(dv));
  std::vector<Partial> parts;
  const bool right_to_left = merges_right_to_left<P>();
  for (int s = 0; s < p.batch; ++s) {
    const std::int64_t q0 = p.cu_seqlens_q[s], lq = p.cu_seqlens_q[s + 1] - q0;
    const std::int64_t k0 = p.cu_seqlens_k[s], lk = p.cu_seqlens_k[s + 1] - k0;
    const bool paged = p.page_size > 0;
    const std::int64_t readable_keys =
        P::read_past_length && paged ? (lk + p.page_size - 1) / p.page_size * p.page_size : lk;
    // The element index of component 0 of key j's kv head g in K or V (dim components a head).
    const auto kv_index = [&](std::int64_t j, int g, int dim) -> std::int64_t {
      std::int64_t token = k0 + j;
      if (paged) {
        std::int64_t page = j / p.page_size;
        if (P::page_off_by_one && page > 0) --page;
        token = std::int64_t{p.block_table[s * p.max_pages + page]} * p.page_size + j % p.page_size;
      }
      return (token * p.heads_kv + g) * dim;
    };
    // The keys a tile takes: Policy::tile (the mutants: more for a later sequence, or a page's).
    std::int64_t tile = P::tile;
    if (P::tile_by_batch_position) tile += s;
    if (P::tiles_follow_pages && paged) tile = p.page_size;
    if (tile > kMaxTile)
      throw std::invalid_argument("tiled attention: a tile of more than 64 keys");
    // The keys before the query block's own (bottom-right: the cached prefix of a chunked
    // prefill); only the stale-max mutant reads it.
    const std::int64_t prefix_keys = lk - lq;
    bool bottom_right = p.mask.align == MaskAlign::BottomRight;
    if (P::swap_alignment) bottom_right = !bottom_right;
    for (std::int64_t i = 0; i < lq; ++i) {
      const std::int64_t diagonal = i + (bottom_right ? lk - lq : 0);
      const auto kept = [&](std::int64_t j) {
        if (j >= lk) return P::read_past_length;  // only the mutant reads past k_len
        if (p.mask.kind == MaskKind::Causal)
          return P::causal_keeps_diagonal ? j <= diagonal : j < diagonal;
        if (p.mask.kind == MaskKind::Window) {
          if (p.mask.window_right >= 0 && j > diagonal + p.mask.window_right) return false;
          if (p.mask.window_left >= 0 && j < diagonal - p.mask.window_left - P::window_left_extra)
            return false;
        }
        return true;
      };
      for (int h = 0; h < p.heads_q; ++h) {
        const int g = P::gqa_head_modulo ? h % p.heads_kv : h / group;
        const std::int64_t row = q0 + i;
        for (int c = 0; c < dqk; ++c)
          q[c] = detail::load_one(p.in_type, p.q_ptr, (row * p.heads_q + h) * dqk + c);
        // The keys [0, end) in splits of split_keys keys (the last may hold fewer), each an
        // online softmax of its own from its first key (in tiles from there).
        const std::int64_t end = P::last_tile ? readable_keys : readable_keys / tile * tile;
        const std::int64_t split_keys = split_keys_of<P>(p, end);
        const std::int64_t splits = std::max<std::int64_t>(1, (end + split_keys - 1) / split_keys);
        parts.resize(static_cast<std::size_t>(splits));
        for (std::int64_t sp = 0; sp < splits; ++sp) {
          Partial& part = parts[static_cast<std::size_t>(sp)];
          part.m = -INFINITY, part.l = 0;
          part.acc.assign(static_cast<std::size_t>(dv), 0.0f);
          // Only the mutant: the prefix's max (kept keys before the query block's first key).
          float prefix_max = -INFINITY;
          const std::int64_t from = std::min(end, sp * split_keys),
                             to = std::min(end, from + split_keys);
          for (std::int64_t t0 = from; t0 < to; t0 += tile) {
            const std::int64_t t1 = std::min<std::int64_t>(t0 + tile, to);
            float score[kMaxTile];
            float tile_max = -INFINITY;
            for (std::int64_t j = t0; j < t1; ++j) {
              float dot = 0;
              const std::int64_t at = kv_index(j, g, dqk);
              for (int c = 0; c < dqk; ++c)
                dot = std::fma(q[c], detail::load_one(p.in_type, p.k_ptr, at + c), dot);
              float s = dot * p.scale;
              if (p.softcap > 0)
                s = P::softcap_before_scale ? p.softcap * std::tanh(dot / p.softcap) * p.scale
                                            : p.softcap * std::tanh(s / p.softcap);
              if (p.alibi_slopes != nullptr) {
                const std::int64_t from_key = P::alibi_from_diagonal ? diagonal : i;
                const float bias = p.alibi_slopes[h] * static_cast<float>(std::llabs(from_key - j));
                s = P::alibi_subtracted ? s - bias : s + bias;
              }
              score[j - t0] = kept(j) ? s : -INFINITY;
              tile_max = std::max(tile_max, score[j - t0]);
              if (j < prefix_keys) prefix_max = std::max(prefix_max, score[j - t0]);
            }
            const float m_new = std::max(part.m, tile_max);
            if (m_new == -INFINITY) continue;  // every key so far masked
            const float alpha = std::exp((P::max_before_alpha ? part.m : m_new) - m_new);
            if (P::rescale_l) part.l *= alpha;
            if (P::rescale_acc)
              for (float& a : part.acc) a *= alpha;
            for (std::int64_t j = t0; j < t1; ++j) {
              const float sj = score[j - t0];
              if (P::skip_masked && sj == -INFINITY) continue;
              float w = std::exp(sj - m_new);
              if (P::stale_max_after_prefix && j >= prefix_keys && prefix_max > -INFINITY &&
                  sj - prefix_max <= 8)
                w = std::exp(sj - prefix_max) * std::exp(prefix_max - m_new);
              // (the mutant: the first key of a page after the first taken twice)
              const bool twice =
                  P::page_boundary_read_twice && paged && j > 0 && j % p.page_size == 0;
              const std::int64_t at = kv_index(j, g, dv);
              for (int read = 0; read < (twice ? 2 : 1); ++read) {
                part.l += w;
                for (int c = 0; c < dv; ++c)
                  part.acc[c] =
                      std::fma(w, detail::load_one(p.in_type, p.v_ptr, at + c), part.acc[c]);
              }
            }
            part.m = m_new;
          }
        }
        // The partials merged left to right (the mutant: right to left every other launch).
        float m = -INFINITY, l = 0;
        std::fill(acc.begin(), acc.end(), 0.0f);
        for (std::int64_t n = 0; n < splits; ++n) {
          const Partial& part = parts[static_cast<std::size_t>(right_to_left ? splits - 1 - n : n)];
          if (part.m == -INFINITY) continue;  // an empty split merges away exactly
          if (m == -INFINITY) {
            m = part.m, l = part.l;
            std::copy(part.acc.begin(), part.acc.end(), acc.begin());
            continue;
          }
          const float m_new = std::max(m, part.m);
          const float alpha = std::exp(m - m_new), beta = std::exp(part.m - m_new);
          l = l * alpha + part.l * beta;
          for (int c = 0; c < dv; ++c) acc[c] = acc[c] * alpha + part.acc[c] * beta;
          m = m_new;
        }
        float l_keys = l, m_keys = m;  // without the sink (the mutant's lse)
        if (p.sinks != nullptr && P::apply_sinks) {
          const float z = p.sinks[h], m_new = std::max(m, z);
          const float alpha = std::exp(m - m_new);
          l = l * alpha + std::exp(z - m_new);
          for (float& a : acc) a *= alpha;
          m = m_new;
        }
        if (P::sink_in_lse) l_keys = l, m_keys = m;
        const std::int64_t out_row = (row * p.heads_q + h) * dv;
        for (int c = 0; c < dv; ++c) {
          const float o = (P::empty_row_guard && l == 0) ? 0.0f : acc[c] / l;
          store_as(p.out_type, &o,
                   static_cast<unsigned char*>(p.o_ptr) + (out_row + c) * size_of(p.out_type), 1);
        }
        if (p.lse != nullptr) {
          float lse = l_keys == 0 ? -INFINITY : (P::lse_has_max ? m_keys : 0.0f) + std::log(l_keys);
          if (p.base == LseBase::Two && P::lse_to_base_two && l_keys != 0) lse *= 1.44269504f;
          p.lse[p.lse_offset(row, h)] = lse;
        }
      }
    }
  }
}

/// The declaration of a tiled kernel named `name` (the builtin and every mutant share it).
inline AttentionKernel declare_tiled_attention(const std::string& name,
                                               void (*run)(const AttentionProblem&)) {
  return AttentionKernel(name, Where::Host)
      .run(run)
      .in_types({DType::F32, DType::BF16, DType::F16})
      .masks({MaskKind::None, MaskKind::Causal, MaskKind::Window})
      .gqa()
      .page_sizes({1, 3, 4})
      .v_head_dims({1, 2, 3, 4, 5, 8, 16})
      .lse({LseBase::E, LseBase::Two}, AttnLseLayout::HeadsTokens)
      .softcap()
      .sinks()
      .alibi()
      .kv_splits(KvSplit::Size, {4, 8, 16})
      .split_bitwise(false)
      .accuracy({5, 4, 4, 6, 2, 2, 1})
      .description("osvs's tiled online-softmax attention on the host (f32 arithmetic)");
}

}  // namespace osvs::builtin
