// The mutant list: every combine mutant and kernel mutant once, the large-index one last, and
// exactly the device-only kernel mutants skipped on the CPU model.
#include <gtest/gtest.h>

#include <set>

#include "osvs/kernels/softmax_mutants.h"
#include "osvs/mutation/mutants.h"

namespace osvs::mutation {
namespace {

TEST(Mutants, EveryMutantOnceLargeIndexLast) {
  const auto mutants = all_mutants();
  ASSERT_EQ(mutants.size(), std::size(kMutantCombines) + kernel_mutants().size());
  std::set<std::string> names;
  for (const Mutant& m : mutants) {
    EXPECT_TRUE(names.insert(m.name).second) << "duplicate " << m.name;
    EXPECT_FALSE(m.bug.empty()) << m.name;
    // A combine mutant changes only the operator (on the 2-pass kernel), a kernel mutant only
    // the kernel (its original, with the hardened combine), and names itself in its cases.
    EXPECT_EQ(m.combine_level, m.kernel == nullptr) << m.name;
    EXPECT_EQ(m.combine_level, m.configuration.mutant.empty()) << m.name;
    if (m.kernel) {
      EXPECT_EQ(m.configuration.mutant, m.name);
      EXPECT_EQ(m.configuration.kernel, m.kernel->entry.original) << m.name;
      EXPECT_EQ(m.configuration.combine, CombineKind::Hardened) << m.name;
      EXPECT_EQ(&find_softmax_mutant(m.name), &m.kernel->entry) << m.name;  // registered
    } else {
      EXPECT_EQ(m.configuration.kernel, KernelKind::TwoPass) << m.name;
    }
    EXPECT_EQ(m.combine_level, original_of(m.configuration.combine) != m.configuration.combine)
        << m.name;
  }
  EXPECT_TRUE(needs_large_index_check(mutants.back()));
  for (std::size_t i = 0; i + 1 < mutants.size(); ++i)
    EXPECT_FALSE(needs_large_index_check(mutants[i])) << mutants[i].name;
}

TEST(Mutants, CpuSkipsExactlyTheDeviceOnlyMutants) {
  // A race, a read of unwritten shared memory and a 2^31-element batch: only the device has them.
  const std::set<std::string> device_only = {
      "no_sync_before_shared_stage", "no_sync_before_broadcast", "no_lane_guard", "int32_index"};
  const auto cpu = make_cpu_executor();
  for (const Mutant& m : all_mutants()) {
    const auto why = skip_reason(m, *cpu);
    EXPECT_EQ(why.has_value(), device_only.count(m.name) == 1) << m.name;
    if (why) {
      EXPECT_NE(why->find(m.name), std::string::npos) << *why;
    }
  }
}

}  // namespace
}  // namespace osvs::mutation
