// osvs's own state reductions on the device (builtin_reductions.h's types compiled by nvcc),
// each claiming the bits of its CPU model (builtin_reductions.cpp): logsumexp through the
// portable exp and log, Welford / Chan through correctly rounded operations, so both equal their
// CPU models bit for bit.
#include "builtin_reductions.h"
#include "osvs/api/state_reduction_device.cuh"

OSVS_REGISTER_REDUCTION(osvs_logsumexp_device) {
  return osvs::builtin::logsumexp_declared(
             osvs::device_state_reduction<osvs::builtin::LogsumexpReduction>(
                 "osvs.logsumexp.device"))
      .cpu_model("osvs.logsumexp");
}

OSVS_REGISTER_REDUCTION(osvs_welford_device) {
  return osvs::builtin::welford_declared(
             osvs::device_state_reduction<osvs::builtin::WelfordReduction>("osvs.welford.device"))
      .cpu_model("osvs.welford");
}
