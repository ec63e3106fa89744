// Every claimed law of a formal operator (operators.cpp) under some proof options: a law it
// expects proven is proven over its domain; a known defect yields a counterexample that the
// concrete arithmetic of the options' format reproduces. laws_test.cpp (f32) and narrow_test.cpp
// (bf16, fp16) hold every operator to it.
#pragma once

#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "osvs/formal/operators.h"

namespace osvs::formal {

inline void check_claimed_laws(const std::string& name, const ProveOptions& options = {}) {
  const FormalOperator& op = find_formal_operator(name);
  for (const LawClaim& c : op.laws) {
    if (!c.claimed) continue;  // the seed's unclaimed laws: seed_test.cpp
    const ProofResult r = op.prove(c.law, c.domain, options);
    if (c.expect_proof()) {
      EXPECT_TRUE(r.proven) << describe(r);
    } else {
      ASSERT_TRUE(r.counterexample.has_value()) << describe(r);
      EXPECT_TRUE(r.counterexample->reproduced) << describe(r);
    }
    std::cout << describe(r) << "\n";
  }
}

}  // namespace osvs::formal
