// The attention mutants' catalogues: osvs's tiled attention kernel
// (api/builtin/tiled_attention_row.h) and its backward kernel
// (api/builtin/tiled_attention_backward.h), each with one defect a mutant, as policies of the same
// code (attention_mutant_policies.h, attention_backward_mutant_policies.h), run by an executor's
// Run<Policy>::run: the host's (attention_mutants_test.cpp, attention_backward_mutants_test.cpp) or
// the device's (tiled_attention_device_run.h). Free of the test framework, so that nvcc
// instantiates the device's catalogues (tiled_attention_device_mutants.cu,
// tiled_attention_backward_device_mutants.cu); the check is attention_mutants.h.
#pragma once

#include <cstdint>
#include <vector>

#include "attention_backward_mutant_policies.h"
#include "attention_mutant_policies.h"

namespace osvs::test {

struct Mutant {
  const char* name;
  void (*run)(const AttentionProblem&);
  /// The fewest query heads that show the defect: 2 unless it needs more.
  int min_heads_q = 2;
  /// The first law (in the table's order) that must kill it (or one of several, space-separated),
  /// and another law that must kill it too, or null.
  const char* killed_by = nullptr;
  const char* also_killed_by = nullptr;
  /// The most keys a sequence of its shrunk case may need.
  std::int64_t max_keys = 8;
};

/// The forward kernel's catalogue, each mutant run by Run<Policy>::run.
template <template <class> class Run>
std::vector<Mutant> attention_mutants() {
  return {
      {"window_left_off_by_one", Run<WindowLeftOffByOne>::run},
      {"causal_drops_diagonal", Run<CausalDropsDiagonal>::run},
      {"alignment_swapped", Run<AlignmentSwapped>::run},
      // h % heads_kv and h / group first differ at 2 kv heads with 2 query heads each.
      {"gqa_head_modulo", Run<GqaHeadModulo>::run, 4},
      {"page_table_off_by_one", Run<PageTableOffByOne>::run},
      {"ragged_tail_unmasked", Run<RaggedTailUnmasked>::run},
      {"acc_not_rescaled", Run<AccNotRescaled>::run},
      {"denominator_not_rescaled", Run<DenominatorNotRescaled>::run},
      {"max_overwritten_before_rescale", Run<MaxOverwrittenBeforeRescale>::run},
      {"lse_without_max", Run<LseWithoutMax>::run},
      {"lse_left_in_base_e", Run<LseLeftInBaseE>::run},
      {"empty_row_divides_by_zero", Run<EmptyRowDividesByZero>::run},
      {"masked_value_accumulated", Run<MaskedValueAccumulated>::run},
      {"last_tile_dropped", Run<LastTileDropped>::run},
      {"softcap_before_scale", Run<SoftcapBeforeScale>::run},
      {"sink_left_out_of_lse", Run<SinkLeftOutOfLse>::run},
      {"sinks_ignored", Run<SinksIgnored>::run},
      {"alibi_from_query_index", Run<AlibiFromQueryIndex>::run},
      {"alibi_added", Run<AlibiAdded>::run},
      {"tile_by_batch_position", Run<TileByBatchPosition>::run},
      {"tiles_follow_pages", Run<TilesFollowPages>::run},
      {"split_count_from_batch", Run<SplitCountFromBatch>::run, 2, "batch_invariance",
       "split_invariance"},
      {"unsplit_above_batch", Run<UnsplitAboveBatch>::run, 2, "split_invariance"},
      // Three splits of 4 keys (the smallest declared size): 12 keys (9 where a last split of one
      // key is enough to change a rounding).
      {"partials_in_varying_order", Run<PartialsInVaryingOrder>::run, 2, "poison gqa determinism",
       "determinism", 12},
      {"stale_max_after_prefix", Run<StaleMaxAfterPrefix>::run, 2, "chunked_prefill",
       "prefill_decode"},
      {"page_boundary_read_twice", Run<PageBoundaryReadTwice>::run, 2, "accuracy", "page_layout"},
      // Splits that a chunk's shorter KV prefix cuts elsewhere: a few keys (the catalogue's 8).
      {"split_parameter_as_count", Run<SplitParameterAsCount>::run, 2, "chunked_prefill"},
  };
}

/// The backward kernel's catalogue, each mutant run by Run<Policy>::run.
template <template <class> class Run>
std::vector<Mutant> attention_backward_mutants() {
  return {
      {"delta_from_bf16_o", Run<DeltaFromBf16O>::run, 2, "accuracy"},
      {"dq_missing_scale", Run<DqMissingScale>::run, 2, "accuracy"},
      // Two query heads on one kv head: the first one's terms lost.
      {"gqa_heads_overwrite", Run<GqaHeadsOverwrite>::run, 2, "accuracy gqa"},
      {"mask_forward_only", Run<MaskForwardOnly>::run, 2, "accuracy empty_rows poison"},
      // Three terms on a key tell the orders apart: the first law that compares two runs
      // bitwise. The terms are three rows of one head, or the sums of three query heads of one
      // kv head (two heads' sums add in either order to the same bits): a shrunk case keeps
      // whichever its drawn case had, as the reductions never add rows.
      {"rows_in_varying_order", Run<RowsInVaryingOrder>::run, 3,
       "poison gqa determinism batch_invariance", "determinism"},
      {"softcap_derivative_dropped", Run<SoftcapDerivativeDropped>::run, 2, "accuracy"},
      {"lse_base_two_as_e", Run<LseBaseTwoAsE>::run, 2, "accuracy"},
      {"delta_not_subtracted", Run<DeltaNotSubtracted>::run, 2, "accuracy"},
      {"dsinks_sign_dropped", Run<DsinksSignDropped>::run, 2, "accuracy"},
      // Two sequences whose rows both keep keys: the first one's terms lost.
      {"dsinks_per_sequence", Run<DsinksPerSequence>::run, 2, "accuracy"},
  };
}

}  // namespace osvs::test
