// The attention mutants' policies: osvs's tiled attention kernel (TiledAttention,
// api/builtin/tiled_attention_row.h) with one member overridden each. Free of the test
// framework, so that nvcc instantiates them too (tiled_attention_device_mutants.cu); the
// catalogue is attention_mutant_catalogue.h, the check attention_mutants.h.
#pragma once

#include "osvs/mutation/one_member_mutant.h"
#include "tiled_attention_row.h"

namespace osvs::test {

using builtin::TiledAttention;

OSVS_ONE_MEMBER_MUTANT(WindowLeftOffByOne, TiledAttention, window_left_extra, 1);
OSVS_ONE_MEMBER_MUTANT(CausalDropsDiagonal, TiledAttention, causal_keeps_diagonal, false);
OSVS_ONE_MEMBER_MUTANT(AlignmentSwapped, TiledAttention, swap_alignment, true);
OSVS_ONE_MEMBER_MUTANT(GqaHeadModulo, TiledAttention, gqa_head_modulo, true);
OSVS_ONE_MEMBER_MUTANT(PageTableOffByOne, TiledAttention, page_off_by_one, true);
OSVS_ONE_MEMBER_MUTANT(RaggedTailUnmasked, TiledAttention, read_past_length, true);
OSVS_ONE_MEMBER_MUTANT(AccNotRescaled, TiledAttention, rescale_acc, false);
OSVS_ONE_MEMBER_MUTANT(DenominatorNotRescaled, TiledAttention, rescale_l, false);
OSVS_ONE_MEMBER_MUTANT(MaxOverwrittenBeforeRescale, TiledAttention, max_before_alpha, false);
OSVS_ONE_MEMBER_MUTANT(LseWithoutMax, TiledAttention, lse_has_max, false);
OSVS_ONE_MEMBER_MUTANT(LseLeftInBaseE, TiledAttention, lse_to_base_two, false);
OSVS_ONE_MEMBER_MUTANT(EmptyRowDividesByZero, TiledAttention, empty_row_guard, false);
OSVS_ONE_MEMBER_MUTANT(MaskedValueAccumulated, TiledAttention, skip_masked, false);
OSVS_ONE_MEMBER_MUTANT(LastTileDropped, TiledAttention, last_tile, false);
OSVS_ONE_MEMBER_MUTANT(SoftcapBeforeScale, TiledAttention, softcap_before_scale, true);
OSVS_ONE_MEMBER_MUTANT(SinkLeftOutOfLse, TiledAttention, sink_in_lse, false);
OSVS_ONE_MEMBER_MUTANT(SinksIgnored, TiledAttention, apply_sinks, false);
// ALiBi's distance |i - j|: right only where q_len == k_len.
OSVS_ONE_MEMBER_MUTANT(AlibiFromQueryIndex, TiledAttention, alibi_from_diagonal, false);
OSVS_ONE_MEMBER_MUTANT(AlibiAdded, TiledAttention, alibi_subtracted, false);
// Accurate, but a sequence's bits follow its place in the batch.
OSVS_ONE_MEMBER_MUTANT(TileByBatchPosition, TiledAttention, tile_by_batch_position, true);
// Accurate, but the bits follow the page size.
OSVS_ONE_MEMBER_MUTANT(TilesFollowPages, TiledAttention, tiles_follow_pages, true);
// The defects of issue 31 (deterministic inference). Accurate, but the bits follow the batch
// size: 4 splits alone, 2 in a batch of two (3 keys tell them apart: splits of 1 against 2).
OSVS_ONE_MEMBER_MUTANT(SplitCountFromBatch, TiledAttention, split_count_from_batch, true);
// Accurate, 2 splits up to 4 sequences and 1 above: no batch of the generated cases (3
// sequences at most) crosses it, split_invariance's batch of 8 copies does.
OSVS_ONE_MEMBER_MUTANT(UnsplitAboveBatch, TiledAttention, unsplit_above_batch, 4);
// Accurate, but its partials merged left to right, then right to left at the next launch, as
// float atomics land in an order of their own: with three partials or more, two runs differ, which
// the first law that compares two runs of one attention bitwise sees (poison, gqa or determinism,
// whichever's cases first have three splits; accuracy and empty_rows compare with the oracle), and
// determinism.
OSVS_ONE_MEMBER_MUTANT(PartialsInVaryingOrder, TiledAttention, partials_in_varying_order, true);
// Accurate (exact in real arithmetic), but a key after the prefix weighed with the prefix's max
// and rescaled: its bits follow where the query block starts, which chunks move.
OSVS_ONE_MEMBER_MUTANT(StaleMaxAfterPrefix, TiledAttention, stale_max_after_prefix, true);
// A page's first key taken twice: wrong, so accuracy finds it first; page_layout too (not in
// contiguous K/V).
OSVS_ONE_MEMBER_MUTANT(PageBoundaryReadTwice, TiledAttention, page_boundary_read_twice, true);
// Accurate, but the declared split size read as a split count: the splits then follow the KV
// length, which a chunk's KV prefix changes (a fixed split count against a fixed split size).
OSVS_ONE_MEMBER_MUTANT(SplitParameterAsCount, TiledAttention, split_parameter_as_count, true);

OSVS_ONE_MEMBER_MUTANT(KvScalesSwapped, TiledAttention, kv_scales_swapped, true);

}  // namespace osvs::test
