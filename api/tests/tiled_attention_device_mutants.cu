// The tiled attention kernel on the device with the original's policy and each mutant's (the
// catalogue of attention_mutant_catalogue.h, instantiated here with them), launched as the
// registered device entry launches the original (builtin_tiled_attention_device.cu), and the
// original with portable elementary functions.
#include "tiled_attention_device.cuh"
#include "tiled_attention_device_run.h"

namespace osvs::test {

template <class P>
void DeviceRun<P>::run(const AttentionProblem& p) {
  builtin::launch_tiled_attention<P>(p);
}

void run_portable_on_device(const AttentionProblem& p) {
  builtin::launch_tiled_attention<TiledAttention, builtin::PortableMath>(p);
}

template struct DeviceRun<TiledAttention>;
template std::vector<Mutant> attention_mutants<DeviceRun>();

}  // namespace osvs::test
