// Loading kernel plugins: the example plugin registers its kernels; anything else is refused
// with a message naming the file.
#include <gtest/gtest.h>

#include "osvs/api/kind.h"
#include "osvs/api/plugin.h"
#include "osvs/api/registry.h"
#include "osvs/api/row_laws.h"

namespace osvs {
namespace {

TEST(Plugin, LoadsTheExampleAndItsKernelsRun) {
  const PluginKernels names = load_kernel_plugin(OSVS_EXAMPLE_PLUGIN);
  ASSERT_EQ(names.of_kind(RowKind::name).size(), 2u);
  EXPECT_EQ(names.kernels.size(), 2u);  // no kernel of another kind
  const RowKernel* k = find_registered<RowKernel>("example.host_softmax");
  ASSERT_NE(k, nullptr);
  const Verdict v = find_row_law("accuracy")->check(*k, RowCase::of({{1, 2, 3}, {-1, 0, 1}}));
  EXPECT_TRUE(v.holds() && !is_not_judged(v)) << v.explanation;
  // Loading it twice would register the same names again: refused, naming the file.
  try {
    load_kernel_plugin(OSVS_EXAMPLE_PLUGIN);
    FAIL() << "a second load registered kernels twice";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("registered twice"), std::string::npos) << e.what();
  }
}

/// Merge kernels come through the same loader: the merge example's host twin is registered and
/// runs under the merge laws.
TEST(Plugin, LoadsMergeKernels) {
  const PluginKernels names = load_kernel_plugin(OSVS_MERGE_PLUGIN);
  EXPECT_TRUE(names.of_kind(RowKind::name).empty());
  ASSERT_FALSE(names.of_kind(MergeKind::name).empty());
  const MergeKernel* k = find_registered<MergeKernel>("example.merge_attn_states.host");
  ASSERT_NE(k, nullptr);
  const MergeLaw* law = MergeKind::find_law("commutativity");
  ASSERT_NE(law, nullptr);
  MergeCase c;
  c.parts = {AttnStates{2, 3, DType::F32, {0.5f, -1.0f}, {1, 2, 3, 4, 5, 6}},
             AttnStates{2, 3, DType::F32, {0.25f, 1.0f}, {-1, 0, 7, 8, 9, 10}}};
  const Verdict v = MergeKind::check(*law, *k, c);
  EXPECT_TRUE(v.holds() && !is_not_judged(v)) << v.explanation;
}

/// Combine operators come through the same loader: the combine example's operator is registered
/// (its CPU model, and its device kernel where the plugin was compiled by nvcc) and its code, in
/// the plugin, runs under the combine laws here, its declared defect included.
TEST(Plugin, LoadsCombineOperators) {
  const PluginKernels names = load_kernel_plugin(OSVS_COMBINE_PLUGIN);
  const std::vector<std::string> combines = names.of_kind(CombineOperatorKind::name);
  EXPECT_EQ(combines.size(), names.kernels.size()) << "no kernel of another kind";
  const CombineKernel* k = find_registered<CombineKernel>("engine_combine");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->known_defects().count("identity_right"), 1u);
  CombineCase finite;
  finite.states = {State{0x1.8p+3f, 0x1p-2f}, State{-0x1p+100f, 0x1p+0f}};
  const Verdict holds =
      CombineOperatorKind::check(*CombineOperatorKind::find_law("identity_left"), *k, finite);
  EXPECT_TRUE(holds.holds() && !is_not_judged(holds)) << holds.explanation;
  CombineCase nan_state;
  nan_state.states = {State{NAN, NAN}};
  const Verdict defect =
      CombineOperatorKind::check(*CombineOperatorKind::find_law("identity_right"), *k, nan_state);
  EXPECT_TRUE(defect.fails()) << "the example's declared defect shows through the plugin";
}

TEST(Plugin, RefusesWhatIsNotAPlugin) {
  EXPECT_THROW(load_kernel_plugin("/nonexistent/libnothing.so"), std::runtime_error);
  try {
    load_kernel_plugin(OSVS_NOT_A_PLUGIN);
    FAIL() << "a library without the entry point was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is not a plugin of this osvs"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace osvs
