// The softmax-level laws of the suite (suite.h, softmax_laws) on every kernel configuration:
// accuracy, sum, range, permutation and shift, batch invariance, determinism, special values,
// agreement with the CPU model.
#include "osvs/properties/gen/cases.h"
#include "property_driver.h"

namespace osvs::test {
namespace {

/// The kernel configurations under test: the seed and hardened 2-pass kernels, the 3-pass kernel.
const gen::Config kConfigs[] = {{KernelKind::TwoPass, CombineKind::Seed},
                                {KernelKind::TwoPass, CombineKind::Hardened},
                                {KernelKind::ThreePass, CombineKind::Hardened}};

class SoftmaxLaws : public PropertyTest, public ::testing::WithParamInterface<gen::Config> {
 protected:
  /// Runs the suite's law for `property` on this kernel configuration.
  void expect(std::string_view property) const {
    Case configuration;
    configuration.kernel = GetParam().kernel;
    configuration.combine = GetParam().combine;
    expect_law(find_law(softmax_laws(configuration), property), configuration);
  }
};

TEST_P(SoftmaxLaws, Accuracy) {
  expect("accuracy");
}

TEST_P(SoftmaxLaws, Sum) {
  expect("sum_to_one");
}

TEST_P(SoftmaxLaws, Range) {
  expect("softmax_range");
}

TEST_P(SoftmaxLaws, PermutationEquivariance) {
  expect("permutation");
}

TEST_P(SoftmaxLaws, ShiftInvariance) {
  expect("shift_invariance");
}

TEST_P(SoftmaxLaws, BatchInvariance) {
  expect("batch_invariance");
}

TEST_P(SoftmaxLaws, Determinism) {
  expect("determinism");
}

TEST_P(SoftmaxLaws, SpecialValues) {
  expect("special_values");
}

TEST_P(SoftmaxLaws, ExecutorAgreement) {
  expect("executor_agreement");
}

/// Every softmax-level law of the suite has a test above.
TEST(SoftmaxLawsCoverage, EveryLawIsTested) {
  const char* tested[] = {"accuracy",    "sum_to_one",       "softmax_range",
                          "permutation", "shift_invariance", "batch_invariance",
                          "determinism", "special_values",   "executor_agreement"};
  const auto laws = softmax_laws(Case{});
  EXPECT_EQ(laws.size(), std::size(tested));
  for (const char* name : tested) EXPECT_NO_THROW(find_law(laws, name)) << name;
}

INSTANTIATE_TEST_SUITE_P(Kernels, SoftmaxLaws, ::testing::ValuesIn(kConfigs), [](const auto& info) {
  return std::string(to_string(info.param.kernel)) + "_" + to_string(info.param.combine);
});

}  // namespace
}  // namespace osvs::test
