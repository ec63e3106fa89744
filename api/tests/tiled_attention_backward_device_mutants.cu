// The attention backward kernel on the device with each mutant's policy
// (attention_backward_mutant_policies.h, the host catalogue's), launched as the registered device
// entry launches the original (builtin_tiled_attention_backward_device.cu), and the original with
// portable elementary functions.
#include "attention_backward_mutant_policies.h"
#include "tiled_attention_backward_device.cuh"
#include "tiled_attention_device_run.h"

namespace osvs::test {

template <class P>
void BackwardDeviceRun<P>::run(const AttentionProblem& p) {
  builtin::launch_tiled_attention_backward<P>(p);
}

void run_backward_portable_on_device(const AttentionProblem& p) {
  builtin::launch_tiled_attention_backward<TiledAttentionBackward, builtin::PortableMath>(p);
}

template struct BackwardDeviceRun<TiledAttentionBackward>;
template struct BackwardDeviceRun<DeltaFromBf16O>;
template struct BackwardDeviceRun<DqMissingScale>;
template struct BackwardDeviceRun<GqaHeadsOverwrite>;
template struct BackwardDeviceRun<MaskForwardOnly>;
template struct BackwardDeviceRun<RowsInVaryingOrder>;
template struct BackwardDeviceRun<SoftcapDerivativeDropped>;
template struct BackwardDeviceRun<LseBaseTwoAsE>;
template struct BackwardDeviceRun<DeltaNotSubtracted>;
template struct BackwardDeviceRun<DsinksSignDropped>;
template struct BackwardDeviceRun<DsinksPerSequence>;

}  // namespace osvs::test
