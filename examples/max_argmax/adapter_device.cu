// The same (max, argmax) reduction (max_argmax.h) compiled by nvcc: on the GPU's harness, with
// the claims of the host adapter and the claim that its bits are the CPU model's.
#include <osvs/api/state_reduction_device.cuh>

#include "max_argmax.h"

OSVS_REGISTER_REDUCTION(max_argmax_device) {
  return osvs::device_state_reduction<MaxArgmax>("example.max_argmax.device")
      .bitwise_commutative()
      .exact_identity()
      .cpu_model("example.max_argmax")
      .description("(max, argmax) on the device, claimed equal to its CPU model bit for bit");
}
