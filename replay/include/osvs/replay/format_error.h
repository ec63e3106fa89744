// The one error a regression file can raise when it is read: it names the file and the JSON path
// of the offending field, e.g. "reports/regressions/commutativity/ab12.json: input.states[1].d:
// expected a hex float string, got 3".
#pragma once

#include <stdexcept>
#include <string>

namespace osvs {

/// A regression file that is not valid JSON, has the wrong schema, or has a bad field.
class RegressionFormatError : public std::runtime_error {
 public:
  /// `file` may be empty (text not read from a file); `field` is a JSON path ("" for the whole).
  RegressionFormatError(std::string file, std::string field, const std::string& problem);
  const std::string& file() const { return file_; }
  const std::string& field() const { return field_; }

 private:
  std::string file_;
  std::string field_;
};

}  // namespace osvs
