// The attention backward kernel on the device with the original's policy and each mutant's (the
// backward catalogue of attention_mutant_catalogue.h, instantiated here with them), launched as
// the registered device entry launches the original (builtin_tiled_attention_backward_device.cu),
// and the original with portable elementary functions.
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
template std::vector<Mutant> attention_backward_mutants<BackwardDeviceRun>();

}  // namespace osvs::test
