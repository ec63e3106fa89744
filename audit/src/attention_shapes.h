// The realistic shapes of the audit's attention section: problems the size engines run (a varlen
// causal prefill with GQA and head_dim 64, a sliding window, a batch of paged decode steps over a
// few hundred keys),
// fitted to what a kernel declares, with Gaussian q, k and v as trained models have them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/api/attention_case.h"

namespace osvs::audit {

struct NamedAttentionCase {
  std::string name;  ///< "prefill bf16", "sliding window f32", "decode f16"
  AttentionCase c;
};

/// The realistic shapes k takes, each in every in type it declares, fitted to its declaration
/// (GQA or not, its head_dims, pages where it reads them, equal lengths when it is not varlen,
/// square masked sequences where it needs them); a masked shape is left out where k does not
/// have that mask, and any shape its declaration does not take. Values from `seed` and the
/// shape's name only, so that two kernels with the same declaration get the same cases.
std::vector<NamedAttentionCase> realistic_attention_cases(const AttentionKernel& k,
                                                          std::uint64_t seed);

}  // namespace osvs::audit
