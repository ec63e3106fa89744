// The check every validation test makes: a launch refused with a message that says why.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "osvs/kernels/executor.h"

namespace osvs::test {

/// Runs `launch`, which must throw InvalidLaunch with `fragment` in its message; a launch that
/// throws nothing is a failure too.
template <class Launch>
void expect_refused(Launch launch, const std::string& fragment) {
  try {
    launch();
  } catch (const InvalidLaunch& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    return;
  }
  ADD_FAILURE() << "accepted a bad launch; expected a refusal naming: " << fragment;
}

}  // namespace osvs::test
