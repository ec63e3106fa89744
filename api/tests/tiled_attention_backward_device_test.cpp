// osvs's attention backward kernel on the device (GPU tests, skipped where no device is usable):
//   - with the same elementary functions (PortableMath) the device gives the host's bits, every
//     output (dq, dk, dv, delta, dsinks), on the 400 sample cases fitted to it
//     (attention_sample_cases.h): one source, two executors;
//   - the device entry's kernel (CUDA's expf, exp2f, tanhf: not the host's bits, so judged against
//     the exact gradients within the device contract, tiled_attention_backward.h) passes every law
//     that judges a backward kernel, determinism and batch invariance bitwise (no atomics);
//   - every mutant of the host catalogue (attention_mutant_catalogue.h), compiled for the device,
//     is killed and shrunk by the same law as on the host;
//   - the device entry within its contract on the host tests' sinks across the whole finite
//     range (attention_sink_cases.h).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "attention_backward_mutants.h"
#include "attention_sample_cases.h"
#include "attention_sink_cases.h"
#include "osvs/api/attention_runner.h"
#include "osvs/api/runner.h"
#include "tiled_attention_backward.h"
#include "tiled_attention_device_run.h"

namespace osvs::test {
namespace {

TEST(TiledAttentionBackwardDevice, SameBitsAsTheHostWithTheSameMath) {
  OSVS_SKIP_WITHOUT_DEVICE();
  AttentionKernel host = builtin::declare_tiled_attention_backward(
      "osvs.test.tiled_backward_portable",
      builtin::tiled_attention_backward<TiledAttentionBackward, builtin::PortableMath>);
  AttentionKernel device = builtin::declare_tiled_attention_backward(
      "osvs.test.tiled_backward_portable.device", run_backward_portable_on_device, Where::Device);
  expect_same_bits_on_every_case(host, device, attention_backward_sample_cases(400, 20261203));
}

TEST(TiledAttentionBackwardDevice, EntryPassesEveryLaw) {
  OSVS_SKIP_WITHOUT_DEVICE();
  const AttentionKernel k = builtin::declare_tiled_attention_backward(
      "osvs.attention_backward.tiled_device", BackwardDeviceRun<TiledAttentionBackward>::run,
      Where::Device);
  // accuracy, empty_rows, poison, gqa, determinism, batch_invariance
  EXPECT_GE(expect_every_law_holds(k), 6);
}

TEST(TiledAttentionBackwardDevice, LargeSinksWithinItsContract) {
  OSVS_SKIP_WITHOUT_DEVICE();
  const AttentionKernel k = builtin::declare_tiled_attention_backward(
      "osvs.attention_backward.tiled_device", BackwardDeviceRun<TiledAttentionBackward>::run,
      Where::Device);
  expect_accurate_on_every_case(k, large_sink_cases(kLargeSinkCases, kLargeSinkSeed, true));
}

OSVS_ATTENTION_MUTANT_SUITE(AttentionBackwardDeviceMutant,
                            attention_backward_mutants<BackwardDeviceRun>(), [](const Mutant& m) {
                              OSVS_SKIP_WITHOUT_DEVICE();
                              expect_backward_killed_small(m, Where::Device);
                            });

}  // namespace
}  // namespace osvs::test
