// The kernel mutants on the GPU against their CPU models: one policy drives both executors, so
// where the CPU model replays a mutant the device gives the model's bits: the 2-pass kernel's in
// the portable-exp build (its exp is then the model's), the fast kernel's in every build (its exp
// is portable_expf on both). Without a device every test skips with make_cuda_executor's reason.
#include <gtest/gtest.h>

#include <string>

#include "agreement_fixture.h"
#include "osvs/kernels/fast_plan.h"
#include "osvs/mutation/kernel_mutants.h"

namespace osvs::mutation {
namespace {

class MutantAgreement : public ExecutorPair {};

TEST_F(MutantAgreement, ModelledTwoPassMutantsMatchTheModel) {
  if (!kPortableExp) GTEST_SKIP() << "bitwise comparison needs the portable-exp build";
  int compared = 0;
  for (const KernelMutant* m : kernel_mutants()) {
    if (m->entry.original != KernelKind::TwoPass || m->entry.kernel.model == nullptr) continue;
    const auto gpu = mutant_executor(*gpu_, m->entry), cpu = mutant_executor(*cpu_, m->entry);
    for (int block : {32, 256, 1024}) {
      const SoftmaxBatch b{KernelKind::TwoPass,  CombineKind::Hardened, block, 3, 700,
                           mixed_rows(3, 700, 7)};
      expect_bitwise(gpu->softmax(b), cpu->softmax(b),
                     std::string(m->entry.name) + "/B" + std::to_string(block));
      ++compared;
    }
  }
  EXPECT_EQ(compared, 4 * 3);  // the four mutants the model replays, three block sizes
}

TEST_F(MutantAgreement, FastMutantsMatchTheModel) {
  int compared = 0;
  for (const KernelMutant* m : kernel_mutants()) {
    if (m->entry.original != KernelKind::Fast) continue;
    const auto gpu = mutant_executor(*gpu_, m->entry), cpu = mutant_executor(*cpu_, m->entry);
    for (std::int64_t n : {std::int64_t{1023}, 3 * kFastChunkElems + 3, 3 * kFastChunkElems,
                           kFastClusterRowMax + 3 * kFastChunkElems}) {
      const SoftmaxBatch b{KernelKind::Fast, CombineKind::Hardened, 256, 2, n, mixed_rows(2, n, 8)};
      EXPECT_EQ(differing_outputs(gpu->softmax(b), cpu->softmax(b), m->entry.name), 0u)
          << m->entry.name;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 3 * 4);  // three mutants, four row lengths
}

}  // namespace
}  // namespace osvs::mutation
