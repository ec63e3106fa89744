// What every executor shares: the float32 case of combine_pairs_in.
#include "osvs/kernels/executor.h"

namespace osvs {

std::vector<State> Executor::combine_pairs_in(DType type, CombineKind op,
                                              const std::vector<State>& a,
                                              const std::vector<State>& b) {
  if (type == DType::F32) return combine_pairs(op, a, b);
  throw InvalidLaunch(std::string("the ") + name() + " executor (" + describe() +
                      ") combines float32 states only, not " + to_string(type));
}

}  // namespace osvs
