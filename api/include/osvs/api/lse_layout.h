// Where a launch's lse values live: the one layout of the (token, head) lse values that the merge
// kind (merge_kernel.h: MergeProblem::lse_offset) and the attention kind (attention_kernel.h:
// AttentionProblem::lse_offset) hand their kernels.
#pragma once

namespace osvs {

/// Where the lse of (token t, head h) lives, with `tokens` tokens and `heads` heads:
/// [heads, tokens], lse[h * tokens + t] (flash-attention's varlen softmax_lse, vLLM's
/// merge_attn_states), or [tokens, heads], lse[t * heads + h] (FlashInfer's merge_state, osvs's
/// rows).
enum class LseLayout { HeadsTokens, TokensHeads };

/// "[heads, tokens]", "[tokens, heads]".
inline const char* to_string(LseLayout l) {
  return l == LseLayout::TokensHeads ? "[tokens, heads]" : "[heads, tokens]";
}

}  // namespace osvs
