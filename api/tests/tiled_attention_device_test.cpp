// osvs's tiled attention kernel on the device (GPU tests, skipped where no device is usable):
//   - with the same elementary functions (PortableMath) the device gives the host's bits on the
//     400 sample cases (attention_sample_cases.h): one source, two executors;
//   - the device entry's kernel (CUDA's expf, logf, tanhf: not the host's bits, so judged against
//     the oracle within the device contract, tiled_attention.h) passes every attention law;
//   - every mutant of the host catalogue (attention_mutant_catalogue.h), compiled for the
//     device, is killed and shrunk by the same law as on the host;
//   - the device entry within its contract on the host tests' sinks across the whole finite
//     range (attention_sink_cases.h).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "attention_mutants.h"
#include "attention_sample_cases.h"
#include "attention_sink_cases.h"
#include "osvs/api/attention_runner.h"
#include "osvs/api/runner.h"
#include "tiled_attention.h"
#include "tiled_attention_device_run.h"

namespace osvs::test {
namespace {

TEST(TiledAttentionDevice, SameBitsAsTheHostWithTheSameMath) {
  OSVS_SKIP_WITHOUT_DEVICE();
  AttentionKernel host = builtin::declare_tiled_attention(
      "osvs.test.tiled_portable", builtin::tiled_attention<TiledAttention, builtin::PortableMath>);
  AttentionKernel device = builtin::declare_tiled_attention("osvs.test.tiled_portable.device",
                                                            run_portable_on_device, Where::Device);
  expect_same_bits_on_every_case(host, device, attention_sample_cases(400, 20261203));
}

TEST(TiledAttentionDevice, EntryPassesEveryLaw) {
  OSVS_SKIP_WITHOUT_DEVICE();
  const AttentionKernel k = builtin::declare_tiled_attention(
      "osvs.tiled_attention.device", DeviceRun<TiledAttention>::run, Where::Device);
  EXPECT_GE(expect_every_law_holds(k), 10);
}

TEST(TiledAttentionDevice, LargeSinksWithinItsContract) {
  OSVS_SKIP_WITHOUT_DEVICE();
  const AttentionKernel k = builtin::declare_tiled_attention(
      "osvs.tiled_attention.device", DeviceRun<TiledAttention>::run, Where::Device);
  expect_accurate_on_every_case(k, large_sink_cases(kLargeSinkCases, kLargeSinkSeed, false));
}

OSVS_ATTENTION_MUTANT_SUITE(AttentionDeviceMutant, attention_mutants<DeviceRun>(),
                            [](const Mutant& m) {
                              OSVS_SKIP_WITHOUT_DEVICE();
                              expect_killed_small(m, Where::Device);
                            });

}  // namespace
}  // namespace osvs::test
