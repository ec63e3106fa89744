#include "merge_attn_states.h"
#include "merge_pack.h"

namespace example {

void merge_attn_states_host(float* output, float* output_lse, const float* prefix_output,
                            const float* prefix_lse, const float* suffix_output,
                            const float* suffix_lse, std::int64_t num_tokens, int num_heads,
                            int head_size, bool lse_base2, void*) {
  for (std::int64_t row = 0; row < num_tokens * num_heads; ++row)
    for (int first = 0; first < head_size; first += kPack)
      merge_pack(output, output_lse, prefix_output, prefix_lse, suffix_output, suffix_lse, row,
                 head_size, first, lse_base2);
}

}  // namespace example
