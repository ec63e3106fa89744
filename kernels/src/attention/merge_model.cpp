#include "osvs/kernels/attention/merge_model.h"

namespace osvs {

AttnStates merge_states_model(const AttnStates& a, const AttnStates& b, LseBase base) {
  return merge_states_model_with<MergeAsWritten>(a, b, base);
}

}  // namespace osvs
