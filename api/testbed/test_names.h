// GoogleTest names of the testbed's tests, made from kernel names.
#pragma once

#include <cctype>
#include <string>

namespace osvs::testbed {

/// s with every character other than a letter or digit replaced by '_' (GoogleTest's rule).
inline std::string test_name(const std::string& s) {
  std::string out = s;
  for (char& ch : out)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return out;
}

}  // namespace osvs::testbed
