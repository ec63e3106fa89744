// M * N >= 2^31 (8 GiB of floats): the seed kernel's int `row * N` would address the wrong
// elements, so the executor refuses it; the hardened kernel indexes the row offset in 64 bits and
// must give every row exactly what it gives the same row alone (batch invariance, bitwise).
// Needs about 17 GiB of device memory and 26 GiB of host memory; skipped without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "osvs/kernels/executor.h"
#include "osvs/kernels/large_index_check.h"

namespace osvs {
namespace {

TEST(LargeIndex, HardenedKernelAddressesBeyond2To31) {
  std::string why;
  auto gpu = make_cuda_executor(&why);
  if (!gpu) GTEST_SKIP() << "GPU test skipped: " << why;
  const LargeIndexOutcome r = check_large_index(*gpu);
  EXPECT_TRUE(r.ok) << r.explanation;
}

TEST(LargeIndex, FastKernelAddressesBeyond2To31) {
  // 65537 rows of 2 chunks: the split path's 64-bit row and chunk offsets past 2^31 elements.
  std::string why;
  auto gpu = make_cuda_executor(&why);
  if (!gpu) GTEST_SKIP() << "GPU test skipped: " << why;
  const LargeIndexOutcome r = check_large_index(*gpu, KernelKind::Fast);
  EXPECT_TRUE(r.ok) << r.explanation;
}

}  // namespace
}  // namespace osvs
