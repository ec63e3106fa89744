#include "osvs/replay/format_error.h"

namespace osvs {
namespace {

std::string compose(const std::string& file, const std::string& field, const std::string& problem) {
  std::string msg = file.empty() ? std::string("<text>") : file;
  if (!field.empty()) msg.append(": ").append(field);
  msg.append(": ").append(problem);
  return msg;
}

}  // namespace

RegressionFormatError::RegressionFormatError(std::string file, std::string field,
                                             const std::string& problem)
    : std::runtime_error(compose(file, field, problem)),
      file_(std::move(file)),
      field_(std::move(field)) {}

}  // namespace osvs
