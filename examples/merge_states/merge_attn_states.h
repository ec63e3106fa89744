// A merge of attention partials written the way serving engines write theirs (vLLM's
// merge_attn_states, FlashInfer's merge_state): after split-KV attention, each (token, head) has
// a prefix partial and a suffix partial (o normalised, lse = log of the softmax denominator) and
// the merge is
//
//   m = max(lse_p, lse_s),  w_p = b^(lse_p - m) / (b^(lse_p - m) + b^(lse_s - m)),  w_s likewise
//   o = o_p w_p + o_s w_s,  lse = m + log_b(b^(lse_p - m) + b^(lse_s - m))
//
// one thread per (token, head, pack of 4 components). Its conventions: lse in base e, or base 2
// (exp2 / log2) when lse_base2; an empty partial has lse -inf and its o is never read (two empty
// ones give lse -inf, o +0); a NaN or +inf lse gives the canonical NaN row.
#pragma once

#include <cstdint>

namespace example {

/// Layout of FlashInfer's merge_state: o [num_tokens][num_heads][head_size], lse
/// [num_tokens][num_heads], f32. On the device; stream is a cudaStream_t.
void merge_attn_states(float* output, float* output_lse, const float* prefix_output,
                       const float* prefix_lse, const float* suffix_output, const float* suffix_lse,
                       std::int64_t num_tokens, int num_heads, int head_size, bool lse_base2,
                       void* stream);

/// The same merge on the host, pack after pack (stream ignored).
void merge_attn_states_host(float* output, float* output_lse, const float* prefix_output,
                            const float* prefix_lse, const float* suffix_output,
                            const float* suffix_lse, std::int64_t num_tokens, int num_heads,
                            int head_size, bool lse_base2, void* stream);

}  // namespace example
