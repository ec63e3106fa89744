// Bad batches are rejected with a clear message before anything runs.
#include <gtest/gtest.h>

#include "osvs/kernels/executor.h"

namespace osvs {
namespace {

void expect_invalid(const SoftmaxBatch& b, const std::string& fragment) {
  const auto cpu = make_cpu_executor();
  try {
    cpu->softmax(b);
    ADD_FAILURE() << "accepted a bad batch; expected: " << fragment;
  } catch (const InvalidLaunch& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Validate, RejectsUnsupportedBlock) {
  expect_invalid(SoftmaxBatch{KernelKind::TwoPass, CombineKind::Seed, 48, 1, 1, {1.0f}},
                 "block size 48");
}

TEST(Validate, RejectsShapeMismatch) {
  expect_invalid(SoftmaxBatch{KernelKind::TwoPass, CombineKind::Seed, 32, 2, 2, {1.0f}}, "needs 4");
}

TEST(Validate, RejectsNegativeShape) {
  expect_invalid(SoftmaxBatch{KernelKind::ThreePass, CombineKind::Seed, 32, -1, 2, {}},
                 "negative shape");
}

TEST(Validate, SeedKernelRefusesIntOverflowShapes) {
  // The shape is checked before the values, so no 8 GiB buffer is needed to see the refusal.
  try {
    validate(SoftmaxBatch{KernelKind::TwoPass, CombineKind::Seed, 256, 1 << 16, 1 << 15, {}});
    ADD_FAILURE() << "accepted M*N = 2^31 for the int-indexed seed kernel";
  } catch (const InvalidLaunch& e) {
    EXPECT_NE(std::string(e.what()).find("indexes with int"), std::string::npos) << e.what();
  }
  // The hardened kernel indexes in 64 bits: the same shape fails only for the missing values.
  try {
    validate(SoftmaxBatch{KernelKind::TwoPass, CombineKind::Hardened, 256, 1 << 16, 1 << 15, {}});
  } catch (const InvalidLaunch& e) {
    EXPECT_NE(std::string(e.what()).find("needs 2147483648"), std::string::npos) << e.what();
  }
}

TEST(Validate, OnlyTheHardenedKernelAcceptsMoreThan2To31Elements) {
  EXPECT_THROW(validate_shape(KernelKind::TwoPass, CombineKind::Seed, 256, 65537, 32768),
               InvalidLaunch);
  EXPECT_NO_THROW(validate_shape(KernelKind::TwoPass, CombineKind::Hardened, 256, 65537, 32768));
}

TEST(Validate, RejectsBadHarnessSchedules) {
  const auto cpu = make_cpu_executor();
  HarnessCase c{{1.0f, 2.0f}, {0, 1, 2}, {0, 1}, {{0, 0}}, 0};
  EXPECT_THROW(cpu->run_harness(HarnessBatch{CombineKind::Seed, {c}, false}), InvalidLaunch);
  c.merges = {{0, 1}};
  c.chunk_offsets = {0, 2, 1};
  EXPECT_THROW(cpu->run_harness(HarnessBatch{CombineKind::Seed, {c}, false}), InvalidLaunch);
  c.chunk_offsets = {0, 1, 2};
  EXPECT_NO_THROW(cpu->run_harness(HarnessBatch{CombineKind::Seed, {c}, false}));
}

}  // namespace
}  // namespace osvs
