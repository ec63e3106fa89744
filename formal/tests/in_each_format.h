// The fixture of the tests that run once in each narrow state format (bf16, fp16: the test's
// parameter): the proof options in that format, and the format's name as the instance's name
// (Formats/<suite>.<test>/bf16). narrow_test.cpp and regression_file_test.cpp use it.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "osvs/formal/format.h"
#include "osvs/formal/prove.h"

namespace osvs::formal {

class InEachFormat : public ::testing::TestWithParam<Format> {
 protected:
  /// The default proof options, in the test's format.
  ProveOptions options() const {
    ProveOptions o;
    o.format = GetParam();
    return o;
  }
};

/// The name of an instance of a test over formats: its format's.
inline std::string format_name(const ::testing::TestParamInfo<Format>& info) {
  return info.param.name;
}

}  // namespace osvs::formal
