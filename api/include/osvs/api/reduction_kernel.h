// ReductionKernel: a user-defined state reduction under test, the white-box shape that online
// softmax, logsumexp, Welford / Chan, argmax and top-k share: a state (a small struct of floats
// and integers), lift (one element, and its index in the row, as a state), combine, an identity,
// a finalisation, the laws it claims and an exact reference for its finalised result.
//
// A launch hands the kernel schedules, each a row and the order to reduce it in (osvs's harness
// order, kernels/harness_model.h: each chunk folded from the identity by lift and combine, the
// chunks placed in slots, then slot[dst] = slot[dst] (+) slot[src] for each merge in order); the
// kernel writes each schedule's root state and its finalised result, field by field
// (state_fields.h). state_reduction<R>() (state_reduction.h) makes the declaration of a C++ type
// R with the CPU model of that order; a device kernel runs the same schedules on the GPU.
//
//   osvs::state_reduction<MaxArgmax>("example.max_argmax")
//       .bitwise_commutative().exact_identity()
//       .exact(&MaxArgmax::exact);                  // tolerance: 0 (exact) unless declared
//
// The laws (reduction_laws.h): bitwise commutativity and exact identity (where claimed), the
// claimed laws and the reference's conventions on a grid of special values, and the finalised
// result of a left-to-right fold (accuracy) and of random partitions, orderings and merge trees
// (associativity) against the exact reference within the declared tolerance.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "osvs/api/kernel_declaration.h"
#include "osvs/api/state_fields.h"
#include "osvs/kernels/cases.h"
#include "osvs/kernels/harness_flat.h"

namespace osvs {

/// A launch on the device (Where::Device): the schedules flattened into device memory
/// (kernels/harness_flat.h's layout, as cuda/combine_kernels.cuh's harness_kernel reads it), and
/// the device arrays the kernel writes: states[i * state_fields + f] and results[i * result_fields
/// + f], the bits of field f of schedule i's root state and finalised result (state_fields.h
/// store_field_bits).
struct ReductionDeviceSchedules {
  const float* values = nullptr;
  const std::int64_t* chunk_offsets = nullptr;
  const std::int32_t* slot_chunk = nullptr;
  const Merge* merges = nullptr;
  const FlatHarnessCase* cases = nullptr;
  std::int64_t num_cases = 0;
  std::int64_t num_chunks = 0;  ///< chunk states the launch needs (scratch of the kernel's own)
  std::int64_t num_slots = 0;   ///< slots the launch needs (scratch of the kernel's own)
  std::uint64_t* states = nullptr;
  std::uint64_t* results = nullptr;
};

/// One launch: schedules (each carries its row, HarnessCase::row). On the host (Where::Host) the
/// kernel sets states to schedules->size() x state_fields bits (each schedule's root state) and
/// results to schedules->size() x result_fields bits (its finalised root). On the device
/// (Where::Device) `device` holds the same schedules and the arrays to write in device memory,
/// and the kernel launches on `stream` (the runner copies, synchronises and checks: runner.h).
struct ReductionProblem : Launch {
  const std::vector<HarnessCase>* schedules = nullptr;
  std::vector<std::uint64_t>* states = nullptr;
  std::vector<std::uint64_t>* results = nullptr;
  const ReductionDeviceSchedules* device = nullptr;
};

/// What a tolerance is computed from: the row, the depth of the schedule (the most combines on
/// a path from an element to the root, the chunk's sequential fold included) and the exact
/// finalised result (one value per result field).
struct ReductionShape {
  std::span<const float> row;
  int depth = 0;
  const std::vector<double>* exact = nullptr;
};

/// The exact finalised result of a row (one value per result field; NaN and infinities as the
/// reduction's conventions say).
using ReductionExactFn = std::function<std::vector<double>(std::span<const float> row)>;
/// The largest absolute error allowed in result field `field` for a schedule of this shape
/// (derived, never fitted: where the derivation lives goes into bound_derivation()).
using ReductionToleranceFn = std::function<double(std::size_t field, const ReductionShape& s)>;

class ReductionKernel : public KernelDeclaration<ReductionKernel, ReductionProblem> {
 public:
  ReductionKernel() = default;
  ReductionKernel(std::string name, Where where) : KernelDeclaration(std::move(name), where) {}

  // --- declaration (each returns *this)
  ReductionKernel& state_fields(std::vector<FieldSpec> f) {
    return (state_fields_ = std::move(f), *this);
  }
  ReductionKernel& result_fields(std::vector<FieldSpec> f) {
    return (result_fields_ = std::move(f), *this);
  }
  /// Claims a (+) b == b (+) a bit for bit, for every pair of states.
  ReductionKernel& bitwise_commutative(bool c = true) { return (commutative_ = c, *this); }
  /// Claims identity (+) s == s (+) identity == s bit for bit, for every state s (the identity
  /// itself included).
  ReductionKernel& exact_identity(bool c = true) { return (identity_ = c, *this); }
  ReductionKernel& exact(ReductionExactFn f) { return (exact_ = std::move(f), *this); }
  ReductionKernel& tolerance(ReductionToleranceFn f) { return (tolerance_ = std::move(f), *this); }
  /// Where the tolerance is derived (a file and section), for reports.
  ReductionKernel& bound_derivation(std::string where) {
    return (derivation_ = std::move(where), *this);
  }
  /// The finite values the accuracy and associativity laws draw lie in [-max_abs, max_abs]
  /// (the reduction's declared domain; default 2^16); the special values law adds +-max_abs,
  /// +-inf and NaN.
  ReductionKernel& max_abs(float m) { return (max_abs_ = m, *this); }
  /// Claims that this reduction's root states and finalised results have the bits of the
  /// registered reduction `name`'s on every schedule: a device reduction names its CPU model
  /// (the cpu_model law).
  ReductionKernel& cpu_model(std::string name) { return (cpu_model_ = std::move(name), *this); }

  // --- reading the declaration
  const std::vector<FieldSpec>& state_fields() const { return state_fields_; }
  const std::vector<FieldSpec>& result_fields() const { return result_fields_; }
  bool bitwise_commutative() const { return commutative_; }
  bool exact_identity() const { return identity_; }
  const ReductionExactFn& exact() const { return exact_; }
  /// The declared tolerance of a result field, 0 (exact) when none is declared.
  double tolerance(std::size_t field, const ReductionShape& s) const {
    return tolerance_ ? tolerance_(field, s) : 0.0;
  }
  bool has_tolerance() const { return static_cast<bool>(tolerance_); }
  const std::string& bound_derivation() const { return derivation_; }
  float max_abs() const { return max_abs_; }
  /// The reduction claimed equal bit for bit, "" when none is.
  const std::string& cpu_model() const { return cpu_model_; }

 private:
  std::vector<FieldSpec> state_fields_;
  std::vector<FieldSpec> result_fields_;
  bool commutative_ = false;
  bool identity_ = false;
  ReductionExactFn exact_;
  ReductionToleranceFn tolerance_;
  std::string derivation_;
  float max_abs_ = 65536.0f;
  std::string cpu_model_;
};

/// Why a reduction's declaration is unusable, or "": no name or callable, no state or result
/// field, no exact reference, a domain that is not a positive finite float, a CPU model naming
/// the reduction itself, or a skip / known
/// defect naming no reduction law (registry.h's register_kernel refuses it with this text).
std::string declaration_problem(const ReductionKernel& k);

}  // namespace osvs
