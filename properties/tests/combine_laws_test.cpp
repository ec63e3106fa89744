// The combine-level laws on both operators: identity (both representations), commutativity, the
// warp's shuffle tree and tree invariance.
#include "osvs/properties/gen/cases.h"
#include "osvs/properties/gen/floats.h"
#include "property_driver.h"

namespace osvs::test {
namespace {

class CombineLaws : public PropertyTest, public ::testing::WithParamInterface<CombineKind> {
 protected:
  Case configuration() const {
    Case c;
    c.combine = GetParam();
    return c;
  }
};

void tag_states(const Case& c) {
  RC_TAG(gen::states_class(c.states));
}

void tag_row(const Case& c) {
  if (!c.rows.empty()) RC_TAG(gen::row_class(c.rows[0]));
}

// A combine-level defect shrinks to at most 4 states (2 pairs).
constexpr std::size_t kSmallCombineCase = 4;

TEST_P(CombineLaws, IdentityRight) {
  expect_law({"identity_right", gen::states_case(GetParam(), gen::states(gen::well_formed_state())),
              configuration(), tag_states, kSmallCombineCase});
}

TEST_P(CombineLaws, IdentityLeft) {
  expect_law({"identity_left", gen::states_case(GetParam(), gen::states(gen::well_formed_state())),
              configuration(), tag_states, kSmallCombineCase});
}

TEST_P(CombineLaws, FiniteIdentity) {
  expect_law({"finite_identity", gen::states_case(GetParam(), gen::states(gen::finite_max_state())),
              configuration(), tag_states, kSmallCombineCase});
}

TEST_P(CombineLaws, Commutativity) {
  expect_law({"commutativity", gen::states_case(GetParam(), gen::state_pairs()), configuration(),
              tag_states, kSmallCombineCase});
}

TEST_P(CombineLaws, WarpReduce) {
  expect_law({"warp_reduce", gen::warp_case(GetParam()), configuration(), tag_row});
}

TEST_P(CombineLaws, TreeInvariance) {
  expect_law({"tree_invariance", gen::tree_case(GetParam()), configuration(), tag_row});
}

INSTANTIATE_TEST_SUITE_P(Operators, CombineLaws, ::testing::ValuesIn(kAllCombines),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace osvs::test
