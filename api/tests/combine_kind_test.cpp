// Combine operators as a kind of the one mechanism (osvs/api/kind.h): an operator registered
// with OSVS_REGISTER_COMBINE is a kernel of the combine kind on each side it runs on, with the
// declarations of that side; its laws run through the law run that every kind shares; its
// failures are combine regression files that round-trip and replay to the same verdict.
#include <gtest/gtest.h>

#include <filesystem>

#include "law_run.h"
#include "osvs/api/kind.h"
#include "osvs/api/law_names.h"
#include "osvs/api/regression.h"
#include "osvs/kernels/executor.h"
#include "osvs/osvs.h"

namespace osvs {
namespace {

/// osvs's seed operator under a name of the test's own: (-inf, 0) is not its identity
/// (combine_seed.h: -inf - -inf = NaN), a defect the CPU model shows.
struct SeedForKindTest : SeedCombine {
  static constexpr const char* kName = "seed_for_kind_test";
};
OSVS_REGISTER_COMBINE(seed_for_kind_test, SeedForKindTest) {
  return CombineTest().known_defect("identity_right", "(-inf, 0) is not its identity");
}

/// Device launchers that are never called: they make an operator that runs on both sides, so
/// that the split of its declarations between its two kernels can be seen without a GPU.
constexpr CombineDeviceOps kNeverLaunched{};
struct SidesForKindTest : HardenedCombine {
  static constexpr const char* kName = "sides_for_kind_test";
};
constexpr CombineOperator kSides = combine_operator<SidesForKindTest>(&kNeverLaunched);
const bool sides_registered =
    (register_combine_operator(&kSides,
                               CombineTest()
                                   .known_defect("commutativity", "device only", CombineSide::Gpu)
                                   .known_defect("identity_left", "host only", CombineSide::Cpu)
                                   .known_defect("warp_reduce", "both")
                                   .skip("tree_invariance", "not today")),
     true);

const CombineKernel& kernel(const std::string& name) {
  const CombineKernel* k = CombineOperatorKind::find_kernel(name);
  if (!k) throw std::logic_error("no combine kernel " + name);
  return *k;
}

TEST(CombineKind, IsAKindOfTheOneList) {
  EXPECT_EQ(visit_kind("combine", [](auto k) { return std::string(decltype(k)::name); }),
            "combine");
  const CombineKernel& k = kernel("seed_for_kind_test");
  EXPECT_EQ(k.where(), Where::Host);
  EXPECT_EQ(combine_handle(k), CombineKind(k.op())) << "an operator already registered is found";
  // Registered from host code (this file is compiled by the C++ compiler): no device kernel.
  EXPECT_EQ(CombineOperatorKind::find_kernel("seed_for_kind_test.device"), nullptr);
  std::vector<std::string> laws;
  for (const CombineLaw& l : CombineOperatorKind::laws()) laws.push_back(l.name);
  EXPECT_EQ(laws,
            std::vector<std::string>(std::begin(kCombineLawNames), std::end(kCombineLawNames)));
}

TEST(CombineKind, EachSideGetsItsOwnDeclarations) {
  ASSERT_TRUE(sides_registered);
  const CombineKernel& host = kernel("sides_for_kind_test");
  const CombineKernel& device = kernel("sides_for_kind_test.device");
  EXPECT_EQ(device.where(), Where::Device);
  EXPECT_EQ(host.known_defects(), (std::map<std::string, std::string>{
                                      {"identity_left", "host only"}, {"warp_reduce", "both"}}));
  EXPECT_EQ(device.known_defects(),
            (std::map<std::string, std::string>{{"commutativity", "device only"},
                                                {"warp_reduce", "both"}}));
  EXPECT_EQ(host.skips(), device.skips());
  const CombineLaw* tree = CombineOperatorKind::find_law("tree_invariance");
  EXPECT_NE(why_skipped<CombineOperatorKind>(host, *tree).find("not today"), std::string::npos);
  std::string why;
  EXPECT_EQ(runnable(device, &why), cuda_device_count() > 0) << why;
}

TEST(CombineKind, ADeviceKernelNeedsDeviceLaunchers) {
  const CombineKernel k("seed_for_kind_test.device", Where::Device,
                        kernel("seed_for_kind_test").op());
  EXPECT_NE(declaration_problem(k).find("no device launchers"), std::string::npos)
      << declaration_problem(k);
}

TEST(CombineKind, AnUnclaimedLawIsLeftOutUnlessDeclaredADefect) {
  // The seed does not claim the true identity (combine_seed.h); identity_right is declared a
  // known defect of it, identity_left is not.
  const CombineKernel& k = kernel("seed_for_kind_test");
  EXPECT_EQ(why_skipped<CombineOperatorKind>(k, *CombineOperatorKind::find_law("identity_right")),
            "");
  EXPECT_NE(why_skipped<CombineOperatorKind>(k, *CombineOperatorKind::find_law("identity_left"))
                .find("does not claim"),
            std::string::npos);
}

TEST(CombineKind, TheLawRunFindsTheDeclaredDefectAndShrinksIt) {
  const CombineKernel& k = kernel("seed_for_kind_test");
  const CombineLaw& law = *CombineOperatorKind::find_law("identity_right");
  const auto run =
      testbed::run_law<CombineOperatorKind>(law, k, 5.0, [](const Verdict&, const CombineCase&) {});
  ASSERT_TRUE(run.failed()) << run.property_failure;
  // One state fails the law by itself: the reductions leave at most the pair RapidCheck's
  // shrinking stops at (kSmallCombineCase, 4, is the suite's stated limit).
  EXPECT_LE(run.smallest->states.size(), 4u);
  EXPECT_TRUE(CombineOperatorKind::check(law, k, *run.smallest).fails());
}

TEST(CombineKind, ARegressionFileRoundTripsAndReplaysToTheSameVerdict) {
  const CombineKernel& k = kernel("seed_for_kind_test");
  const CombineLaw& law = *CombineOperatorKind::find_law("identity_right");
  CombineCase c;
  c.states = {identity_state(), State{0x1.8p+3f, 0x1p-2f}};
  c.rows = {{1.0f, -0.0f, 0x1p-149f}};  // read by no state law: kept bit for bit all the same
  c.schedules = {HarnessCase{{}, {0, 1, 3}, {1, 0}, {{0, 1}}, 0}};
  const Verdict v = CombineOperatorKind::check(law, k, c);
  ASSERT_TRUE(v.fails()) << "the seed's (-inf, 0) (+) (-inf, 0) is NaN: " << v.explanation;
  const auto r = testbed::regression_of<CombineOperatorKind>(k, law, c, v, "combine kind test");
  EXPECT_FALSE(r.expect_holds) << "a declared known defect";
  const auto root = std::filesystem::temp_directory_path() / "osvs_combine_regression_test";
  std::filesystem::remove_all(root);
  const auto path = write_regression(r, root);
  EXPECT_EQ(path.parent_path().filename(), "seed_for_kind_test");
  const auto read = read_regressions<CombineOperatorKind>(root, k.name());
  ASSERT_EQ(read.size(), 1u);
  const auto& back = read.front().second;
  EXPECT_EQ(to_json(back), to_json(r)) << "every field and float survives the file";
  EXPECT_EQ(regression_kind(to_json(r)), "combine");
  EXPECT_EQ(replay_regression<CombineOperatorKind>(k, back), "") << "the defect still shows";
  EXPECT_EQ(CombineOperatorKind::check(law, k, back.input).explanation, v.explanation);
  auto holds = back;
  holds.expect_holds = true;
  EXPECT_NE(replay_regression<CombineOperatorKind>(k, holds).find("the law fails again"),
            std::string::npos);
  std::filesystem::remove_all(root);
}

TEST(CombineKind, AMalformedCaseIsRefusedNamingTheField) {
  const std::string text =
      R"({"osvs_combine_regression": 1, "kernel": "seed_for_kind_test", "law": "commutativity",
          "expect": "holds", "note": "", "found": "", "explanation": "",
          "input": {"states": [["0x1p+0"]], "state_format": "f32", "rows": [], "schedules": []}})";
  try {
    regression_from_json<CombineOperatorKind>(text);
    FAIL() << "a state without its d was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("input.states[]"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace osvs
