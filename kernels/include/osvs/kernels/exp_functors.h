// The exps a kernel can be written over, as functors (a template argument picks one):
//
//   KernelExp     kexp (exp.h): the build's choice, CUDA expf on the device and glibc expf in the
//                 CPU model unless OSVS_PORTABLE_EXP; what the lesson's kernels call.
//   PortableExp   portable_expf (portable_exp.h) on both executors, in every build: at most
//                 PORTABLE_EXP_MAX_ULP = 1 ulp (measured 0.9386 over every binary32 input, on the
//                 host and on the H200 alike, reports/exp/), against CUDA expf's 2 (measured
//                 1.93). The fast kernel calls it, so its device outputs are its CPU model's bit
//                 for bit whatever the build, and its bounds carry 1 ulp per exp instead of 2.
#pragma once

#include "osvs/kernels/exp.h"
#include "osvs/kernels/hd.h"
#include "osvs/kernels/portable_exp.h"

namespace osvs {

/// The kernels' exp (kexp) as a functor.
struct KernelExp {
  static constexpr double max_ulp(bool gpu) { return kexp_max_ulp(gpu); }
  /// F is float; formal/ calls it with a symbolic scalar, whose kexp is found by ADL.
  template <class F>
  OSVS_HD F operator()(F x) const {
    return kexp(x);
  }
};

/// portable_expf as a functor: the same bits on the host and the device in every build.
struct PortableExp {
  static constexpr double max_ulp(bool /*gpu*/) { return PORTABLE_EXP_MAX_ULP; }
  OSVS_HD float operator()(float x) const { return portable_expf(x); }
};

}  // namespace osvs
