// The operators under test (osvs/api/combine.h).
#include <stdexcept>
#include <string>

#include "entry_registry.h"
#include "osvs/api/combine.h"
#include "osvs/properties/suite.h"

namespace osvs {
namespace {

std::vector<RegisteredCombineTest>& entries() {
  static std::vector<RegisteredCombineTest> e;  // first use: registrations run at static init
  return e;
}

/// The combine laws' names for `kind`, what its declaration's skip and known defect may name.
std::vector<std::string> combine_law_names(CombineKind kind) {
  std::vector<std::string> names;
  for (const LawSpec& l : combine_laws(kind)) names.push_back(l.property);
  return names;
}

}  // namespace

void register_combine_test(CombineKind kind, CombineTest test) {
  for (const RegisteredCombineTest& e : entries())
    if (e.kind == kind)
      throw std::invalid_argument(std::string("combine ") + to_string(kind) +
                                  " is put under test twice");
  if (std::string why = api::declared_law_problem(std::string("combine ") + to_string(kind), test,
                                                  combine_law_names(kind), "combine law");
      !why.empty())
    throw std::invalid_argument(why);
  entries().push_back({kind, std::move(test)});
}

const std::vector<RegisteredCombineTest>& combine_tests() {
  return entries();
}

}  // namespace osvs
