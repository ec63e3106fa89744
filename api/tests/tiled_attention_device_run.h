// The tiled attention kernels' device executors as the device tests call them: a policy's launch
// (the original's, and the catalogues' of every mutant, compiled in
// tiled_attention_device_mutants.cu, the backward's in tiled_attention_backward_device_mutants.cu)
// and the original's with portable elementary functions (the device == host tests').
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "attention_mutant_catalogue.h"
#include "osvs/osvs.h"
#include "same_bits.h"

/// Skips the test, saying why, where no device can run it.
#define OSVS_SKIP_WITHOUT_DEVICE()                    \
  do {                                                \
    std::string why;                                  \
    if (!device_available(&why)) GTEST_SKIP() << why; \
  } while (0)

namespace osvs::test {

/// launch_tiled_attention<P> (tiled_attention_device.cuh), defined in
/// tiled_attention_device_mutants.cu for TiledAttention and for each policy of the catalogue,
/// which is instantiated there with it.
template <class P>
struct DeviceRun {
  static void run(const AttentionProblem& p);
};
extern template std::vector<Mutant> attention_mutants<DeviceRun>();

/// launch_tiled_attention<TiledAttention, PortableMath>.
void run_portable_on_device(const AttentionProblem& p);

/// launch_tiled_attention_backward<P> (tiled_attention_backward_device.cuh), defined in
/// tiled_attention_backward_device_mutants.cu for TiledAttentionBackward and for each policy of
/// the backward catalogue, which is instantiated there with it.
template <class P>
struct BackwardDeviceRun {
  static void run(const AttentionProblem& p);
};
extern template std::vector<Mutant> attention_backward_mutants<BackwardDeviceRun>();

/// launch_tiled_attention_backward<TiledAttentionBackward, PortableMath>.
void run_backward_portable_on_device(const AttentionProblem& p);

}  // namespace osvs::test
