// The attention backward mutants on the host (the catalogue: attention_mutant_catalogue.h; the
// check: attention_backward_mutants.h), after the unmutated kernel passes every law that judges it.
#include <gtest/gtest.h>

#include "attention_backward_mutants.h"

namespace osvs::test {
namespace {

template <class P>
struct HostBackwardRun {
  static void run(const AttentionProblem& p) { builtin::tiled_attention_backward<P>(p); }
};

// The unmutated kernel passes every law that judges it (accuracy, empty_rows, poison, gqa,
// determinism, batch_invariance for a backward kernel): without it a mutant's kill could be the
// laws' (a law that runs a backward kernel as a forward sees every kernel throw).
TEST(AttentionBackwardOriginal, PassesEveryLaw) {
  const AttentionKernel k = builtin::declare_tiled_attention_backward(
      "osvs.attention_backward.original", HostBackwardRun<builtin::TiledAttentionBackward>::run);
  EXPECT_GE(expect_every_law_holds(k), 6);
}

OSVS_ATTENTION_MUTANT_SUITE(AttentionBackwardMutant, attention_backward_mutants<HostBackwardRun>(),
                            [](const Mutant& m) { expect_backward_killed_small(m, Where::Host); });

}  // namespace
}  // namespace osvs::test
