// explore(ctx, f): the term of everything f can compute, built by running f's source once per
// path. Each run replays a prefix of decisions; the first new branch throws a Fork, and the result
// is select(condition, explore(prefix + true), explore(prefix + false)). Conditions that simplify
// to a constant (a comparison of constants, the identity's -inf against -inf) do not fork, and a
// condition met twice on one path is decided the same way, so only feasible shapes are built.
// R is any type with select(z3::expr, R, R) (SymState, Sym).
#pragma once

#include <vector>

#include "osvs/formal/context.h"

namespace osvs::formal {

namespace detail {
template <class R, class F>
R explore_from(Context& ctx, F& f, std::vector<bool> prefix, int& runs) {
  ++runs;
  try {
    ctx.explorer().start(prefix);
    return f();
  } catch (const Fork& fork) {
    prefix.push_back(true);
    R then_side = explore_from<R>(ctx, f, prefix, runs);
    prefix.back() = false;
    R else_side = explore_from<R>(ctx, f, prefix, runs);
    return select(fork.condition, then_side, else_side);
  }
}
}  // namespace detail

/// The joined result of every path of f (f returns R); `runs` receives how many runs it took.
template <class R, class F>
R explore(Context& ctx, F f, int* runs = nullptr) {
  int n = 0;
  R r = detail::explore_from<R>(ctx, f, {}, n);
  if (runs) *runs = n;
  return r;
}

}  // namespace osvs::formal
