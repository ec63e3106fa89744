// The row-kernel registry refuses a declaration naming a law that row kernels do not have.
#include <gtest/gtest.h>

#include <stdexcept>

#include "misbehaving_kernels.h"
#include "osvs/api/registry.h"
#include "osvs/api/row_laws.h"

namespace osvs::test {
namespace {

/// A misspelt law name in a row kernel's declaration is a registration error naming the valid
/// laws (as for merge kernels and combine operators), never silently ignored.
TEST(RowRegistry, RefusesAnUnknownLawNameInSkipOrKnownDefect) {
  const std::string skip =
      declaration_problem(host_kernel("typo", good_softmax).skip("accuarcy", "x"));
  EXPECT_NE(skip.find("kernel 'typo': skip 'accuarcy' is not a row-kernel law (accuracy, "
                      "sum_to_one, determinism,"),
            std::string::npos)
      << skip;
  const std::string defect =
      declaration_problem(host_kernel("typo", good_softmax).known_defect("permutations", "x"));
  EXPECT_NE(defect.find("known defect 'permutations' is not a row-kernel law"), std::string::npos)
      << defect;
  EXPECT_THROW(register_kernel(host_kernel("typo", good_softmax).skip("accuarcy", "x")),
               std::invalid_argument);
  for (const RowLaw& law : row_laws())
    EXPECT_EQ(declaration_problem(host_kernel("fine", good_softmax).skip(law.name, "x")), "")
        << law.name;
}

}  // namespace
}  // namespace osvs::test
