// The tiled attention kernel on the device with each mutant's policy (attention_mutant_policies.h,
// the host catalogue's), launched as the registered device entry launches the original
// (builtin_tiled_attention_device.cu), and the original with portable elementary functions.
#include "attention_mutant_policies.h"
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
template struct DeviceRun<WindowLeftOffByOne>;
template struct DeviceRun<CausalDropsDiagonal>;
template struct DeviceRun<AlignmentSwapped>;
template struct DeviceRun<GqaHeadModulo>;
template struct DeviceRun<PageTableOffByOne>;
template struct DeviceRun<RaggedTailUnmasked>;
template struct DeviceRun<AccNotRescaled>;
template struct DeviceRun<DenominatorNotRescaled>;
template struct DeviceRun<MaxOverwrittenBeforeRescale>;
template struct DeviceRun<LseWithoutMax>;
template struct DeviceRun<LseLeftInBaseE>;
template struct DeviceRun<EmptyRowDividesByZero>;
template struct DeviceRun<MaskedValueAccumulated>;
template struct DeviceRun<LastTileDropped>;
template struct DeviceRun<SoftcapBeforeScale>;
template struct DeviceRun<SinkLeftOutOfLse>;
template struct DeviceRun<SinksIgnored>;
template struct DeviceRun<AlibiFromQueryIndex>;
template struct DeviceRun<AlibiAdded>;
template struct DeviceRun<TileByBatchPosition>;
template struct DeviceRun<TilesFollowPages>;
template struct DeviceRun<SplitCountFromBatch>;
template struct DeviceRun<UnsplitAboveBatch>;
template struct DeviceRun<PartialsInVaryingOrder>;
template struct DeviceRun<StaleMaxAfterPrefix>;
template struct DeviceRun<PageBoundaryReadTwice>;
template struct DeviceRun<SplitParameterAsCount>;

}  // namespace osvs::test
