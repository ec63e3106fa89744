// The bitwise comparisons of the tiled attention kernels' tests: two executors, or two orders of
// one, give the same floats.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "osvs/api/attention_case.h"
#include "osvs/api/attention_runner.h"
#include "osvs/api/kind.h"

namespace osvs::test {

/// Whether two arrays hold the same floats bit for bit (two empty arrays do; memcmp is not given
/// an empty vector's data, which may be null).
inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

/// Whether two launches wrote the same bits in every output (forward and backward alike: the
/// outputs a launch does not write are empty in both).
inline bool same_outputs(const AttentionOutputs& a, const AttentionOutputs& b) {
  return same_bits(a.o, b.o) && same_bits(a.lse, b.lse) && same_bits(a.dq, b.dq) &&
         same_bits(a.dk, b.dk) && same_bits(a.dv, b.dv) && same_bits(a.delta, b.delta) &&
         same_bits(a.dsinks, b.dsinks);
}

/// Runs `want` and `got` on every case, each declaring the case's mask alignment, and expects
/// the same bits in every output, naming each case that differs and how many do.
inline void expect_same_bits_on_every_case(AttentionKernel want, AttentionKernel got,
                                           const std::vector<AttentionCase>& cases) {
  int differ = 0;
  for (std::size_t n = 0; n < cases.size(); ++n) {
    want.mask_align(cases[n].mask.align);
    got.mask_align(cases[n].mask.align);
    const bool same =
        same_outputs(run_attention_kernel(got, cases[n]), run_attention_kernel(want, cases[n]));
    differ += !same;
    EXPECT_TRUE(same) << "case " << n << ": " << AttentionKind::summary(cases[n]);
  }
  EXPECT_EQ(differ, 0) << differ << " of " << cases.size() << " cases differ in some bit";
}

}  // namespace osvs::test
