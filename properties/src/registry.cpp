// The registry: every property with its law, exactness and the configurations that claim it.
#include "osvs/properties/registry.h"

#include "osvs/kernels/combine_kind.h"
#include "osvs/properties/checks.h"

namespace osvs {
namespace {

bool always(const Case&) {
  return true;
}

/// The true identity (-inf, 0): claimed by operators that declare an exact identity.
bool claims_identity(const Case& c) {
  return algebra_of(c.combine).exact_identity;
}

/// Bitwise commutativity: declared by the operator, or (seed documentation) whenever the build
/// does not contract a*b + c*d into an fma.
bool claims_commutativity(const Case& c) {
  return algebra_of(c.combine).bitwise_commutative || OSVS_MODEL_FMAD == 0;
}

std::vector<PropertyInfo> make_registry() {
  return {
      {"identity_right", "s (+) (-inf, 0) == s bitwise for every state s", true,
       &check_identity_right, &claims_identity, true},
      {"identity_left", "(-inf, 0) (+) s == s bitwise for every state s", true,
       &check_identity_left, &claims_identity, true},
      {"finite_identity",
       "(-FLT_MAX, 0) is a two-sided identity, bitwise, for states with finite m", true,
       &check_finite_identity, &always},
      {"commutativity", "a (+) b == b (+) a bitwise", true, &check_commutativity,
       &claims_commutativity, true},
      {"warp_reduce", "the warp's shuffle tree gives m exactly and d within its derived bound",
       false, &check_warp_reduce, &always},
      {"tree_invariance",
       "any partition, chunk order and combine tree gives m exactly and d within its bound", false,
       &check_tree_invariance, &always},
      {"accuracy", "every output within its derived ulp bound of the exact softmax", false,
       &check_softmax_accuracy, &always},
      {"sum_to_one", "the outputs of a row sum to 1 within the sum of their bounds", false,
       &check_softmax_sum, &always},
      {"softmax_range", "every output of a finite row lies in [0, 1]", true, &check_softmax_range,
       &always},
      {"permutation", "softmax(x permuted) == softmax(x) permuted within bounds", false,
       &check_permutation_equivariance, &always},
      {"shift_invariance",
       "softmax(x + c) == softmax(x) bitwise, d equal and m moved to m + c, for c exact on the row",
       true, &check_shift_invariance, &always},
      {"batch_invariance", "a row's outputs are bitwise the same alone and anywhere in any batch",
       true, &check_batch_invariance, &always},
      {"determinism", "repeated launches give bitwise equal results (not run on the CPU model)",
       true, &check_determinism, &always},
      {"special_values",
       "NaN and +inf rows give NaN, masked rows and N = 0 give the documented values", true,
       &check_special_values, &always},
      {"executor_agreement",
       "the executor equals the CPU model bitwise (portable exp), else both within bound (not run "
       "on "
       "the CPU model)",
       false, &check_executor_agreement, &always},
  };
}

}  // namespace

const std::vector<PropertyInfo>& all_properties() {
  static const std::vector<PropertyInfo> registry = make_registry();
  return registry;
}

const PropertyInfo* find_property(std::string_view name) {
  for (const PropertyInfo& p : all_properties())
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace osvs
