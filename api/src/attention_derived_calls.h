// The calls an attention law across calls derives from a case (docs/semantics.md §9): pieces of
// its sequences (some queries against some of their keys) as a batch of their own, and where
// each row of the case went. Internal to api/src (attention_laws_across_calls.cpp,
// attention_cascade_law.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "osvs/api/attention_case.h"

namespace osvs::attention_derived_calls {

/// What a derived call takes of sequence `seq` of the given case: its queries [q_begin, q_end)
/// against its keys [k_begin, k_begin + k_len).
struct SequencePart {
  std::size_t seq;
  std::int64_t q_begin, q_end, k_len;
  std::int64_t k_begin = 0;
};

/// c's sequences whole, in `order` (any subset in any order).
std::vector<SequencePart> whole(const AttentionCase& c, const std::vector<std::size_t>& order);

/// The parts of c's sequences as a batch of their own: their tokens copied, pages (when paged)
/// in a fresh identity order without spare pages.
AttentionCase with_parts(const AttentionCase& c, const std::vector<SequencePart>& parts);

/// For each row of c, its row in with_parts(c, parts), or -1 where no part holds its query.
std::vector<std::int64_t> rows_in(const AttentionCase& c, const std::vector<SequencePart>& parts);

/// For each (key token, kv head) row of c, its row in with_parts(c, parts), or -1 where no part
/// holds its key (the rows of a backward kernel's dk and dv).
std::vector<std::int64_t> key_rows_in(const AttentionCase& c,
                                      const std::vector<SequencePart>& parts);

/// Each row of c its own.
std::vector<std::int64_t> same_positions(const AttentionCase& c);

}  // namespace osvs::attention_derived_calls
