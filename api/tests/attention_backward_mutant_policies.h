// The attention backward mutants' policies: osvs's attention backward kernel
// (TiledAttentionBackward, api/builtin/tiled_attention_backward_elements.h) with one member
// overridden each, each a bug backward kernels have had. The catalogue is
// attention_mutant_catalogue.h, the check attention_backward_mutants.h.
#pragma once

#include "osvs/mutation/one_member_mutant.h"
#include "tiled_attention_backward_elements.h"

namespace osvs::test {

using builtin::TiledAttentionBackward;

// delta from o rounded to bf16 where o is f32 (a preprocessing pass that stages o in a half
// type): off by up to 2^-8 of sum_c |dout_c o_c|, far outside an f32 contract.
OSVS_ONE_MEMBER_MUTANT(DeltaFromBf16O, TiledAttentionBackward, delta_from_bf16_o, true);
// dq = sum_j dS_j k_j without the softmax scale (dk keeps it): wrong wherever scale != 1.
OSVS_ONE_MEMBER_MUTANT(DqMissingScale, TiledAttentionBackward, dq_scaled, false);
// dk and dv of a kv head are the last query head's, not the sum over its group (each head's
// block writes where it should add).
OSVS_ONE_MEMBER_MUTANT(GqaHeadsOverwrite, TiledAttentionBackward, gqa_heads_summed, false);
// The mask applied in the forward only: P = e^(s - lse) for every key, masked ones too (and a row
// that keeps no key divides nothing but meets lse = -inf).
OSVS_ONE_MEMBER_MUTANT(MaskForwardOnly, TiledAttentionBackward, mask_in_backward, false);
// Accurate, but dk and dv summed over the rows in reverse order every other launch, as float
// atomics land in an order of their own: with three rows or more on a key, two runs differ.
OSVS_ONE_MEMBER_MUTANT(RowsInVaryingOrder, TiledAttentionBackward, rows_in_varying_order, true);
// The softcap's derivative 1 - tanh^2 left out of dS.
OSVS_ONE_MEMBER_MUTANT(SoftcapDerivativeDropped, TiledAttentionBackward, softcap_derivative, false);
// A base-2 lse used as a base-e one: P = e^(s - lse2).
OSVS_ONE_MEMBER_MUTANT(LseBaseTwoAsE, TiledAttentionBackward, lse_base_two_read, false);
// dS = P dP, delta never subtracted (the softmax Jacobian's rank-one term dropped).
OSVS_ONE_MEMBER_MUTANT(DeltaNotSubtracted, TiledAttentionBackward, delta_subtracted, false);
// The sinks' gradient with its sign dropped: + sum P_sink delta (the derivative of the
// denominator's term taken for the numerator's).
OSVS_ONE_MEMBER_MUTANT(DsinksSignDropped, TiledAttentionBackward, dsinks_negated, false);
// Each sequence's rows overwrite the sinks' gradient instead of adding to it (a block a sequence
// that stores where it should add): the last sequence's sum alone.
OSVS_ONE_MEMBER_MUTANT(DsinksPerSequence, TiledAttentionBackward, dsinks_over_batch, false);

}  // namespace osvs::test
