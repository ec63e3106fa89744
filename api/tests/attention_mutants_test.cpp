// The attention mutants on the host (the catalogue and the check: attention_mutants.h).
// The unmutated kernel passes every law (the builtin testbed, osvs_builtin_kernel_tests).
#include <gtest/gtest.h>

#include "attention_mutants.h"
#include "tiled_attention_fp8.h"

namespace osvs::test {
namespace {

template <class P>
struct HostRun {
  static void run(const AttentionProblem& p) { builtin::tiled_attention<P>(p); }
};

OSVS_ATTENTION_MUTANT_SUITE(AttentionMutant, attention_mutants<HostRun>(),
                            [](const Mutant& m) { expect_killed_small(m, Where::Host); });

// The fp8 kernel (tiled_attention_fp8.h, declared fp8 only) with K's and V's scales swapped: a
// defect no case of the in type shows, so a mutant of the fp8 declaration, not of the catalogue's
// (whose declaration takes no fp8). The accuracy law kills it (k_scale != v_scale moves the
// scores or the values); the shrunk case keeps its fp8 K/V (the only cases the declaration takes)
// and a scale other than 1 (a reduction to both 1 passes: the swap is then no change).
TEST(AttentionFp8Mutant, ScalesSwappedIsKilledAndShrunkSmall) {
  expect_killed_small({"kv_scales_swapped", HostRun<KvScalesSwapped>::run, 2, "accuracy"},
                      Where::Host, builtin::declare_tiled_attention_fp8);
}

}  // namespace
}  // namespace osvs::test
