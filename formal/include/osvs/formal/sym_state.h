// The symbolic online-softmax state: what an operator's `template <class S> combine(S, S)` is
// instantiated with. It converts from a concrete State (initial(), an identity returned as is).
#pragma once

#include "osvs/formal/sym.h"
#include "osvs/kernels/state.h"

namespace osvs::formal {

struct SymState {
  Sym m;
  Sym d;
  SymState(Sym m_, Sym d_) : m(std::move(m_)), d(std::move(d_)) {}
  SymState(State s) : m(s.m), d(s.d) {}  // NOLINT(google-explicit-constructor): `return initial();`
};

/// if c then x else y, member by member (how explore() joins two paths).
inline SymState select(const z3::expr& c, const SymState& x, const SymState& y) {
  return {Sym::select(c, x.m, y.m), Sym::select(c, x.d, y.d)};
}

}  // namespace osvs::formal
