// The attention backward mutants' check: osvs's attention backward kernel
// (api/builtin/tiled_attention_backward.h) with one defect each (the catalogue:
// attention_mutant_catalogue.h), under the attention laws as a registered backward kernel would
// be, by the forward mutants' check (attention_mutants.h's expect_killed_small, with the
// backward's declaration): every mutant killed by some law (the one it names first, where it
// names one), each counterexample shrunk to at most 2 sequences, 8 keys, head_dim 4, 2 kv heads
// and 2 query heads (3 for the defect an order of three terms shows).
#pragma once

#include "attention_mutants.h"
#include "tiled_attention_backward.h"

namespace osvs::test {

/// The backward mutant m, declared as osvs's backward kernel on `where` is (named
/// osvs.attention_backward_mutant.<name>), is killed small (expect_killed_small).
inline void expect_backward_killed_small(const Mutant& m, Where where) {
  expect_killed_small(m, where, builtin::declare_tiled_attention_backward,
                      "osvs.attention_backward_mutant.");
}

}  // namespace osvs::test
