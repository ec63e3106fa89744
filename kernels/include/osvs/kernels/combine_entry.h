// combine_operator<Op>(): the registry entry of an operator type, with the CPU model of every
// order osvs runs it in. What Op must declare (checked at compile time, with these words):
//
//   static constexpr const char* kName;           its name in reports, files and --combine
//   static constexpr bool kBitwiseCommutative;     a (+) b == b (+) a bit for bit, always
//   static constexpr bool kExactIdentity;          initial() is an identity bit for bit, on both
//                                                  sides, and initial() (+) initial() == initial()
//   static constexpr bool kRescalesBothSides;      the shape of the derived bound that applies
//                                                  (docs/semantics.md §5): true = each combine
//                                                  rescales both operands (two exps, the lesson's
//                                                  formula), false = only the smaller one (one exp)
//   static constexpr bool kMaskedRowZero;          a fully masked row's softmax is 0s (true) or
//   NaNs OSVS_HD static State initial();                the state of the empty multiset OSVS_HD
//   static State lift(float x);            one element as a state OSVS_HD static State
//   combine(State a, State b); OSVS_HD static float output(float x, State s); pass 2 of the
//   softmax: exp(x - m) / d
//
// Optional: static constexpr bool kNarrowStates = true; the operator also runs on bf16 / fp16
// states (narrow_float.h: its combine is written over its state type and calls only helpers that
// have a Narrow overload), so that a regression file of a narrow state replays it.

#pragma once

#include <array>
#include <type_traits>

#include "osvs/kernels/algebras.h"
#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/combine_operator.h"
#include "osvs/kernels/harness_model.h"
#include "osvs/kernels/narrow_float.h"
#include "osvs/kernels/two_pass_model.h"

namespace osvs {
namespace detail {

template <class Op>
State host_initial() {
  return Op::initial();
}
template <class Op>
State host_lift(float x) {
  return Op::lift(x);
}
template <class Op>
State host_combine(State a, State b) {
  return Op::combine(a, b);
}
template <class Op>
float host_output(float x, State s) {
  return Op::output(x, s);
}

/// combine_in<Op, type>: BF16, or F16 for the other narrow type (the executors pass only these:
/// validate_narrow_pairs).
template <class Op>
State host_combine_narrow(DType type, State a, State b) {
  return type == DType::BF16 ? combine_in<Op, DType::BF16>(a, b) : combine_in<Op, DType::F16>(a, b);
}

/// host_combine_narrow<Op> for an operator that runs on narrow states, else nullptr.
template <class Op>
constexpr decltype(CombineHostOps::combine_narrow) host_combine_narrow_of() {
  if constexpr (runs_on_narrow_states<Op>::value)
    return &host_combine_narrow<Op>;
  else
    return nullptr;
}

template <class Op>
State host_warp_reduce(const State* lanes) {
  std::array<State, kWarpSize> l;
  for (int i = 0; i < kWarpSize; ++i) l[i] = lanes[i];
  return model_warp_reduce(l, OnlineAlg<Op>{});
}

template <class Op>
State host_harness_case(const HarnessCase& c, std::vector<State>* chunk_states) {
  return model_harness_case(c, OnlineAlg<Op>{}, chunk_states);
}

template <class Op>
constexpr void check_declarations() {
  static_assert(std::is_convertible_v<decltype(Op::kName), const char*>,
                "a combine operator declares its name: static constexpr const char* kName");
  static_assert(std::is_same_v<std::remove_cv_t<decltype(Op::kBitwiseCommutative)>, bool>,
                "a combine operator declares static constexpr bool kBitwiseCommutative");
  static_assert(std::is_same_v<std::remove_cv_t<decltype(Op::kExactIdentity)>, bool>,
                "a combine operator declares static constexpr bool kExactIdentity");
  static_assert(std::is_same_v<std::remove_cv_t<decltype(Op::kRescalesBothSides)>, bool>,
                "a combine operator declares static constexpr bool kRescalesBothSides (the "
                "shape of its derived bound)");
  static_assert(std::is_same_v<std::remove_cv_t<decltype(Op::kMaskedRowZero)>, bool>,
                "a combine operator declares static constexpr bool kMaskedRowZero (a fully "
                "masked row gives 0s or NaNs)");
  static_assert(std::is_same_v<decltype(Op::combine(State{}, State{})), State>,
                "a combine operator has static State combine(State, State)");
  static_assert(std::is_same_v<decltype(Op::lift(0.0f)), State>,
                "a combine operator has static State lift(float)");
  static_assert(std::is_same_v<decltype(Op::initial()), State>,
                "a combine operator has static State initial()");
  static_assert(std::is_same_v<decltype(Op::output(0.0f, State{})), float>,
                "a combine operator has static float output(float, State)");
}

}  // namespace detail

/// The CPU model of every order, for Op.
template <class Op>
constexpr CombineHostOps host_ops_of() {
  return {&detail::host_initial<Op>,     &detail::host_lift<Op>,
          &detail::host_combine<Op>,     &detail::host_output<Op>,
          &detail::host_warp_reduce<Op>, &detail::host_harness_case<Op>,
          &model_two_pass_rows<Op>,      detail::host_combine_narrow_of<Op>()};
}

/// The registry entry of Op. `device`: OSVS_COMBINE_DEVICE_OPS(Op, ...) in the registering file
/// (nullptr from host-only code). A mutant names its original and its defect.
template <class Op, bool Int32TwoPassIndex = false>
constexpr CombineOperator combine_operator(const CombineDeviceOps* device,
                                           const CombineOperator* original = nullptr,
                                           const char* defect = nullptr) {
  detail::check_declarations<Op>();
  return {Op::kName,          {Op::kBitwiseCommutative, Op::kExactIdentity, Op::kRescalesBothSides},
          Op::kMaskedRowZero, Int32TwoPassIndex,
          original,           defect,
          host_ops_of<Op>(),  device};
}

}  // namespace osvs

/// The device launchers of Op when this file is compiled by nvcc, else nullptr.
#if defined(__CUDACC__)
#include "osvs/kernels/cuda/combine_device_ops.cuh"
#define OSVS_COMBINE_DEVICE_OPS(Op, Int32TwoPassIndex) \
  (&::osvs::cuda::DeviceOpsOf<Op, Int32TwoPassIndex>::kOps)
#else
#define OSVS_COMBINE_DEVICE_OPS(Op, Int32TwoPassIndex) nullptr
#endif
