// The tiled attention kernel's device executor as the device tests call it: a policy's launch
// (the original's and every mutant's, compiled in tiled_attention_device_mutants.cu) and the
// original's with portable elementary functions (the device == host test's).
#pragma once

#include "osvs/osvs.h"

namespace osvs::test {

/// launch_tiled_attention<P> (tiled_attention_device.cuh), defined for TiledAttention and each
/// policy of attention_mutant_policies.h.
template <class P>
struct DeviceRun {
  static void run(const AttentionProblem& p);
};

/// launch_tiled_attention<TiledAttention, PortableMath>.
void run_portable_on_device(const AttentionProblem& p);

}  // namespace osvs::test
