// Generators of attention cases: partial states (lse, o) to merge, and split-KV decode problems
// with split plans (empty splits included), merge trees and key permutations. Sizes grow with
// RapidCheck's size; values are small integers times powers of two, so they shrink toward simple
// cases (fewer keys, smaller head_dim, 0 and 1).
#pragma once

#include <rapidcheck.h>

#include "osvs/properties/attention/attention_laws.h"

namespace osvs::gen {

/// head_dim in 1 .. 256: the vector-width edges (1, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255,
/// 256) and any value between.
rc::Gen<int> attn_head_dim();

/// A value exactly representable in t: an integer in [-1024, 1024] times 2^(e - 10), e in
/// [min_exp, max_exp]; sometimes +-0.
rc::Gen<float> attn_value(DType t, int min_exp, int max_exp);

/// An lse: -inf (an empty partial), small integers (ties), values in [-100, 100], or far out.
rc::Gen<float> attn_lse();

/// Three to six partials of one shape (1 .. 4 rows, a head_dim of `head_dim`, any o type), tree
/// choices, and how a black-box kernel is handed them (MergeShape: heads a divisor of the rows,
/// sometimes padded heads and tokens; drawn last, so the partials are those of the same seed
/// without it).
rc::Gen<MergeCase> merge_case(rc::Gen<int> head_dim = attn_head_dim());

/// A decode problem (1 .. 2 batches, 1 .. 2 heads, kv_len 0 .. 1000 (longer with narrower heads),
/// masks none / random / a fully masked batch / a masked prefix, tied keys), two plans and a
/// permutation of the keys.
rc::Gen<DecodeCase> decode_case();

}  // namespace osvs::gen

#include "osvs/properties/gen/attention.hpp"
