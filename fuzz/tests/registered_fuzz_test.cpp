// The fuzz run over the registry: every byte string decodes to a judged case or to nothing to
// run (never an exception), every kind is reached, a broken host kernel is found with a
// regression file that replays as failing, and a correct one never is.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include "builtin_reductions.h"
#include "builtin_softmax_backward.h"
#include "osvs/api/combine.h"
#include "osvs/api/merge_host_io.h"
#include "osvs/api/registry.h"
#include "osvs/api/regression.h"
#include "osvs/fuzz/registered_fuzz.h"
#include "osvs/kernels/attention/merge_model.h"
#include "osvs/kernels/stable_hash.h"
#include "tiled_attention.h"

namespace osvs::fuzz {
namespace {

/// A correct softmax in double, rounded once.
void exact_softmax(const RowProblem& p) {
  for (std::int64_t i = 0; i < p.rows; ++i) {
    const float* x = p.x<float>() + i * p.x_stride;
    float* y = p.y<float>() + i * p.y_stride;
    double m = -INFINITY, s = 0;
    for (std::int64_t j = 0; j < p.cols; ++j) m = std::fmax(m, x[j]);
    for (std::int64_t j = 0; j < p.cols; ++j) s += std::exp(x[j] - m);
    for (std::int64_t j = 0; j < p.cols; ++j) y[j] = static_cast<float>(std::exp(x[j] - m) / s);
  }
}

/// exact_softmax that forgets to normalise rows of three or more elements.
void unnormalised_softmax(const RowProblem& p) {
  exact_softmax(p);
  if (p.cols < 3) return;
  for (std::int64_t i = 0; i < p.rows; ++i)
    for (std::int64_t j = 0; j < p.cols; ++j) p.y<float>()[i * p.y_stride + j] *= 3;
}

/// Registers the test's kernels once: a correct and a broken row kernel, a correct merge, osvs's
/// tiled attention kernel (which holds its contract on every decoded case), osvs's logsumexp
/// reduction (which holds its laws on every decoded case) and osvs's reference softmax backward
/// (whose binary64 arithmetic meets the IEEE evaluation of special rows) and osvs's hardened
/// combine operator (which holds every combine law it claims): a kernel of every kind.
void register_test_kernels() {
  static const bool once = [] {
    for (const auto& [name, fn] : {std::pair{"test.exact", &exact_softmax},
                                   std::pair{"test.unnormalised", &unnormalised_softmax}})
      register_kernel(RowKernel(name, Where::Host)
                          .run(fn)
                          .accuracy(Accuracy::ulps(2))
                          .masked_rows(MaskedRow::NaN));
    register_kernel(MergeKernel("test.model_merge", Where::Host).run([](const MergeProblem& p) {
      store_result(p, merge_states_model(operand_a(p), operand_b(p), p.base));
    }));
    register_kernel(builtin::declare_tiled_attention(
        "test.tiled_attention", builtin::tiled_attention<builtin::TiledAttention>));
    register_kernel(builtin::logsumexp_kernel<builtin::LogsumexpReduction>("test.logsumexp"));
    register_kernel(builtin::reference_backward("test.softmax_backward", RowwiseOp::SoftmaxBackward,
                                                DType::F32));
    register_combine_operator(&CombineKind::Hardened.op(), CombineTest());  // its CPU model
    return true;
  }();
  (void)once;
}

/// Input i of a fixed stream of byte strings (64 to 575 bytes of SplitMix64 output).
std::vector<std::uint8_t> input(std::uint64_t i) {
  std::vector<std::uint8_t> bytes(64 + splitmix64_mix(i) % 512);
  for (std::size_t b = 0; b < bytes.size(); ++b)
    bytes[b] = static_cast<std::uint8_t>(splitmix64_mix(i * 1000003 + b) >> 56);
  return bytes;
}

TEST(RegisteredFuzz, FindsTheBrokenKernelAndOnlyIt) {
  register_test_kernels();
  std::set<std::string> kinds, found_in;
  int ran = 0;
  std::string replayable;
  for (std::uint64_t i = 0; i < 600; ++i) {
    const std::vector<std::uint8_t> bytes = input(i);
    const RegisteredRun r = fuzz_registered(bytes);
    if (!r.ran) continue;
    ++ran;
    kinds.insert(r.kind);
    if (!r.finding) continue;
    found_in.insert(r.kernel);
    if (r.kind == "row" && replayable.empty()) replayable = r.regression;
  }
  EXPECT_EQ(ran, 600) << "every input has a kernel and a law of its kind to run";
  EXPECT_EQ(kinds, (std::set<std::string>{"row", "merge", "attention", "reduction", "rowwise",
                                          "combine"}));
  EXPECT_EQ(found_in, (std::set<std::string>{"test.unnormalised"}));
  ASSERT_FALSE(replayable.empty());
  const Regression<RowKind> reg = regression_from_json<RowKind>(replayable);
  const RowKernel* broken = RowKind::find_kernel("test.unnormalised");
  ASSERT_NE(broken, nullptr);
  EXPECT_NE(replay_regression<RowKind>(*broken, reg), "") << "the broken kernel still fails";
  EXPECT_EQ(replay_regression<RowKind>(*RowKind::find_kernel("test.exact"), reg), "")
      << "the correct kernel holds the law on the saved case";
}

TEST(RegisteredFuzz, EveryByteStringDecodes) {
  register_test_kernels();
  for (std::size_t n = 0; n < 64; ++n) {
    const std::vector<std::uint8_t> zeros(n, 0), ones(n, 0xff);
    EXPECT_NO_THROW(fuzz_registered(zeros));
    EXPECT_NO_THROW(fuzz_registered(ones));
  }
}

}  // namespace
}  // namespace osvs::fuzz
