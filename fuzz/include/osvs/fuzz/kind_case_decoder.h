// Fuzzer bytes decoded into a case of each kind (osvs/api/kind.h), shaped by the kernel's
// declaration and the law, as the law runs' generators shape theirs (api/testbed/kind_cases.h):
// every byte string decodes (ByteReader gives zeros past the end); the values come from
// decode_float, so specials, ties and subnormals are a mutation away. Adding a kind adds its
// overload here.
#pragma once

#include "osvs/api/kind.h"
#include "osvs/fuzz/byte_reader.h"

namespace osvs::fuzz {

/// 1 ... 3 rows of 0 ... 64 elements exact in k's input type; a rotated (maybe reversed)
/// permutation, a shift, a batch position and row padding where the law reads them.
RowCase decode_case(ByteReader& in, const RowKernel& k, const RowLaw& law);

/// 2 ... 6 partials of 1 ... 4 rows, a head_dim k takes (at most 16 when it takes one), an o type
/// and lse base it declares, tree choices and a launch shape (fitted to k: merge_laws.h fit_to);
/// lse and o mapped into the domain the merge laws are stated on (the generators' ranges:
/// lse -inf or |lse| <= 2^40, o finite with 2^-18 <= |o| <= 2^16 or 0), the special values being
/// the special_values law's own to inject.
MergeCase decode_case(ByteReader& in, const MergeKernel& k, const MergeLaw& law);

/// 1 ... 3 sequences of up to 4 queries and 8 keys, the heads, head_dim, in type, mask, lse base
/// and pages k declares (pages in a decoded order, spare ones too); q, k and v finite with
/// |x| <= 2^6 (0 below 2^-18), as the law runs' generator draws them.
AttentionCase decode_case(ByteReader& in, const AttentionKernel& k, const AttentionLaw& law);

/// Up to 64 elements from decode_float, clamped into k's declared domain (finite, |x| <=
/// max_abs); one chunk for accuracy (and for special_values, which fuzz runs never pick: a
/// single-case law), else 1 ... 8 chunks under random_schedule with the input's choices.
ReductionCase decode_case(ByteReader& in, const ReductionKernel& k, const ReductionLaw& law);

/// 1 ... 3 rows of 1 ... 64 elements of each input, from decode_float, exact in k's input types
/// (specials included); row 0 masked for empty_rows, a permutation, a batch position and row
/// paddings where the law reads them.
RowwiseCase decode_case(ByteReader& in, const RowwiseKernel& k, const RowwiseLaw& law);

/// The states laws: 2 ... 32 states (even: commutativity takes pairs) from decode_state; the
/// row laws: a row of up to 64 finite elements from decode_float (non-finite ones become 0, as
/// the laws' generators draw finite rows) under a warp's schedule (warp_reduce: 32 chunks) or
/// two random schedules (tree_invariance: 1 ... kMaxChunks chunks each).
CombineCase decode_case(ByteReader& in, const CombineKernel& k, const CombineLaw& law);

}  // namespace osvs::fuzz
