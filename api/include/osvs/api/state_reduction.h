// A state reduction of one's own, as a C++ type R, put under the reduction laws
// (reduction_kernel.h). R declares:
//
//   struct R {
//     struct State { ... };                          // floats and integers
//     static constexpr auto kStateFields = osvs::fields(osvs::field("m", &State::m), ...);
//     OSVS_HD static State identity();
//     OSVS_HD static State lift(float x, std::int64_t index);   // or lift(float x)
//     OSVS_HD static State combine(State a, State b);
//     // optional: a finalised result of its own type, with its fields
//     struct Result { ... };
//     static constexpr auto kResultFields = osvs::fields(...);
//     OSVS_HD static Result finalise(State s);
//     // optional: the exact reference of the finalised result, one value per result field
//     static std::vector<double> exact(std::span<const float> row);
//   };
//   OSVS_REGISTER_REDUCTION(my_reduction) {
//     return osvs::state_reduction<R>("my.reduction").bitwise_commutative().exact_identity();
//   }
//
// Without finalise the result is the state itself. The CPU model runs every schedule in the
// harness's order (kernels/harness_model.h), the same loop the combine operators' CPU model runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/api/reduction_kernel.h"
#include "osvs/api/registry.h"
#include "osvs/kernels/harness_model.h"
#include "osvs/kernels/hd.h"
#include "osvs/kernels/lift_with_index.h"

namespace osvs {

/// R as an algebra of the harness's order (value_type, initial, lift, combine).
template <class R>
struct ReductionAlg {
  using value_type = typename R::State;
  OSVS_HD value_type initial() const { return R::identity(); }
  OSVS_HD value_type lift(float x, std::int64_t index) const {
    if constexpr (kLiftTakesIndex<R>)  // the harness's own test (lift_with_index.h)
      return R::lift(x, index);
    else
      return R::lift(x);
  }
  OSVS_HD value_type combine(value_type a, value_type b) const { return R::combine(a, b); }
};

namespace detail {

template <class R>
constexpr bool kHasResult = requires {
  R::kResultFields;
};

template <class R>
OSVS_HD auto finalised(const typename R::State& s) {
  if constexpr (kHasResult<R>)
    return R::finalise(s);
  else
    return s;
}

template <class R>
constexpr const auto& result_fields_of() {
  if constexpr (kHasResult<R>)
    return R::kResultFields;
  else
    return R::kStateFields;
}

/// The fields of R's finalised result (its state's when it has no Result), as a constant a
/// template argument may name.
template <class R>
inline constexpr const auto& kResultFieldsOf = result_fields_of<R>();

/// The CPU model of R (Where::Host): every schedule in the harness's order. An executor of R,
/// as state_reduction's Executor<R> is: where it runs, and the launch that runs it there.
template <class R>
struct CpuModel {
  static constexpr Where where = Where::Host;
  static void run(const ReductionProblem& p) {
    p.states->clear();
    p.results->clear();
    for (const HarnessCase& h : *p.schedules) {
      const typename R::State s = model_harness_case(h, ReductionAlg<R>{}, nullptr);
      append_field_bits(s, R::kStateFields, *p.states);
      append_field_bits(finalised<R>(s), result_fields_of<R>(), *p.results);
    }
  }
};

/// The declaration of R running where `where` says through `run`: its fields and, when R has
/// one, its exact reference.
template <class R>
ReductionKernel declared_reduction(std::string name, Where where, ReductionKernel::Fn run) {
  ReductionKernel k(std::move(name), where);
  k.state_fields(field_specs(R::kStateFields))
      .result_fields(field_specs(kResultFieldsOf<R>))
      .run(std::move(run));
  if constexpr (requires { R::exact; }) k.exact(&R::exact);
  return k;
}

}  // namespace detail

/// The declaration of R running on Executor<R> (its CPU model, Where::Host, by default), with its
/// fields and, when R has one, its exact reference; claims, tolerance and domain are added to it.
/// The same R compiled by nvcc runs on the device through device_state_reduction<R>()
/// (state_reduction_device.cuh): this on the device's executor.
template <class R, template <class> class Executor = detail::CpuModel>
ReductionKernel state_reduction(std::string name) {
  return detail::declared_reduction<R>(std::move(name), Executor<R>::where, &Executor<R>::run);
}

}  // namespace osvs

/// Registers the ReductionKernel returned by the function body that follows:
///   OSVS_REGISTER_REDUCTION(my_reduction) { return osvs::state_reduction<R>("my.reduction"); }
#define OSVS_REGISTER_REDUCTION(id)                                                               \
  OSVS_DETAIL_REGISTER(::osvs::ReductionKernel, ::osvs::register_kernel<::osvs::ReductionKernel>, \
                       reduction_kernel, id)
