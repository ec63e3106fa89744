// The row-wise kind's tests' one way of running a law on a kernel that must break it: the first
// failure, shrunk for 5 s and printed, or nothing (rowwise_kind_test.cpp, row_reductions_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <iostream>
#include <optional>

#include "law_run.h"

namespace osvs::test {

inline std::optional<RowwiseCase> counterexample(const RowwiseKernel& k, const char* law) {
  const auto run = testbed::run_law<RowwiseKind>(*RowwiseKind::find_law(law), k, 5,
                                                 [](const Verdict&, const RowwiseCase&) {});
  EXPECT_FALSE(run.errored()) << run.property_failure;
  if (run.failed())
    std::cout << "[ osvs     ] " << k.name() << " fails " << law << " ("
              << RowwiseKind::summary(*run.smallest)
              << "): " << run.smallest_verdict.explanation.substr(0, 300) << "\n";
  return run.smallest;
}

}  // namespace osvs::test
