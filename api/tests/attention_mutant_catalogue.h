// The attention mutants' catalogues: osvs's tiled attention kernel
// (api/builtin/tiled_attention_row.h) and its backward kernel
// (api/builtin/tiled_attention_backward.h), each with one defect a mutant, as policies of the same
// code, made of the lists that declare those policies (OSVS_TILED_ATTENTION_MUTANTS in
// attention_mutant_policies.h, OSVS_TILED_ATTENTION_BACKWARD_MUTANTS in
// attention_backward_mutant_policies.h), each mutant run by an executor's
// Run<Policy>::run: the host's (attention_mutants_test.cpp, attention_backward_mutants_test.cpp) or
// the device's (tiled_attention_device_run.h). Free of the test framework, so that nvcc
// instantiates the device's catalogues (tiled_attention_device_mutants.cu,
// tiled_attention_backward_device_mutants.cu); the check is attention_mutants.h.
#pragma once

#include <cstdint>
#include <vector>

#include "attention_backward_mutant_policies.h"
#include "attention_mutant_policies.h"

namespace osvs::test {

struct Mutant {
  const char* name;
  void (*run)(const AttentionProblem&);
  /// The fewest query heads that show the defect: 2 unless it needs more.
  int min_heads_q = 2;
  /// The first law (in the table's order) that must kill it (or one of several, space-separated),
  /// and another law that must kill it too, or null.
  const char* killed_by = nullptr;
  const char* also_killed_by = nullptr;
  /// The most keys a sequence of its shrunk case may need.
  std::int64_t max_keys = 8;
};

/// A catalogue's row (OSVS_TILED_ATTENTION_MUTANTS's, OSVS_TILED_ATTENTION_BACKWARD_MUTANTS's): the
/// mutant `name`, run by Run<Policy>::run, with its expectations.
#define OSVS_ATTENTION_MUTANT_ROW(Policy, member, value, name, ...) \
  Mutant{#name, Run<Policy>::run, __VA_ARGS__},

/// The forward kernel's catalogue, each mutant run by Run<Policy>::run.
template <template <class> class Run>
std::vector<Mutant> attention_mutants() {
  return {OSVS_TILED_ATTENTION_MUTANTS(OSVS_ATTENTION_MUTANT_ROW)};
}

/// The backward kernel's catalogue, each mutant run by Run<Policy>::run.
template <template <class> class Run>
std::vector<Mutant> attention_backward_mutants() {
  return {OSVS_TILED_ATTENTION_BACKWARD_MUTANTS(OSVS_ATTENTION_MUTANT_ROW)};
}

#undef OSVS_ATTENTION_MUTANT_ROW

}  // namespace osvs::test
