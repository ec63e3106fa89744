// Bad batches are rejected with a clear message before anything runs.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "expect_refused.h"
#include "osvs/kernels/executor.h"

namespace osvs {
namespace {

using test::expect_refused;

void expect_invalid(const SoftmaxBatch& b, const std::string& fragment) {
  const auto cpu = make_cpu_executor();
  expect_refused([&] { cpu->softmax(b); }, fragment);
}

TEST(Validate, ALaunchThatIsNotRefusedFailsTheCheck) {
  // The check itself can fail: a launch that throws nothing, or refuses for another reason.
  EXPECT_NONFATAL_FAILURE(expect_refused([] {}, "block size"), "accepted a bad launch");
  EXPECT_NONFATAL_FAILURE(expect_refused([] { throw InvalidLaunch("other"); }, "block size"),
                          "other");
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
  expect_refused(
      [] {
        validate(SoftmaxBatch{KernelKind::TwoPass, CombineKind::Seed, 256, 1 << 16, 1 << 15, {}});
      },
      "indexes with int");
  // The hardened kernel indexes in 64 bits: the same shape fails only for the missing values.
  expect_refused(
      [] {
        validate(
            SoftmaxBatch{KernelKind::TwoPass, CombineKind::Hardened, 256, 1 << 16, 1 << 15, {}});
      },
      "needs 2147483648");
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
