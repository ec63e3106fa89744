// The attention case the tests build by hand: one sequence, its q, k and v written out.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "osvs/api/attention_case.h"

namespace osvs::test {

/// One sequence of lq queries over lk keys, head_dim d for q.k and for v, with q, k and v as
/// given ((token, head, component), f32); the rest of the case (heads, mask, dout, ...) at its
/// defaults, for the test to set.
inline AttentionCase one_sequence(std::int64_t lq, std::int64_t lk, int d, std::vector<float> q,
                                  std::vector<float> k, std::vector<float> v) {
  AttentionCase c;
  c.seqs = {{lq, lk}};
  c.head_dim_qk = c.head_dim_v = d;
  c.q = std::move(q);
  c.k = std::move(k);
  c.v = std::move(v);
  return c;
}

}  // namespace osvs::test
