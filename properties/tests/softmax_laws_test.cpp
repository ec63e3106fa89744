// The softmax-level laws on every kernel configuration: accuracy, sum, range, permutation and
// shift, batch invariance, determinism, special values, agreement with the CPU model.
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
  Case configuration() const {
    Case c;
    c.kernel = GetParam().kernel;
    c.combine = GetParam().combine;
    return c;
  }
};

void tag_rows(const Case& c) {
  if (!c.rows.empty())
    RC_TAG(gen::row_class(c.rows[0]), c.rows[0].size() >= 1024 ? "n >= 1024" : "n < 1024");
}

TEST_P(SoftmaxLaws, Accuracy) {
  expect_law({"softmax_accuracy", gen::softmax_case(GetParam(), gen::finite_batch()),
              configuration(), tag_rows});
}

TEST_P(SoftmaxLaws, Sum) {
  expect_law({"softmax_sum", gen::softmax_case(GetParam(), gen::finite_batch()), configuration(),
              tag_rows});
}

TEST_P(SoftmaxLaws, Range) {
  expect_law({"softmax_range", gen::softmax_case(GetParam(), gen::finite_batch()), configuration(),
              tag_rows});
}

TEST_P(SoftmaxLaws, PermutationEquivariance) {
  expect_law(
      {"permutation_equivariance", gen::permutation_case(GetParam()), configuration(), tag_rows});
}

TEST_P(SoftmaxLaws, ShiftInvariance) {
  expect_law({"shift_invariance", gen::shift_case(GetParam()), configuration(), tag_rows});
}

TEST_P(SoftmaxLaws, BatchInvariance) {
  expect_law({"batch_invariance", gen::batch_case(GetParam()), configuration(), tag_rows});
}

TEST_P(SoftmaxLaws, Determinism) {
  expect_law({"determinism", gen::softmax_case(GetParam(), gen::special_batch()), configuration(),
              tag_rows});
}

TEST_P(SoftmaxLaws, SpecialValues) {
  expect_law({"special_values", gen::softmax_case(GetParam(), gen::special_batch()),
              configuration(), tag_rows});
}

TEST_P(SoftmaxLaws, ExecutorAgreement) {
  expect_law({"executor_agreement", gen::softmax_case(GetParam(), gen::special_batch()),
              configuration(), tag_rows});
}

INSTANTIATE_TEST_SUITE_P(Kernels, SoftmaxLaws, ::testing::ValuesIn(kConfigs), [](const auto& info) {
  return std::string(to_string(info.param.kernel)) + "_" + to_string(info.param.combine);
});

}  // namespace
}  // namespace osvs::test
