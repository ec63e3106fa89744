// The fast path of the exact attention (attention_reference.h): double-double arithmetic with a
// certified error bound on every output, in place of MPFR wherever that bound decides the
// rounding. Its error analysis is beside its code (attention_fast.cpp).
#pragma once

#include <optional>

#include "osvs/oracle/attention_reference.h"

namespace osvs::oracle::detail {

/// The exact attention of one query, every output certified by double-double arithmetic, or
/// nothing when the query is outside the path's reach (no kept key, a NaN or inf in q or a kept
/// k, a softcap, a sink without keys) or when its bound cannot decide an output's rounding or
/// cannot promise attention_reference.h's accuracy of the doubles: the caller then asks MPFR.
std::optional<AttentionReference> attention_reference_fast(const AttentionQuery& query);

/// x rounded to type t (round to nearest, ties to even; t's subnormals; +-inf past its largest
/// finite value plus half an ulp), directly from the double: never through another type.
float round_double_to(double x, DType t);

}  // namespace osvs::oracle::detail
