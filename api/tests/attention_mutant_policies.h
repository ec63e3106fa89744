// The attention mutants' policies: osvs's tiled attention kernel (TiledAttention,
// api/builtin/tiled_attention_row.h) with one member overridden each. Free of the test
// framework, so that nvcc instantiates them too (tiled_attention_device_mutants.cu); the
// catalogue is attention_mutant_catalogue.h, the check attention_mutants.h.
#pragma once

#include "osvs/mutation/one_member_mutant.h"
#include "tiled_attention_row.h"

namespace osvs::test {

using builtin::TiledAttention;

/// The forward kernel's mutants, in the catalogue's order, one row each, which both declares the
/// policy (below) and puts it in the catalogue (attention_mutant_catalogue.h):
/// X(Policy, member, value, name, expectations...): the policy `Policy` is TiledAttention with
/// `member` set to `value`, the catalogue's mutant `name` runs it, and its expectations are the
/// Mutant fields after `run` (min_heads_q, killed_by, also_killed_by, max_keys) where they are
/// not the defaults.
#define OSVS_TILED_ATTENTION_MUTANTS(X)                                                            \
  X(WindowLeftOffByOne, window_left_extra, 1, window_left_off_by_one)                              \
  X(CausalDropsDiagonal, causal_keeps_diagonal, false, causal_drops_diagonal)                      \
  X(AlignmentSwapped, swap_alignment, true, alignment_swapped)                                     \
  /* h % heads_kv and h / group first differ at 2 kv heads with 2 query heads each. */             \
  X(GqaHeadModulo, gqa_head_modulo, true, gqa_head_modulo, 4)                                      \
  X(PageTableOffByOne, page_off_by_one, true, page_table_off_by_one)                               \
  X(RaggedTailUnmasked, read_past_length, true, ragged_tail_unmasked)                              \
  X(AccNotRescaled, rescale_acc, false, acc_not_rescaled)                                          \
  X(DenominatorNotRescaled, rescale_l, false, denominator_not_rescaled)                            \
  X(MaxOverwrittenBeforeRescale, max_before_alpha, false, max_overwritten_before_rescale)          \
  X(LseWithoutMax, lse_has_max, false, lse_without_max)                                            \
  X(LseLeftInBaseE, lse_to_base_two, false, lse_left_in_base_e)                                    \
  X(EmptyRowDividesByZero, empty_row_guard, false, empty_row_divides_by_zero)                      \
  X(MaskedValueAccumulated, skip_masked, false, masked_value_accumulated)                          \
  X(LastTileDropped, last_tile, false, last_tile_dropped)                                          \
  X(SoftcapBeforeScale, softcap_before_scale, true, softcap_before_scale)                          \
  X(SinkLeftOutOfLse, sink_in_lse, false, sink_left_out_of_lse)                                    \
  X(SinksIgnored, apply_sinks, false, sinks_ignored)                                               \
  /* ALiBi's distance |i - j|: right only where q_len == k_len. */                                 \
  X(AlibiFromQueryIndex, alibi_from_diagonal, false, alibi_from_query_index)                       \
  X(AlibiAdded, alibi_subtracted, false, alibi_added)                                              \
  /* Accurate, but a sequence's bits follow its place in the batch. */                             \
  X(TileByBatchPosition, tile_by_batch_position, true, tile_by_batch_position)                     \
  /* Accurate, but the bits follow the page size. */                                               \
  X(TilesFollowPages, tiles_follow_pages, true, tiles_follow_pages)                                \
  /* The defects of issue 31 (deterministic inference). Accurate, but the bits follow the batch    \
     size: 4 splits alone, 2 in a batch of two (3 keys tell them apart: splits of 1 against 2). */ \
  X(SplitCountFromBatch, split_count_from_batch, true, split_count_from_batch, 2,                  \
    "batch_invariance", "split_invariance")                                                        \
  /* Accurate, 2 splits up to 4 sequences and 1 above: no batch of the generated cases (3          \
     sequences at most) crosses it, split_invariance's batch of 8 copies does. */                  \
  X(UnsplitAboveBatch, unsplit_above_batch, 4, unsplit_above_batch, 2, "split_invariance")         \
  /* Accurate, but its partials merged left to right, then right to left at the next launch, as    \
     float atomics land in an order of their own: with three partials or more, two runs differ,    \
     which the first law that compares two runs of one attention bitwise sees (poison, gqa or      \
     determinism, whichever's cases first have three splits; accuracy and empty_rows compare with  \
     the oracle), and determinism. Three splits of 4 keys (the smallest declared size): 12 keys    \
     (9 where a last split of one key is enough to change a rounding). */                          \
  X(PartialsInVaryingOrder, partials_in_varying_order, true, partials_in_varying_order, 2,         \
    "poison gqa determinism", "determinism", 12)                                                   \
  /* Accurate (exact in real arithmetic), but a key after the prefix weighed with the prefix's     \
     max and rescaled: its bits follow where the query block starts, which chunks move. */         \
  X(StaleMaxAfterPrefix, stale_max_after_prefix, true, stale_max_after_prefix, 2,                  \
    "chunked_prefill", "prefill_decode")                                                           \
  /* A page's first key taken twice: wrong, so accuracy finds it first; page_layout too (not in    \
     contiguous K/V). */                                                                           \
  X(PageBoundaryReadTwice, page_boundary_read_twice, true, page_boundary_read_twice, 2,            \
    "accuracy", "page_layout")                                                                     \
  /* Accurate, but the declared split size read as a split count: the splits then follow the KV    \
     length, which a chunk's KV prefix changes (a fixed split count against a fixed split size);   \
     a few keys (the catalogue's 8) show it. */                                                    \
  X(SplitParameterAsCount, split_parameter_as_count, true, split_parameter_as_count, 2,            \
    "chunked_prefill")

#define OSVS_TILED_ATTENTION_POLICY(Policy, member, value, ...) \
  OSVS_ONE_MEMBER_MUTANT(Policy, TiledAttention, member, value);
OSVS_TILED_ATTENTION_MUTANTS(OSVS_TILED_ATTENTION_POLICY)
#undef OSVS_TILED_ATTENTION_POLICY

// Outside the catalogue: the fp8 kernel's mutant (attention_mutants_test.cpp).
OSVS_ONE_MEMBER_MUTANT(KvScalesSwapped, TiledAttention, kv_scales_swapped, true);

}  // namespace osvs::test
