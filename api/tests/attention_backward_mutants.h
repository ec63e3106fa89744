// The attention backward mutants: osvs's attention backward kernel
// (api/builtin/tiled_attention_backward.h) with one defect each, as policies of the same code,
// under the attention laws as a registered backward kernel would be, by the forward mutants'
// check (attention_mutants.h's Mutant and expect_killed_small, with the backward's declaration):
// every mutant killed by some law (the one it names first, where it names one), each
// counterexample shrunk to at most 2 sequences, 8 keys, head_dim 4, 2 kv heads and 2 query heads
// (3 for the defect an order of three terms shows).
#pragma once

#include <vector>

#include "attention_backward_mutant_policies.h"
#include "attention_mutants.h"
#include "tiled_attention_backward.h"

namespace osvs::test {

/// The catalogue, each mutant run by Run<Policy>::run.
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
