// The operators under test (osvs/api/combine.h).
#include <stdexcept>
#include <string>

#include "osvs/api/combine.h"
#include "osvs/properties/suite.h"

namespace osvs {
namespace {

std::vector<RegisteredCombineTest>& entries() {
  static std::vector<RegisteredCombineTest> e;  // first use: registrations run at static init
  return e;
}

void require_law(const std::vector<LawSpec>& laws, const std::string& law, const char* what,
                 CombineKind kind) {
  for (const LawSpec& l : laws)
    if (l.property == law) return;
  std::string known;
  for (const LawSpec& l : laws) known += (known.empty() ? "" : ", ") + l.property;
  throw std::invalid_argument(std::string("combine ") + to_string(kind) + ": " + what + " '" + law +
                              "' is not a combine law (" + known + ")");
}

}  // namespace

void register_combine_test(CombineKind kind, CombineTest test) {
  for (const RegisteredCombineTest& e : entries())
    if (e.kind == kind)
      throw std::invalid_argument(std::string("combine ") + to_string(kind) +
                                  " is put under test twice");
  const auto laws = combine_laws(kind);
  for (const auto& [law, reason] : test.known_defects())
    require_law(laws, law, "known defect", kind);
  for (const auto& [law, reason] : test.skips()) require_law(laws, law, "skip", kind);
  entries().push_back({kind, std::move(test)});
}

const std::vector<RegisteredCombineTest>& combine_tests() {
  return entries();
}

}  // namespace osvs
