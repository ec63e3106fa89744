// The combine-level laws of the suite (suite.h, combine_laws) on both operators: identity (both
// representations), commutativity, the warp's shuffle tree and tree invariance.
#include "property_driver.h"

namespace osvs::test {
namespace {

class CombineLaws : public PropertyTest, public ::testing::WithParamInterface<CombineKind> {
 protected:
  /// Runs the suite's law for `property` on this operator.
  void expect(std::string_view property) const {
    Case configuration;
    configuration.combine = GetParam();
    expect_law(find_law(combine_laws(GetParam()), property), configuration);
  }
};

TEST_P(CombineLaws, IdentityRight) {
  expect("identity_right");
}

TEST_P(CombineLaws, IdentityLeft) {
  expect("identity_left");
}

TEST_P(CombineLaws, FiniteIdentity) {
  expect("finite_identity");
}

TEST_P(CombineLaws, Commutativity) {
  expect("commutativity");
}

TEST_P(CombineLaws, WarpReduce) {
  expect("warp_reduce");
}

TEST_P(CombineLaws, TreeInvariance) {
  expect("tree_invariance");
}

/// Every combine-level law of the suite has a test above.
TEST(CombineLawsCoverage, EveryLawIsTested) {
  const char* tested[] = {"identity_right", "identity_left", "finite_identity",
                          "commutativity",  "warp_reduce",   "tree_invariance"};
  const auto laws = combine_laws(CombineKind::Hardened);
  EXPECT_EQ(laws.size(), std::size(tested));
  for (const char* name : tested) EXPECT_NO_THROW(find_law(laws, name)) << name;
}

INSTANTIATE_TEST_SUITE_P(Operators, CombineLaws, ::testing::ValuesIn(kAllCombines),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace osvs::test
