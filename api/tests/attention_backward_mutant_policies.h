// The attention backward mutants' policies: osvs's attention backward kernel
// (TiledAttentionBackward, api/builtin/tiled_attention_backward_elements.h) with one member
// overridden each, each a bug backward kernels have had. The catalogue is
// attention_mutant_catalogue.h, the check attention_backward_mutants.h.
#pragma once

#include "osvs/mutation/one_member_mutant.h"
#include "tiled_attention_backward_elements.h"

namespace osvs::test {

using builtin::TiledAttentionBackward;

/// The backward kernel's mutants, in the catalogue's order, one row each, which both declares the
/// policy (below) and puts it in the catalogue (attention_mutant_catalogue.h):
/// X(Policy, member, value, name, expectations...), as OSVS_TILED_ATTENTION_MUTANTS's rows
/// (attention_mutant_policies.h) with TiledAttentionBackward.
#define OSVS_TILED_ATTENTION_BACKWARD_MUTANTS(X)                                                  \
  /* delta from o rounded to bf16 where o is f32 (a preprocessing pass that stages o in a half    \
     type): off by up to 2^-8 of sum_c |dout_c o_c|, far outside an f32 contract. */              \
  X(DeltaFromBf16O, delta_from_bf16_o, true, delta_from_bf16_o, 2, "accuracy")                    \
  /* dq = sum_j dS_j k_j without the softmax scale (dk keeps it): wrong wherever scale != 1. */   \
  X(DqMissingScale, dq_scaled, false, dq_missing_scale, 2, "accuracy")                            \
  /* dk and dv of a kv head are the last query head's, not the sum over its group (each head's    \
     block writes where it should add): with two query heads on one kv head, the first one's      \
     terms lost. */                                                                               \
  X(GqaHeadsOverwrite, gqa_heads_summed, false, gqa_heads_overwrite, 2, "accuracy gqa")           \
  /* The mask applied in the forward only: P = e^(s - lse) for every key, masked ones too (and a  \
     row that keeps no key divides nothing but meets lse = -inf). */                              \
  X(MaskForwardOnly, mask_in_backward, false, mask_forward_only, 2, "accuracy empty_rows poison") \
  /* Accurate, but dk and dv summed over the rows in reverse order every other launch, as float   \
     atomics land in an order of their own: with three rows or more on a key, two runs differ.    \
     Three terms on a key tell the orders apart: the first law that compares two runs bitwise.    \
     The terms are three rows of one head, or the sums of three query heads of one kv head (two   \
     heads' sums add in either order to the same bits): a shrunk case keeps whichever its drawn   \
     case had, as the reductions never add rows. */                                               \
  X(RowsInVaryingOrder, rows_in_varying_order, true, rows_in_varying_order, 3,                    \
    "poison gqa determinism batch_invariance", "determinism")                                     \
  /* The softcap's derivative 1 - tanh^2 left out of dS. */                                       \
  X(SoftcapDerivativeDropped, softcap_derivative, false, softcap_derivative_dropped, 2,           \
    "accuracy")                                                                                   \
  /* A base-2 lse used as a base-e one: P = e^(s - lse2). */                                      \
  X(LseBaseTwoAsE, lse_base_two_read, false, lse_base_two_as_e, 2, "accuracy")                    \
  /* dS = P dP, delta never subtracted (the softmax Jacobian's rank-one term dropped). */         \
  X(DeltaNotSubtracted, delta_subtracted, false, delta_not_subtracted, 2, "accuracy")             \
  /* The sinks' gradient with its sign dropped: + sum P_sink delta (the derivative of the         \
     denominator's term taken for the numerator's). */                                            \
  X(DsinksSignDropped, dsinks_negated, false, dsinks_sign_dropped, 2, "accuracy")                 \
  /* Each sequence's rows overwrite the sinks' gradient instead of adding to it (a block a        \
     sequence that stores where it should add): the last sequence's sum alone; two sequences      \
     whose rows both keep keys show it. */                                                        \
  X(DsinksPerSequence, dsinks_over_batch, false, dsinks_per_sequence, 2, "accuracy")

#define OSVS_TILED_ATTENTION_BACKWARD_POLICY(Policy, member, value, ...) \
  OSVS_ONE_MEMBER_MUTANT(Policy, TiledAttentionBackward, member, value);
OSVS_TILED_ATTENTION_BACKWARD_MUTANTS(OSVS_TILED_ATTENTION_BACKWARD_POLICY)
#undef OSVS_TILED_ATTENTION_BACKWARD_POLICY

}  // namespace osvs::test
