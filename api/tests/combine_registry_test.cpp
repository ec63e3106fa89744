// The combine registry as a user meets it: an operator type becomes an entry whose host orders
// are its own, names are unique, declarations are checked, and an operator registered from host
// code says so when asked for the GPU.
#include <gtest/gtest.h>

#include "osvs/api/law_names.h"
#include "osvs/kernels/executor.h"
#include "osvs/kernels/validate.h"
#include "osvs/osvs.h"

namespace osvs {
namespace {

/// The hardened operator under another name: the test's own operator type.
struct RenamedHardened : HardenedCombine {
  static constexpr const char* kName = "renamed_hardened_for_test";
};
/// An operator whose combine is plainly wrong (the larger m, d = 1): its entry must run it.
struct ConstantD : HardenedCombine {
  static constexpr const char* kName = "constant_d_for_test";
  static State combine(State a, State b) { return State{a.m > b.m ? a.m : b.m, 1.0f}; }
};

constexpr CombineOperator kRenamed = combine_operator<RenamedHardened>(nullptr);
constexpr CombineOperator kConstantD = combine_operator<ConstantD>(nullptr);
constexpr CombineOperator kSeedAgain = combine_operator<SeedCombine>(nullptr);

TEST(CombineRegistry, AUserOperatorIsFoundByNameAndRunsItsOwnCode) {
  const CombineKind renamed = register_combine(&kRenamed);
  const CombineKind constant = register_combine(&kConstantD);
  EXPECT_EQ(parse_combine("renamed_hardened_for_test"), renamed);
  EXPECT_FALSE(is_mutant(renamed));
  EXPECT_TRUE(algebra_of(renamed).exact_identity);
  const auto cpu = make_cpu_executor();
  const std::vector<State> a{{1.0f, 3.0f}}, b{{2.0f, 5.0f}};
  EXPECT_EQ(cpu->combine_pairs(constant, a, b)[0].d, 1.0f);
  EXPECT_NE(cpu->combine_pairs(renamed, a, b)[0].d, 1.0f);
  const auto all = registered_combines();
  EXPECT_NE(std::find(all.begin(), all.end(), renamed), all.end());
}

TEST(CombineRegistry, NamesAreUnique) {
  EXPECT_THROW(register_combine(&kSeedAgain), std::invalid_argument);  // osvs's own "seed"
}

TEST(CombineRegistry, AHostOnlyOperatorRefusesTheGpuByName) {
  const auto k = parse_combine("renamed_hardened_for_test");
  ASSERT_TRUE(k);
  try {
    device_ops(*k);
    FAIL() << "an operator without device launchers was given to the GPU";
  } catch (const InvalidLaunch& e) {
    EXPECT_NE(std::string(e.what()).find("renamed_hardened_for_test"), std::string::npos);
  }
}

TEST(CombineRegistry, MutantsComeFromTheRegistryWithTheirOriginal) {
  const auto mutants = registered_mutants();
  EXPECT_EQ(mutants.size(), std::size(kMutantCombines));
  for (CombineKind m : mutants) {
    EXPECT_NE(original_of(m), m);
    EXPECT_NE(m.op().defect, nullptr);
  }
  EXPECT_EQ(original_of(CombineKind::MutantFastExp), CombineKind::Hardened);
}

/// A misspelt law in a combine declaration is a registration error that names it and lists
/// every combine law (registry.h's declaration_problem, as for every kind).
TEST(CombineRegistry, ATestDeclarationMustNameACombineLaw) {
  const auto refusal = [](const CombineTest& t) -> std::string {
    try {
      register_combine_operator(&CombineKind::MutantNoRescale.op(), t);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  const std::string skip = refusal(CombineTest().skip("comutativity", "x"));
  EXPECT_NE(skip.find("skip 'comutativity' is not a combine law ("), std::string::npos) << skip;
  for (std::string_view law : kCombineLawNames)
    EXPECT_NE(skip.find(law), std::string::npos) << "the valid laws are listed: " << skip;
  const std::string defect = refusal(CombineTest().known_defect("accuracy", "x", CombineSide::Gpu));
  EXPECT_NE(defect.find("known defect 'accuracy' is not a combine law"), std::string::npos)
      << defect;
  EXPECT_EQ(find_registered<CombineKernel>(CombineKind::MutantNoRescale.op().name), nullptr)
      << "a refused declaration registered nothing";
}

}  // namespace
}  // namespace osvs
