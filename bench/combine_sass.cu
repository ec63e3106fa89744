// One kernel per combine operator, nothing else, so that `cuobjdump --dump-sass` of the cubin
// shows each operator's instruction count side by side (bench/README.md).
#include "osvs/kernels/combine_hardened.h"
#include "osvs/kernels/combine_seed.h"

template <class Op>
__global__ void combine_only(const osvs::State* a, const osvs::State* b, osvs::State* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = Op::combine(a[i], b[i]);
}

template __global__ void combine_only<osvs::SeedCombine>(const osvs::State*, const osvs::State*,
                                                         osvs::State*);
template __global__ void combine_only<osvs::HardenedCombine>(const osvs::State*, const osvs::State*,
                                                             osvs::State*);
