// Loading kernel plugins: the example plugin registers its kernels; anything else is refused
// with a message naming the file.
#include <gtest/gtest.h>

#include "osvs/api/plugin.h"
#include "osvs/api/registry.h"
#include "osvs/api/row_laws.h"

namespace osvs {
namespace {

TEST(Plugin, LoadsTheExampleAndItsKernelsRun) {
  const auto names = load_kernel_plugin(OSVS_EXAMPLE_PLUGIN);
  ASSERT_EQ(names.size(), 2u);
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

TEST(Plugin, RefusesWhatIsNotAPlugin) {
  EXPECT_THROW(load_kernel_plugin("/nonexistent/libnothing.so"), std::runtime_error);
  try {
    load_kernel_plugin(OSVS_NOT_A_PLUGIN);
    FAIL() << "a library without the entry point was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is not an osvs kernel plugin"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace osvs
