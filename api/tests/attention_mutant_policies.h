// The attention mutants' policies: osvs's tiled attention kernel (TiledAttention,
// api/builtin/tiled_attention_row.h) with one member overridden each. Free of the test
// framework, so that nvcc instantiates them too (tiled_attention_device_mutants.cu); the
// catalogue and the check are attention_mutants.h.
#pragma once

#include "tiled_attention_row.h"

namespace osvs::test {

using builtin::TiledAttention;

struct WindowLeftOffByOne : TiledAttention {
  static constexpr int window_left_extra = 1;
};
struct CausalDropsDiagonal : TiledAttention {
  static constexpr bool causal_keeps_diagonal = false;
};
struct AlignmentSwapped : TiledAttention {
  static constexpr bool swap_alignment = true;
};
struct GqaHeadModulo : TiledAttention {
  static constexpr bool gqa_head_modulo = true;
};
struct PageTableOffByOne : TiledAttention {
  static constexpr bool page_off_by_one = true;
};
struct RaggedTailUnmasked : TiledAttention {
  static constexpr bool read_past_length = true;
};
struct AccNotRescaled : TiledAttention {
  static constexpr bool rescale_acc = false;
};
struct DenominatorNotRescaled : TiledAttention {
  static constexpr bool rescale_l = false;
};
struct MaxOverwrittenBeforeRescale : TiledAttention {
  static constexpr bool max_before_alpha = false;
};
struct LseWithoutMax : TiledAttention {
  static constexpr bool lse_has_max = false;
};
struct LseLeftInBaseE : TiledAttention {
  static constexpr bool lse_to_base_two = false;
};
struct EmptyRowDividesByZero : TiledAttention {
  static constexpr bool empty_row_guard = false;
};
struct MaskedValueAccumulated : TiledAttention {
  static constexpr bool skip_masked = false;
};
struct LastTileDropped : TiledAttention {
  static constexpr bool last_tile = false;
};
struct SoftcapBeforeScale : TiledAttention {
  static constexpr bool softcap_before_scale = true;
};
struct SinkLeftOutOfLse : TiledAttention {
  static constexpr bool sink_in_lse = false;
};
struct SinksIgnored : TiledAttention {
  static constexpr bool apply_sinks = false;
};
struct AlibiFromQueryIndex : TiledAttention {  // |i - j|: right only where q_len == k_len
  static constexpr bool alibi_from_diagonal = false;
};
struct AlibiAdded : TiledAttention {
  static constexpr bool alibi_subtracted = false;
};
struct TileByBatchPosition : TiledAttention {  // accurate, but a sequence's bits follow its place
  static constexpr bool tile_by_batch_position = true;
};
struct TilesFollowPages : TiledAttention {  // accurate, but the bits follow the page size
  static constexpr bool tiles_follow_pages = true;
};
// The defects of issue 31 (deterministic inference). Accurate, but the bits follow the batch
// size: 4 splits alone, 2 in a batch of two (3 keys tell them apart: splits of 1 against 2).
struct SplitCountFromBatch : TiledAttention {
  static constexpr bool split_count_from_batch = true;
};
// Accurate, 2 splits up to 4 sequences and 1 above: no batch of the generated cases (3
// sequences at most) crosses it, split_invariance's batch of 8 copies does.
struct UnsplitAboveBatch : TiledAttention {
  static constexpr int unsplit_above_batch = 4;
};
// Accurate, but its partials merged left to right, then right to left at the next launch, as
// float atomics land in an order of their own: with three partials or more, two runs differ, which
// the first law that compares two runs of one attention bitwise sees (poison, gqa or determinism,
// whichever's cases first have three splits; accuracy and empty_rows compare with the oracle), and
// determinism.
struct PartialsInVaryingOrder : TiledAttention {
  static constexpr bool partials_in_varying_order = true;
};
// Accurate (exact in real arithmetic), but a key after the prefix weighed with the prefix's max
// and rescaled: its bits follow where the query block starts, which chunks move.
struct StaleMaxAfterPrefix : TiledAttention {
  static constexpr bool stale_max_after_prefix = true;
};
// A page's first key taken twice: wrong, so accuracy finds it first; page_layout too (not in
// contiguous K/V).
struct PageBoundaryReadTwice : TiledAttention {
  static constexpr bool page_boundary_read_twice = true;
};
// Accurate, but the declared split size read as a split count: the splits then follow the KV
// length, which a chunk's KV prefix changes (a fixed split count against a fixed split size).
struct SplitParameterAsCount : TiledAttention {
  static constexpr bool split_parameter_as_count = true;
};

struct KvScalesSwapped : TiledAttention {
  static constexpr bool kv_scales_swapped = true;
};

}  // namespace osvs::test
