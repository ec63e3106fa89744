// Identity laws of the combine: the true identity (-inf, 0) on both sides (with the states stored
// in the case's state_format: -inf and 0 are values of every format), and the seed's finite
// stand-in (-FLT_MAX, 0) on float32 states with a finite maximum.
#include <cmath>
#include <string>

#include "osvs/properties/checks.h"
#include "support.h"

namespace osvs {
namespace {

/// Checks out[i] == expected[i] bitwise; `formula` shows the operation, e.g. "s (+) id".
Verdict all_equal(const std::vector<State>& out, const std::vector<State>& expected,
                  const std::string& formula) {
  for (std::size_t i = 0; i < out.size(); ++i)
    if (!bitwise_equal(out[i], expected[i]))
      return Verdict::fail(formula + " with s = " + props::hex(expected[i]) + " gives " +
                               props::hex(out[i]) + ", not s",
                           {{formula + " d", out[i].d, expected[i].d, 0, 0},
                            {formula + " m", out[i].m, expected[i].m, 0, 0}});
  return Verdict::pass();
}

}  // namespace

Verdict check_identity_right(const Case& c, Executor& ex) {
  const std::vector<State> id(c.states.size(), identity_state());
  return all_equal(ex.combine_pairs_in(c.state_format, c.combine, c.states, id), c.states,
                   "s (+) (-inf, 0)");
}

Verdict check_identity_left(const Case& c, Executor& ex) {
  const std::vector<State> id(c.states.size(), identity_state());
  return all_equal(ex.combine_pairs_in(c.state_format, c.combine, id, c.states), c.states,
                   "(-inf, 0) (+) s");
}

Verdict check_finite_identity(const Case& c, Executor& ex) {
  std::vector<State> finite;
  for (State s : c.states)
    if (std::isfinite(s.m)) finite.push_back(s);
  if (finite.empty()) return Verdict::vacuous("no state with a finite m");
  const std::vector<State> e(finite.size(), seed_initial_state());
  Verdict right = all_equal(ex.combine_pairs(c.combine, finite, e), finite, "s (+) (-FLT_MAX, 0)");
  if (!right.holds()) return right;
  return all_equal(ex.combine_pairs(c.combine, e, finite), finite, "(-FLT_MAX, 0) (+) s");
}

}  // namespace osvs
