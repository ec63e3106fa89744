// The mutant list: every combine mutant and kernel mutation once, the large-index one last, and
// exactly the device-only mutations skipped on the CPU model.
#include <gtest/gtest.h>

#include <set>

#include "osvs/mutation/mutants.h"

namespace osvs::mutation {
namespace {

TEST(Mutants, EveryMutantOnceLargeIndexLast) {
  const auto mutants = all_mutants();
  ASSERT_EQ(mutants.size(), std::size(kMutantCombines) + std::size(kAllKernelMutations) +
                                std::size(kFastKernelMutations));
  std::set<std::string> names;
  for (const Mutant& m : mutants) {
    EXPECT_TRUE(names.insert(m.name).second) << "duplicate " << m.name;
    EXPECT_FALSE(m.bug.empty()) << m.name;
    EXPECT_EQ(m.configuration.kernel, mutated_kernel(m.configuration.mutation)) << m.name;
    // A combine mutant changes only the operator, a kernel mutant only the kernel.
    EXPECT_EQ(m.combine_level, m.configuration.mutation == KernelMutation::None) << m.name;
    EXPECT_EQ(m.combine_level, original_of(m.configuration.combine) != m.configuration.combine)
        << m.name;
  }
  EXPECT_TRUE(needs_large_index_check(mutants.back()));
  for (std::size_t i = 0; i + 1 < mutants.size(); ++i)
    EXPECT_FALSE(needs_large_index_check(mutants[i])) << mutants[i].name;
}

TEST(Mutants, CpuSkipsExactlyTheDeviceOnlyMutations) {
  const auto cpu = make_cpu_executor();
  for (const Mutant& m : all_mutants()) {
    const auto why = skip_reason(m, *cpu);
    EXPECT_EQ(why.has_value(), !modelled_on_cpu(m.configuration.mutation)) << m.name;
    if (why) {
      EXPECT_NE(why->find(m.name), std::string::npos) << *why;
    }
  }
}

}  // namespace
}  // namespace osvs::mutation
