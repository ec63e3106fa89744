// What the attention laws share (attention_laws.cpp defines them): running a kernel with its
// empty-row lse read as osvs's, comparing outputs bit for bit under its conventions, judging
// outputs against the contract, and naming an element in a message. Internal to api/src.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/api/attention_laws.h"

namespace osvs::attention_law_parts {

/// k's outputs on c with its empty-row lse read as -inf (osvs's convention).
AttentionOutputs run(const AttentionKernel& k, const AttentionCase& c, const AttentionFill& f = {});

/// a and b hold the same bits, under k's conventions (any NaN; either zero sign).
bool same(float a, float b, const ValueConventions& v);

/// The first element where two runs' outputs on case c differ (o, lse, dq, dk, dv, delta), or "".
std::string first_difference(const AttentionOutputs& a, const AttentionOutputs& b,
                             const AttentionCase& c, const ValueConventions& v);

/// The accuracy law's verdict on k's outputs `out` for c: every element within its contract.
Verdict accuracy_of(const AttentionKernel& k, const AttentionCase& c, const AttentionOutputs& out);

}  // namespace osvs::attention_law_parts

namespace osvs::attention_across_calls {

// The laws across calls (attention_laws_across_calls.cpp): each a plain check of one case.
Verdict check_batch_invariance(const AttentionKernel& k, const AttentionCase& c);
Verdict check_page_layout(const AttentionKernel& k, const AttentionCase& c);
Verdict check_split_invariance(const AttentionKernel& k, const AttentionCase& c);
Verdict check_chunked_prefill(const AttentionKernel& k, const AttentionCase& c);
Verdict check_prefill_decode(const AttentionKernel& k, const AttentionCase& c);
Verdict check_cascade(const AttentionKernel& k, const AttentionCase& c);  // attention_cascade_law

// Why k's declaration rules a law across calls out, "" when it takes part.
std::string excluded_without_pages(const AttentionKernel& k);
std::string excluded_without_splits(const AttentionKernel& k);
std::string excluded_without_chunks(const AttentionKernel& k);
std::string excluded_without_decode(const AttentionKernel& k);
std::string excluded_without_cascade(const AttentionKernel& k);

}  // namespace osvs::attention_across_calls
