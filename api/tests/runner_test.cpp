// The runner catches a kernel that misuses memory or throws, and names it.
#include <gtest/gtest.h>

#include "misbehaving_kernels.h"
#include "osvs/api/runner.h"

namespace osvs::test {
namespace {

const Rows kRows = {{1, 2, 3}, {0, -1, 4}};

std::string failure_of(const RowKernel& k, Layout layout = {}) {
  try {
    run_row_kernel(k, kRows, layout);
  } catch (const KernelFailure& e) {
    return e.what();
  }
  return "";
}

TEST(Runner, ACorrectKernelsOutputsComeBack) {
  const auto out = run_row_kernel(host_kernel("good", good_softmax), kRows, {3, 5});
  ASSERT_EQ(out.y.size(), 6u);
  // [1, 2, 3]: the lesson's state (3, d = e^-2 + e^-1 + 1 = 1.503214...), y_j = e^(x_j - 3) / d
  const double d = std::exp(-2.0) + std::exp(-1.0) + 1;
  EXPECT_NEAR(out.y[0], std::exp(-2.0) / d, 1e-7);
  EXPECT_NEAR(out.y[2], 1 / d, 1e-7);
}

TEST(Runner, NamesAKernelThatWritesBeforeItsOutput) {
  const auto k = host_kernel("before", [](const RowProblem& p) {
    good_softmax(p);
    p.y<float>()[-1] = 0;
  });
  const std::string why = failure_of(k);
  EXPECT_NE(why.find("kernel 'before' wrote before its output"), std::string::npos) << why;
}

TEST(Runner, NamesAKernelThatWritesPastItsOutput) {
  const auto k = host_kernel("past", [](const RowProblem& p) {
    good_softmax(p);
    p.y<float>()[p.rows * p.y_stride] = 0;
  });
  const std::string why = failure_of(k);
  EXPECT_NE(why.find("kernel 'past' wrote past the end"), std::string::npos) << why;
}

TEST(Runner, NamesAKernelThatWritesIntoRowPadding) {
  const auto k = host_kernel("dense", [](const RowProblem& p) {
    RowProblem dense = p;
    dense.x_stride = dense.y_stride = p.cols;  // ignores the strides it is given
    good_softmax(dense);
  });
  const std::string why = failure_of(k, {0, 2});
  EXPECT_NE(why.find("kernel 'dense' wrote into row 0's padding"), std::string::npos) << why;
}

TEST(Runner, NamesAKernelThatLeavesAnOutputUnwritten) {
  const auto k = host_kernel("lazy", [](const RowProblem& p) {
    RowProblem short_rows = p;
    short_rows.cols -= 1;
    good_softmax(short_rows);
  });
  const std::string why = failure_of(k);
  EXPECT_NE(why.find("kernel 'lazy' left y[0][2] unwritten"), std::string::npos) << why;
}

TEST(Runner, NamesAKernelThatModifiesItsInput) {
  const auto k = host_kernel("in_place", [](const RowProblem& p) {
    good_softmax(p);
    const_cast<float*>(p.x<float>())[0] = 7;
  });
  EXPECT_NE(failure_of(k).find("kernel 'in_place' modified its input"), std::string::npos);
}

TEST(Runner, NamesAKernelThatThrows) {
  const auto k = host_kernel(
      "thrower", [](const RowProblem&) { throw std::runtime_error("out of workspace"); });
  EXPECT_EQ(failure_of(k), "kernel 'thrower' threw: out of workspace");
}

TEST(Runner, RefusesInputsTheKernelCannotTake) {
  const auto k = host_kernel("good", good_softmax).types(DType::BF16, DType::F32);
  EXPECT_THROW(run_row_kernel(k, {{0x1.001p0f}}), std::invalid_argument);  // not a bf16 value
  EXPECT_THROW(run_row_kernel(k, {{1, 2}, {3}}), std::invalid_argument);   // ragged
  EXPECT_THROW(run_row_kernel(host_kernel("d", good_softmax).strided(false), kRows, {1, 0}),
               std::invalid_argument);
}

TEST(Runner, AnEmptyRowIsPassedThroughAndMustNotBeWritten) {
  const auto k = host_kernel("empty_writer", [](const RowProblem& p) { p.y<float>()[0] = 1; });
  try {
    run_row_kernel(k, {{}});
    FAIL() << "a write into a row of length 0 went unnoticed";
  } catch (const KernelFailure& e) {
    EXPECT_NE(std::string(e.what()).find("past the end"), std::string::npos) << e.what();
  }
}

TEST(Runner, ADeviceKernelRunsWhereADeviceIsAndIsUnavailableElsewhere) {
  std::string why;
  const bool device = device_available(&why);
  // A device kernel that launches nothing and writes nothing: wherever it can run, the runner
  // must name the outputs it left unwritten; without a device it is unavailable, never failed.
  const auto k = RowKernel("idle_device_kernel", Where::Device).run([](const RowProblem&) {});
  EXPECT_EQ(runnable(k, &why), device) << why;
  if (device) {
    try {
      run_row_kernel(k, kRows);
      FAIL() << "unwritten device outputs went unnoticed";
    } catch (const KernelFailure& e) {
      EXPECT_NE(std::string(e.what()).find("left y[0][0] unwritten"), std::string::npos)
          << e.what();
    }
  } else {
    EXPECT_THROW(run_row_kernel(k, kRows), DeviceUnavailable);
    EXPECT_FALSE(why.empty());
  }
}

}  // namespace
}  // namespace osvs::test
