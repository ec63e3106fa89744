// The attention mutants on the host (the catalogue and the check: attention_mutants.h).
// The unmutated kernel passes every law (the builtin testbed, osvs_builtin_kernel_tests).
#include <gtest/gtest.h>

#include "attention_mutants.h"

namespace osvs::test {
namespace {

template <class P>
struct HostRun {
  static void run(const AttentionProblem& p) { builtin::tiled_attention<P>(p); }
};

class AttentionMutant : public ::testing::TestWithParam<Mutant> {};

TEST_P(AttentionMutant, IsKilledAndShrunkSmall) {
  expect_killed_small(GetParam(), Where::Host);
}

INSTANTIATE_TEST_SUITE_P(Catalogue, AttentionMutant,
                         ::testing::ValuesIn(attention_mutants<HostRun>()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace osvs::test
