// White-box combine operators under test: the operator's algebra (identity, commutativity, the
// warp's shuffle tree, any partition and merge tree) runs on the CPU model and, when the adapter
// is compiled by nvcc and a GPU is present, on the device through osvs's harness kernels.
//
//   struct MyCombine {
//     static constexpr const char* kName = "my_combine";
//     static constexpr bool kBitwiseCommutative = true, kExactIdentity = true;
//     static constexpr bool kRescalesBothSides = false, kMaskedRowZero = true;
//     OSVS_HD static osvs::State initial() { ... }
//     OSVS_HD static osvs::State lift(float x) { ... }
//     OSVS_HD static osvs::State combine(osvs::State a, osvs::State b) { ... }
//     OSVS_HD static float output(float x, osvs::State s) { ... }
//   };
//   OSVS_REGISTER_COMBINE(my_combine, MyCombine) { return osvs::CombineTest(); }
//
// osvs/kernels/combine_entry.h states what each declaration means; a missing one is a compile
// error that says which. A law the operator does not claim (e.g. commutativity without
// kBitwiseCommutative) is skipped with that reason; a law it claims must hold, unless declared a
// known defect, which must then show.
//
// The operator is then a kernel of the combine kind (osvs/api/kind.h, combine_kernel.h), like
// every kernel under test: the testbed's suites combine_<name> (and combine_<name>_device), its
// failures saved as combine regression files and replayed, a plugin carries it, --osvs-list
// lists it. Registration needs nothing but the registry (osvs_api_registry): the operator enters
// the combine registry of the process that judges it when its first law runs (combine_handle).
#pragma once

#include <map>
#include <string>
#include <utility>

#include "osvs/api/combine_kernel.h"
#include "osvs/api/registry.h"  // OSVS_DETAIL_CAT
#include "osvs/kernels/combine_entry.h"

namespace osvs {

/// Where a declaration applies: the CPU model, the GPU, or both (a defect of the device's
/// arithmetic, say, shows on the GPU only).
enum class CombineSide { Both, Cpu, Gpu };

/// What the testbed is told about a registered operator beyond its type's declarations. The
/// operator becomes a kernel of the combine kind for each side it runs on (combine_kernel.h),
/// each with the declarations that apply there.
class CombineTest {
 public:
  /// The law must fail on this operator where `side` says (a documented defect); the testbed
  /// checks that it does there, and holds it to the law elsewhere.
  CombineTest& known_defect(const std::string& law, std::string reason,
                            CombineSide side = CombineSide::Both) {
    return (defects_[law] = {std::move(reason), side}, *this);
  }
  /// The law is not run on this operator, for the reason given.
  CombineTest& skip(const std::string& law, std::string reason) {
    return (skips_[law] = std::move(reason), *this);
  }
  const std::map<std::string, std::pair<std::string, CombineSide>>& known_defects() const {
    return defects_;
  }
  const std::map<std::string, std::string>& skips() const { return skips_; }

 private:
  std::map<std::string, std::pair<std::string, CombineSide>> defects_;
  std::map<std::string, std::string> skips_;
};

/// Registers op's kernels of the combine kind (registry.h): "<name>" on the CPU model and, where
/// op has device launchers, "<name>.device" on the GPU's harness, each with the skips of `test`
/// and the known defects of `test` that apply on its side. Throws std::invalid_argument for a
/// name registered twice or a declaration naming a law that no combine law has (the message
/// lists the combine laws).
void register_combine_operator(const CombineOperator* op, const CombineTest& test);

namespace detail {
struct CombineRegistration {
  CombineRegistration(const CombineOperator* op, CombineTest (*make)()) {
    register_combine_operator(op, make());
  }
};
}  // namespace detail

}  // namespace osvs

/// Declares the operator type Op (its registry entry, with device launchers when this file is
/// compiled by nvcc) and registers its combine kernels with the CombineTest the body returns.
#define OSVS_REGISTER_COMBINE(id, Op)                                                    \
  static constexpr ::osvs::CombineOperator OSVS_DETAIL_CAT(osvs_combine_operator_, id) = \
      ::osvs::combine_operator<Op>(OSVS_COMBINE_DEVICE_OPS(Op, false));                  \
  static ::osvs::CombineTest OSVS_DETAIL_CAT(osvs_make_combine_test_, id)();             \
  static const ::osvs::detail::CombineRegistration OSVS_DETAIL_CAT(                      \
      osvs_combine_registration_, id){&OSVS_DETAIL_CAT(osvs_combine_operator_, id),      \
                                      &OSVS_DETAIL_CAT(osvs_make_combine_test_, id)};    \
  static ::osvs::CombineTest OSVS_DETAIL_CAT(osvs_make_combine_test_, id)()
