// The kernel mutants as policies and entries: each policy changes exactly one member of the order
// as written, each mutant the CPU model replays changes what the model computes, the device-only
// ones have no CPU model, a mutant runs only in place of its original kernel, and the registry
// holds each once.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "osvs/kernels/fast_plan.h"
#include "osvs/kernels/hd.h"
#include "osvs/kernels/softmax_mutants.h"
#include "osvs/kernels/validate.h"
#include "osvs/mutation/block_schedule_mutants.h"
#include "osvs/mutation/fast_schedule_mutants.h"
#include "osvs/mutation/kernel_mutants.h"

namespace osvs::mutation {
namespace {

/// The members of Schedule that differ from BlockSchedule's.
template <class Schedule>
constexpr int changed_members_of_block_schedule() {
  using W = BlockSchedule;
  return (Schedule::kFirstShuffleOffset != W::kFirstShuffleOffset) +
         (Schedule::kShuffleDown != W::kShuffleDown) +
         (Schedule::kSyncBeforeSharedStage != W::kSyncBeforeSharedStage) +
         (Schedule::kSyncBeforeBroadcast != W::kSyncBeforeBroadcast) +
         (Schedule::kLaneGuard != W::kLaneGuard) +
         (Schedule::kDivideByRowState != W::kDivideByRowState) +
         (Schedule::kLoopToRowEnd != W::kLoopToRowEnd) +
         !std::is_same_v<typename Schedule::Index, W::Index>;
}

/// The members of Schedule that differ from FastSchedule's.
template <class Schedule>
constexpr int changed_members_of_fast_schedule() {
  using W = FastSchedule;
  return (Schedule::kMergeAllChunks != W::kMergeAllChunks) + (Schedule::kLoadTail != W::kLoadTail) +
         (Schedule::kMergeInReductionOrder != W::kMergeInReductionOrder);
}

/// The members of Schedule that differ from those of the order as written it derives from.
template <class Schedule>
constexpr int changed_members() {
  if constexpr (std::is_base_of_v<FastSchedule, Schedule>)
    return changed_members_of_fast_schedule<Schedule>();
  else
    return changed_members_of_block_schedule<Schedule>();
}

TEST(KernelMutants, EachPolicyChangesOneMemberOfTheOrderAsWritten) {
  EXPECT_EQ(changed_members<BlockSchedule>(), 0);
  EXPECT_EQ(changed_members<FastSchedule>(), 0);
#define OSVS_EXPECT_ONE_MEMBER_CHANGED(Policy, ...) \
  EXPECT_EQ(changed_members<Policy>(), 1) << #Policy;
  OSVS_TWO_PASS_ONE_MEMBER_MUTANTS(OSVS_EXPECT_ONE_MEMBER_CHANGED)
  OSVS_FAST_MUTANTS(OSVS_EXPECT_ONE_MEMBER_CHANGED)
#undef OSVS_EXPECT_ONE_MEMBER_CHANGED
  EXPECT_EQ(changed_members<Int32Index>(), 1);
}

std::vector<float> normal_rows(std::int64_t rows, std::int64_t cols, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 10.0f);
  std::vector<float> x(static_cast<std::size_t>(rows * cols));
  for (float& v : x) v = normal(rng);
  return x;
}

/// Outputs of `a` and `b` whose bits differ.
std::size_t differing_outputs(const SoftmaxResult& a, const SoftmaxResult& b) {
  std::size_t differ = 0;
  for (std::size_t j = 0; j < a.y.size() && j < b.y.size(); ++j)
    differ += float_bits(a.y[j]) != float_bits(b.y[j]);
  return differ;
}

TEST(KernelMutants, EachTwoPassMutantTheModelReplaysChangesTheResult) {
  const auto cpu = make_cpu_executor();
  // 700 columns on 256 threads: lanes 16..31 hold values and warps hold different states; the
  // last element of each row is its maximum, so that leaving it out moves every output.
  SoftmaxBatch b{KernelKind::TwoPass, CombineKind::Hardened, 256, 2, 700, normal_rows(2, 700, 3)};
  b.x[699] = b.x[1399] = 60.0f;
  const SoftmaxResult ok = cpu->softmax(b);
  int replayed = 0;
  for (const KernelMutant* m : kernel_mutants()) {
    if (m->entry.original != KernelKind::TwoPass || m->entry.kernel.model == nullptr) continue;
    ++replayed;
    EXPECT_GT(differing_outputs(ok, mutant_executor(*cpu, m->entry)->softmax(b)), 0u)
        << m->entry.name;
  }
  EXPECT_EQ(replayed, 4);  // shuffle_from_offset_8, shuffle_up, per_warp_divisor, skip_last_element
}

TEST(KernelMutants, EachFastMutantChangesTheResult) {
  const auto cpu = make_cpu_executor();
  // a cluster row and a split row, both with n % 4 != 0
  for (std::int64_t n : {3 * kFastChunkElems + 5, kFastClusterRowMax + 2 * kFastChunkElems + 5}) {
    std::vector<float> x = normal_rows(1, n, 12);
    x[static_cast<std::size_t>(n - 2)] = 60.0f;  // the row's maximum in the last part, in the tail
    const SoftmaxBatch b{KernelKind::Fast, CombineKind::Hardened, 256, 1, n, x};
    const SoftmaxResult ok = cpu->softmax(b);
    int fast = 0;
    for (const KernelMutant* m : kernel_mutants()) {
      if (m->entry.original != KernelKind::Fast) continue;
      ++fast;
      EXPECT_GT(differing_outputs(ok, mutant_executor(*cpu, m->entry)->softmax(b)), 0u)
          << m->entry.name << " n = " << n;
    }
    EXPECT_EQ(fast, 3);
  }
}

TEST(KernelMutants, TheCpuModelRefusesTheDeviceOnlyMutants) {
  const auto cpu = make_cpu_executor();
  const SoftmaxBatch b{KernelKind::TwoPass, CombineKind::Hardened, 256, 1, 4, {1, 2, 3, 4}};
  for (const KernelMutant* m : kernel_mutants()) {
    EXPECT_EQ(m->entry.kernel.model == nullptr, m->entry.device_only != nullptr) << m->entry.name;
    if (m->entry.kernel.model == nullptr) {
      EXPECT_THROW(mutant_executor(*cpu, m->entry)->softmax(b), InvalidLaunch) << m->entry.name;
    }
  }
}

TEST(KernelMutants, AMutantRunsOnlyInPlaceOfItsOriginal) {
  const auto cpu = make_cpu_executor();
  const SoftmaxMutant& shuffle_up = find_softmax_mutant("shuffle_up");
  const SoftmaxMutant& lost_chunk = find_softmax_mutant("fast_lost_chunk");
  SoftmaxBatch fast{KernelKind::Fast, CombineKind::Hardened, 256, 1, 4, {1, 2, 3, 4}};
  SoftmaxBatch two{KernelKind::TwoPass, CombineKind::Hardened, 256, 1, 4, {1, 2, 3, 4}};
  EXPECT_THROW(mutant_executor(*cpu, shuffle_up)->softmax(fast), InvalidLaunch);
  EXPECT_THROW(mutant_executor(*cpu, lost_chunk)->softmax(two), InvalidLaunch);
  two.combine = CombineKind::Seed;  // a kernel mutant stands in for the hardened kernel only
  EXPECT_THROW(mutant_executor(*cpu, shuffle_up)->softmax(two), InvalidLaunch);
  // Everything else is the inner executor's: its identity and its combine runs.
  const auto mutant = mutant_executor(*cpu, shuffle_up);
  EXPECT_STREQ(mutant->name(), cpu->name());
  EXPECT_EQ(mutant->is_gpu(), cpu->is_gpu());
  EXPECT_EQ(mutant->describe(), cpu->describe());
  SoftmaxBatch hardened_two_pass;
  hardened_two_pass.combine = CombineKind::Hardened;
  EXPECT_EQ(&mutant->softmax_kernel(hardened_two_pass), &shuffle_up.kernel);
}

TEST(KernelMutants, TheRegistryHoldsEachMutantOnce) {
  register_kernel_mutants();
  register_kernel_mutants();  // again: nothing changes
  const std::vector<const SoftmaxMutant*> registered = registered_softmax_mutants();
  ASSERT_EQ(registered.size(), kernel_mutants().size());
  for (std::size_t i = 0; i < registered.size(); ++i)
    EXPECT_EQ(registered[i], &kernel_mutants()[i]->entry);
  static const SoftmaxMutant impostor{"shuffle_up", "another entry under a registered name",
                                      KernelKind::TwoPass, find_softmax_mutant("shuffle_up").kernel,
                                      nullptr};
  EXPECT_THROW(register_softmax_mutant(&impostor), std::invalid_argument);
  try {
    find_softmax_mutant("shuffle_sideways");
    FAIL() << "an unknown mutant was found";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("shuffle_from_offset_8"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace osvs::mutation
