// One (sequence, query, query head) of osvs's tiled attention kernel: the loop tiled_attention.h
// describes and bounds, written once for both executors (OSVS_HD). The host entry runs it row
// after row (tiled_attention.h), the device entry one thread a row (tiled_attention_device.cuh).
// Every operation is one IEEE binary32 operation rounded once (rounded_ops.h: nvcc may not fuse
// or reorder them; the host builds with -ffp-contract=off), so the two executors differ only in
// the elementary functions of Math (tiled_attention_math.h). The policy P is the kernel as
// written (TiledAttention) or a mutant's one defect (api/tests/attention_mutants.h).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "osvs/kernels/dtype_bits.h"
#include "osvs/kernels/hd.h"
#include "osvs/kernels/rounded_ops.h"
#include "osvs/osvs.h"
#include "tiled_attention_math.h"

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
  static constexpr bool kv_scales_swapped = false;         ///< fp8: K times v_scale, V k_scale
};

inline constexpr std::int64_t kMaxTile = 64;
/// The largest head_dim (of q/k and of v) a row holds (the entries declare at most 16).
inline constexpr int kMaxTiledHeadDim = 256;

namespace detail {

inline constexpr float kNegInf = -__builtin_huge_valf();

/// Element `index` of a tensor of type t, as a float (dtype.cpp's load_from, element by element).
OSVS_HD float load_elem(DType t, const void* base, std::int64_t index) {
  if (t == DType::F32) return static_cast<const float*>(base)[index];
  const std::uint16_t b = static_cast<const std::uint16_t*>(base)[index];
  return t == DType::BF16 ? float_of_bf16_bits(b) : float_of_f16_bits(b);
}

/// Element `index` of K or V as the kernel attends to it: stored in p.kv_type, an fp8 one times
/// the tensor's `scale` (docs/semantics.md §9, "fp8 K/V"), else read as load_elem reads the in
/// type. fl(scale x) is exact when scale has at most 20 (e4m3) or 21 (e5m2) significant bits: x
/// has at most 4 or 3, their product at most 24, and it is a normal float or zero (the case's
/// scales lie in [2^-64, 2^64], x in [2^-16, 57344]). A scale of more bits (1/448 rounded has
/// 24) makes it one rounding, within 2^-24 relatively, which the fp8 entry's contract charges
/// (tiled_attention_fp8.h).
OSVS_HD float load_kv(const AttentionProblem& p, const void* base, std::int64_t index,
                      float scale) {
  if (p.kv_type != DType::E4M3 && p.kv_type != DType::E5M2)
    return load_elem(p.in_type, base, index);
  const std::uint8_t b = static_cast<const std::uint8_t*>(base)[index];
  return osvs::detail::mul_rn(
      scale, p.kv_type == DType::E4M3 ? float_of_e4m3_bits(b) : float_of_e5m2_bits(b));
}

/// x rounded to t into element `index` (dtype.cpp's store_as, element by element).
OSVS_HD void store_elem(DType t, float x, void* base, std::int64_t index) {
  if (t == DType::F32)
    static_cast<float*>(base)[index] = x;
  else
    static_cast<std::uint16_t*>(base)[index] = t == DType::BF16 ? bf16_bits_of(x) : f16_bits_of(x);
}

/// std::max's result on floats ((a < b) ? b : a: a NaN b gives a), on both executors.
OSVS_HD float max_of(float a, float b) {
  return a < b ? b : a;
}
OSVS_HD std::int64_t max_of(std::int64_t a, std::int64_t b) {
  return a < b ? b : a;
}
OSVS_HD std::int64_t min_of(std::int64_t a, std::int64_t b) {
  return b < a ? b : a;
}

}  // namespace detail

/// The keys a tile of sequence s takes: Policy::tile (the mutants: more for a later sequence,
/// or a page's).
template <class P>
OSVS_HD std::int64_t tile_of(const AttentionProblem& p, int s) {
  std::int64_t tile = P::tile;
  if (P::tile_by_batch_position) tile += s;
  if (P::tiles_follow_pages && p.page_size > 0) tile = p.page_size;
  return tile;
}

/// The kernel's own split count when the launch asks for none: one (unsplit); the mutants: one
/// that follows the batch size, or two up to a batch threshold.
template <class P>
OSVS_HD std::int64_t own_split_count(const AttentionProblem& p) {
  if (P::split_count_from_batch) return detail::max_of(std::int64_t{1}, 4 / p.batch);
  if (P::unsplit_above_batch > 0) return p.batch > P::unsplit_above_batch ? 1 : 2;
  return 1;
}

