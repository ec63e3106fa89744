// The exact attention gradients' two paths (attention_backward_reference.h): the fast one in
// double (attention_backward_fast.cpp) and MPFR interval arithmetic (attention_backward_mpfr.cpp),
// and what both start from (attention_backward_reference.cpp).
#pragma once

#include <cstdint>
#include <optional>

#include "osvs/oracle/attention_backward_reference.h"

namespace osvs::oracle::detail {

inline bool keeps(const AttentionBackwardGroup& g, std::int64_t r, std::int64_t j) {
  return g.masked == nullptr || g.masked[r * g.kv_len + j] == 0;
}

/// The result's shape: kept and attended counted, `finite` decided (the header's rule), and, when
/// finite, every output and magnitude sized and set to 0 (the value of a row that keeps no key
/// and of a key that no row keeps).
AttentionBackwardReference backward_outline(const AttentionBackwardGroup& g);

/// The gradients in double with their certified bound (attention_backward_fast.cpp), filling an
/// outline that is finite; false, leaving it in an unspecified state, when the group is outside
/// the path's reach (a softcap) or its bound exceeds kBackwardFastError.
bool attention_backward_fast(const AttentionBackwardGroup& g, int workers,
                             AttentionBackwardReference& r);

/// The largest `error` the fast path reports.
inline constexpr double kBackwardFastError = 0x1p-40;

}  // namespace osvs::oracle::detail
