// The algebras the kernels reduce with (see block_schedule.h), shared by device and CPU model.
#pragma once

#include "osvs/kernels/exp.h"
#include "osvs/kernels/fp_model.h"
#include "osvs/kernels/state.h"

namespace osvs {

/// Online softmax: states (m, d) folded with the combine operator Op.
template <class Op>
struct OnlineAlg {
  using value_type = State;
  OSVS_HD State initial() const { return Op::initial(); }
  OSVS_HD State lift(float x) const { return Op::lift(x); }
  OSVS_HD State combine(State a, State b) const { return Op::combine(a, b); }
};

/// 3-pass, first pass: the row maximum (fmaxf ignores NaN; starts from -inf).
struct MaxAlg {
  using value_type = float;
  OSVS_HD float initial() const { return -__builtin_huge_valf(); }
  OSVS_HD float lift(float x) const { return x; }
  OSVS_HD float combine(float a, float b) const { return fmax_k(a, b); }
};

/// 3-pass, second pass: sum of exp(x - m) for the row maximum m.
struct SumExpAlg {
  using value_type = float;
  float m;
  OSVS_HD float initial() const { return 0.0f; }
  OSVS_HD float lift(float x) const { return kexp(x - m); }
  OSVS_HD float combine(float a, float b) const { return a + b; }
};

/// The 3-pass kernel's last pass: exp(x - m) / d (a fully masked row gives NaN, like PyTorch).
OSVS_HD float softmax_output(float x, float m, float d) {
  return kexp(x - m) / d;
}

}  // namespace osvs