/// The keys a split of a sequence of `keys` keys holds: the launch's split size (the mutant
/// reads it as a count), else its own split count's share.
template <class P>
OSVS_HD std::int64_t split_keys_of(const AttentionProblem& p, std::int64_t keys) {
  if (p.kv_splits > 0 && !P::split_parameter_as_count) return p.kv_splits;
  const std::int64_t count = p.kv_splits > 0 ? p.kv_splits : own_split_count<P>(p);
  return detail::max_of(std::int64_t{1}, (keys + count - 1) / count);
}

/// What a launch must satisfy before any row runs (both executors check it on the host): tiles
/// of at most kMaxTile keys, head_dims of at most kMaxTiledHeadDim.
template <class P>
void check_tiled_problem(const AttentionProblem& p) {
  for (int s = 0; s < p.batch; ++s)
    if (tile_of<P>(p, s) > kMaxTile)
      throw std::invalid_argument("tiled attention: a tile of more than 64 keys");
  if (p.head_dim_qk > kMaxTiledHeadDim || p.head_dim_v > kMaxTiledHeadDim)
    throw std::invalid_argument("tiled attention: a head_dim above " +
                                std::to_string(kMaxTiledHeadDim));
}

/// Query i of sequence s, query head h: its o (and lse) written. right_to_left: the launch
/// merges its partials right to left (only a mutant's launches do).
template <class P, class Math>
OSVS_HD void tiled_attention_row(const AttentionProblem& p, int s, std::int64_t i, int h,
                                 bool right_to_left) {
  using detail::kNegInf;
  const int group = p.heads_q / p.heads_kv;
  const int dqk = p.head_dim_qk, dv = p.head_dim_v;
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
  const std::int64_t tile = tile_of<P>(p, s);
  // The keys before the query block's own (bottom-right: the cached prefix of a chunked
  // prefill); only the stale-max mutant reads it.
  const std::int64_t prefix_keys = lk - lq;
  bool bottom_right = p.mask.align == MaskAlign::BottomRight;
  if (P::swap_alignment) bottom_right = !bottom_right;
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
  const int g = P::gqa_head_modulo ? h % p.heads_kv : h / group;
  // fp8 K/V's scales (1 and 1 otherwise; the mutant swaps them).
  const float k_scale = P::kv_scales_swapped ? p.v_scale : p.k_scale;
  const float v_scale = P::kv_scales_swapped ? p.k_scale : p.v_scale;
  const std::int64_t row = q0 + i;
  float q[kMaxTiledHeadDim];
  for (int c = 0; c < dqk; ++c)
    q[c] = detail::load_elem(p.in_type, p.q_ptr, (row * p.heads_q + h) * dqk + c);
  // The keys [0, end) in splits of split_keys keys (the last may hold fewer), each an online
  // softmax of its own from its first key (in tiles from there), merged into (m, l, acc) as it
  // ends: left to right (the mutant: right to left every other launch).
  const std::int64_t end = P::last_tile ? readable_keys : readable_keys / tile * tile;
  const std::int64_t split_keys = split_keys_of<P>(p, end);
  const std::int64_t splits = detail::max_of(std::int64_t{1}, (end + split_keys - 1) / split_keys);
  float m = kNegInf, l = 0, acc[kMaxTiledHeadDim];
  for (int c = 0; c < dv; ++c) acc[c] = 0.0f;
  for (std::int64_t n = 0; n < splits; ++n) {
    const std::int64_t sp = right_to_left ? splits - 1 - n : n;
    float part_m = kNegInf, part_l = 0, part_acc[kMaxTiledHeadDim];
    for (int c = 0; c < dv; ++c) part_acc[c] = 0.0f;
    // Only the mutant: the prefix's max (kept keys before the query block's first key).
    float prefix_max = kNegInf;
    const std::int64_t from = detail::min_of(end, sp * split_keys),
                       to = detail::min_of(end, from + split_keys);
    for (std::int64_t t0 = from; t0 < to; t0 += tile) {
      const std::int64_t t1 = detail::min_of(t0 + tile, to);
      float score[kMaxTile];
      float tile_max = kNegInf;
      for (std::int64_t j = t0; j < t1; ++j) {
        float dot = 0;
        const std::int64_t at = kv_index(j, g, dqk);
        for (int c = 0; c < dqk; ++c)
          dot = osvs::detail::fma_f(q[c], detail::load_kv(p, p.k_ptr, at + c, k_scale), dot);
        float sc = osvs::detail::mul_rn(dot, p.scale);
        if (p.softcap > 0)
          sc = P::softcap_before_scale
                   ? osvs::detail::mul_rn(
                         osvs::detail::mul_rn(p.softcap,
                                              Math::tanh(osvs::detail::div_rn(dot, p.softcap))),
                         p.scale)
                   : osvs::detail::mul_rn(p.softcap,
                                          Math::tanh(osvs::detail::div_rn(sc, p.softcap)));
        if (p.alibi_slopes != nullptr) {
          const std::int64_t distance = (P::alibi_from_diagonal ? diagonal : i) - j;
          const float bias = osvs::detail::mul_rn(
              p.alibi_slopes[h], static_cast<float>(distance < 0 ? -distance : distance));
          sc =
              P::alibi_subtracted ? osvs::detail::sub_rn(sc, bias) : osvs::detail::add_rn(sc, bias);
        }
        score[j - t0] = kept(j) ? sc : kNegInf;
        tile_max = detail::max_of(tile_max, score[j - t0]);
        if (j < prefix_keys) prefix_max = detail::max_of(prefix_max, score[j - t0]);
      }
      const float m_new = detail::max_of(part_m, tile_max);
      if (m_new == kNegInf) continue;  // every key so far masked
      const float alpha =
          Math::exp(osvs::detail::sub_rn(P::max_before_alpha ? part_m : m_new, m_new));
      if (P::rescale_l) part_l = osvs::detail::mul_rn(part_l, alpha);
      if (P::rescale_acc)
        for (int c = 0; c < dv; ++c) part_acc[c] = osvs::detail::mul_rn(part_acc[c], alpha);
      for (std::int64_t j = t0; j < t1; ++j) {
        const float sj = score[j - t0];
        if (P::skip_masked && sj == kNegInf) continue;
        float w = Math::exp(osvs::detail::sub_rn(sj, m_new));
        if (P::stale_max_after_prefix && j >= prefix_keys && prefix_max > kNegInf &&
            osvs::detail::sub_rn(sj, prefix_max) <= 8)
          w = osvs::detail::mul_rn(Math::exp(osvs::detail::sub_rn(sj, prefix_max)),
                                   Math::exp(osvs::detail::sub_rn(prefix_max, m_new)));
        // (the mutant: the first key of a page after the first taken twice)
        const bool twice = P::page_boundary_read_twice && paged && j > 0 && j % p.page_size == 0;
        const std::int64_t at = kv_index(j, g, dv);
        for (int read = 0; read < (twice ? 2 : 1); ++read) {
          part_l = osvs::detail::add_rn(part_l, w);
          for (int c = 0; c < dv; ++c)
            part_acc[c] =
                osvs::detail::fma_f(w, detail::load_kv(p, p.v_ptr, at + c, v_scale), part_acc[c]);
        }
      }
      part_m = m_new;
    }
    // The split's partial merged into the row's.
    if (part_m == kNegInf) continue;  // an empty split merges away exactly
    if (m == kNegInf) {
      m = part_m, l = part_l;
      for (int c = 0; c < dv; ++c) acc[c] = part_acc[c];
      continue;
    }
    const float m_new = detail::max_of(m, part_m);
    const float alpha = Math::exp(osvs::detail::sub_rn(m, m_new)),
                beta = Math::exp(osvs::detail::sub_rn(part_m, m_new));
    l = osvs::detail::add_rn(osvs::detail::mul_rn(l, alpha), osvs::detail::mul_rn(part_l, beta));
    for (int c = 0; c < dv; ++c)
      acc[c] = osvs::detail::add_rn(osvs::detail::mul_rn(acc[c], alpha),
                                    osvs::detail::mul_rn(part_acc[c], beta));
    m = m_new;
  }
  float l_keys = l, m_keys = m;  // without the sink (the mutant's lse)
  if (p.sinks != nullptr && P::apply_sinks) {
    const float z = p.sinks[h], m_new = detail::max_of(m, z);
    const float alpha = Math::exp(osvs::detail::sub_rn(m, m_new));
    l = osvs::detail::add_rn(osvs::detail::mul_rn(l, alpha),
                             Math::exp(osvs::detail::sub_rn(z, m_new)));
    for (int c = 0; c < dv; ++c) acc[c] = osvs::detail::mul_rn(acc[c], alpha);
    m = m_new;
  }
  if (P::sink_in_lse) l_keys = l, m_keys = m;
  const std::int64_t out_row = (row * p.heads_q + h) * dv;
  for (int c = 0; c < dv; ++c) {
    const float o = (P::empty_row_guard && l == 0) ? 0.0f : osvs::detail::div_rn(acc[c], l);
    detail::store_elem(p.out_type, o, p.o_ptr, out_row + c);
  }
  if (p.lse != nullptr) {
    float lse = l_keys == 0
                    ? kNegInf
                    : osvs::detail::add_rn(P::lse_has_max ? m_keys : 0.0f, Math::log(l_keys));
    if (p.base == LseBase::Two && P::lse_to_base_two && l_keys != 0)
      lse = osvs::detail::mul_rn(lse, 1.44269504f);
    const std::int64_t at = p.lse_offset(row, h);
    p.lse[at] = lse;
  }
}

}  // namespace osvs::builtin
