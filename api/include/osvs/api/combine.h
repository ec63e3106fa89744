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
#pragma once

#include <map>
#include <string>
#include <vector>

#include "osvs/api/registry.h"  // OSVS_DETAIL_CAT
#include "osvs/kernels/combine_entry.h"

namespace osvs {

/// Where a declaration applies: the CPU model, the GPU, or both (a defect of the device's
/// arithmetic, say, shows on the GPU only).
enum class CombineSide { Both, Cpu, Gpu };

/// A known defect: why, and where it shows.
struct CombineDefect {
  std::string reason;
  CombineSide side = CombineSide::Both;
  bool applies(bool gpu) const {
    return side == CombineSide::Both || (side == CombineSide::Gpu) == gpu;
  }
};

/// What the testbed is told about a registered operator beyond its type's declarations.
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
  const std::map<std::string, CombineDefect>& known_defects() const { return defects_; }
  const std::map<std::string, std::string>& skips() const { return skips_; }

 private:
  std::map<std::string, CombineDefect> defects_;
  std::map<std::string, std::string> skips_;
};

struct RegisteredCombineTest {
  CombineKind kind;
  CombineTest test;
};

/// Puts a registered operator under test. Throws std::invalid_argument for an operator put under
/// test twice or a declaration naming a law that no combine law has.
void register_combine_test(CombineKind kind, CombineTest test);

/// Every operator under test, in registration order.
const std::vector<RegisteredCombineTest>& combine_tests();

namespace detail {
struct CombineRegistration {
  CombineRegistration(const CombineOperator* op, CombineTest (*make)()) {
    register_combine_test(register_combine(op), make());
  }
};
}  // namespace detail

}  // namespace osvs

/// Registers the operator type Op (in the combine registry, with device launchers when this file
/// is compiled by nvcc) and puts it under test with the CombineTest the body returns.
#define OSVS_REGISTER_COMBINE(id, Op)                                                    \
  static constexpr ::osvs::CombineOperator OSVS_DETAIL_CAT(osvs_combine_operator_, id) = \
      ::osvs::combine_operator<Op>(OSVS_COMBINE_DEVICE_OPS(Op, false));                  \
  static ::osvs::CombineTest OSVS_DETAIL_CAT(osvs_make_combine_test_, id)();             \
  static const ::osvs::detail::CombineRegistration OSVS_DETAIL_CAT(                      \
      osvs_combine_registration_, id){&OSVS_DETAIL_CAT(osvs_combine_operator_, id),      \
                                      &OSVS_DETAIL_CAT(osvs_make_combine_test_, id)};    \
  static ::osvs::CombineTest OSVS_DETAIL_CAT(osvs_make_combine_test_, id)()
