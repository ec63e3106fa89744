// Commutativity of the combine, bitwise, with the states stored in the case's state_format.
#include <stdexcept>

#include "osvs/properties/checks.h"
#include "support.h"

namespace osvs {

Verdict check_commutativity(const Case& c, Executor& ex) {
  if (c.states.size() % 2 != 0)
    throw std::invalid_argument("commutativity needs pairs of states; got " +
                                std::to_string(c.states.size()) + " states");
  std::vector<State> a, b;
  for (std::size_t i = 0; i < c.states.size(); i += 2) {
    a.push_back(c.states[i]);
    b.push_back(c.states[i + 1]);
  }
  const std::vector<State> ab = ex.combine_pairs_in(c.state_format, c.combine, a, b);
  const std::vector<State> ba = ex.combine_pairs_in(c.state_format, c.combine, b, a);
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!bitwise_equal(ab[i], ba[i]))
      return Verdict::fail(
          "a (+) b != b (+) a for a = " + props::hex(a[i]) + ", b = " + props::hex(b[i]) + ": " +
              props::hex(ab[i]) + " vs " + props::hex(ba[i]),
          {{"a(+)b d", ab[i].d, ba[i].d, 0, 0}, {"a(+)b m", ab[i].m, ba[i].m, 0, 0}});
  return Verdict::pass();
}

}  // namespace osvs
