// Merge kernels through the API: the runner catches a kernel that misuses memory, throws or
// leaves a CUDA error and names it; the registry refuses unusable declarations; the empty
// representation is translated; regression files round-trip bit for bit and replay.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "osvs/api/merge_host_io.h"
#include "osvs/api/merge_laws.h"
#include "osvs/api/merge_runner.h"
#include "osvs/api/registry.h"
#include "osvs/api/regression.h"
#include "osvs/kernels/attention/merge_model.h"
#include "regression_record.h"

namespace osvs::test {
namespace {

/// Two f32 partials of 2 rows x head_dim 3.
const AttnStates kA{2, 3, DType::F32, {0.5f, -INFINITY}, {1, 2, 3, 4, 5, 6}};
const AttnStates kB{2, 3, DType::F32, {0.25f, 1.0f}, {-1, 0, 7, 8, 9, 10}};

/// The CPU model's merge on the launch's buffers; lse_of_empty = +inf: a kernel that reads and
/// writes +inf for an empty partial.
void model_merge(const MergeProblem& p, float lse_of_empty = -INFINITY) {
  const auto translated = [&](AttnStates s, float from, float to) {
    for (float& x : s.lse)
      if (x == from) x = to;
    return s;
  };
  const float inf = INFINITY;
  AttnStates a = operand_a(p), b = operand_b(p);
  if (lse_of_empty == inf) a = translated(a, inf, -inf), b = translated(b, inf, -inf);
  const AttnStates out = merge_states_model(a, b, p.base);
  store_result(p, lse_of_empty == inf ? translated(out, -inf, inf) : out);
}

MergeKernel host_merge(const std::string& name, MergeKernelFn fn) {
  return MergeKernel(name, Where::Host).run(std::move(fn));
}

std::string failure_of(const MergeKernel& k) {
  try {
    run_merge_kernel(k, kA, kB, LseBase::E);
  } catch (const KernelFailure& e) {
    return e.what();
  }
  return "";
}

TEST(MergeRunner, ACorrectKernelsOutputsComeBack) {
  const AttnStates out = run_merge_kernel(
      host_merge("good", [](const MergeProblem& p) { model_merge(p); }), kA, kB, LseBase::E);
  // Row 1: a is empty, so the row is b's bit for bit.
  EXPECT_EQ(out.lse[1], 1.0f);
  EXPECT_EQ(out.o[3], 8.0f);
  // Row 0: lse = log(e^0.5 + e^0.25), o_0 = (e^0.5 * 1 + e^0.25 * -1) / (e^0.5 + e^0.25).
  const double wa = std::exp(0.5), wb = std::exp(0.25);
  EXPECT_NEAR(out.lse[0], std::log(wa + wb), 1e-6);
  EXPECT_NEAR(out.o[0], (wa - wb) / (wa + wb), 1e-6);
}

TEST(MergeRunner, NamesAKernelThatThrows) {
  const std::string why = failure_of(host_merge(
      "thrower", [](const MergeProblem&) { throw std::runtime_error("out of registers"); }));
  EXPECT_NE(why.find("merge kernel 'thrower' threw: out of registers"), std::string::npos) << why;
}

TEST(MergeRunner, NamesAKernelThatWritesPastItsOutput) {
  const std::string why = failure_of(host_merge("past", [](const MergeProblem& p) {
    model_merge(p);
    p.o_out<float>()[p.rows * p.head_dim] = 0;
  }));
  EXPECT_NE(why.find("merge kernel 'past' wrote past the end of its output o"), std::string::npos)
      << why;
}

TEST(MergeRunner, NamesAKernelThatLeavesAnOutputUnwritten) {
  const std::string why = failure_of(host_merge("lazy", [](const MergeProblem& p) {
    const float lse1 = p.lse_out[1];
    model_merge(p);
    p.lse_out[1] = lse1;  // the sentinel again
  }));
  EXPECT_NE(why.find("merge kernel 'lazy' left lse[1] unwritten"), std::string::npos) << why;
}

TEST(MergeRunner, NamesAKernelThatModifiesItsInputs) {
  const std::string why = failure_of(host_merge("scribbler", [](const MergeProblem& p) {
    model_merge(p);
    const_cast<float*>(p.lse_a)[0] = 0;
  }));
  EXPECT_NE(why.find("merge kernel 'scribbler' modified its input lse_a"), std::string::npos)
      << why;
}

TEST(MergeRunner, RefusesAnUndeclaredOType) {
  AttnStates a = kA, b = kB;
  a.o_type = b.o_type = DType::BF16;
  EXPECT_THROW(
      run_merge_kernel(host_merge("f32 only", [](const MergeProblem&) {}), a, b, LseBase::E),
      std::invalid_argument);
}

TEST(MergeRunner, ADeviceKernelWithoutADeviceIsUnavailableOrNamedOnError) {
  std::string why;
  const MergeKernel k =
      MergeKernel("device.nothing", Where::Device).run([](const MergeProblem&) {});
  if (!runnable(k, &why)) {
    EXPECT_THROW(run_merge_kernel(k, kA, kB, LseBase::E), DeviceUnavailable);
    GTEST_SKIP() << why << " (the refusal was checked; the device half needs a GPU)";
  }
  // With a device: a kernel that launches nothing leaves its outputs unwritten.
  EXPECT_THROW(run_merge_kernel(k, kA, kB, LseBase::E), KernelFailure);
}

TEST(MergeRegistry, RefusesUnusableDeclarations) {
  EXPECT_NE(declaration_problem(MergeKernel("no callable", Where::Host)), "");
  EXPECT_NE(declaration_problem(MergeKernel("", Where::Host).run([](const MergeProblem&) {})), "");
  const std::string why = declaration_problem(
      host_merge("typo", [](const MergeProblem&) {}).known_defect("comutativity", "typo"));
  EXPECT_NE(why.find("'comutativity' is not a merge law"), std::string::npos) << why;
  EXPECT_NE(declaration_problem(host_merge("no type", [](const MergeProblem&) {}).o_types({})), "");
  EXPECT_EQ(declaration_problem(host_merge("fine", [](const MergeProblem&) {})), "");
}

TEST(MergeLaws, APosInfEmptyKernelIsAskedInItsOwnRepresentation) {
  // The kernel reads +inf as empty and writes +inf for an empty result; the laws speak -inf.
  const MergeKernel k = host_merge("pos_inf", [](const MergeProblem& p) {
                          model_merge(p, INFINITY);
                        }).empty_partial(EmptyPartial::PosInfLse);
  MergeCase c;
  c.parts = {kA, kB, kB};
  EXPECT_TRUE(check_merge_identity(c, merge_under_test(k)).holds());
  EXPECT_TRUE(check_merge_accuracy(c, merge_under_test(k)).holds());
}

TEST(MergeLaws, CasesAreFittedToTheDeclaredBasesAndTypes) {
  MergeCase c;
  c.base = LseBase::Two;
  AttnStates bf16 = kA;
  bf16.o_type = DType::BF16;
  c.parts = {bf16, bf16};
  const MergeCase fitted = fit_to(host_merge("e, f32", [](const MergeProblem&) {}), c);
  EXPECT_EQ(fitted.base, LseBase::E);
  EXPECT_EQ(fitted.parts[0].o_type, DType::F32);
}

TEST(MergeRegression, RoundTripsBitForBitAndReplays) {
  MergeRegression r = regression_record<MergeKind>("test.merge", "accuracy");
  r.input.parts = {kA, kB};
  r.input.parts[0].o[1] = -0.0f;
  r.input.parts[1].lse[0] = 0x1p-149f;
  r.input.tree_choices = {1, 2};
  const MergeRegression back = regression_from_json<MergeKind>(to_json(r));
  EXPECT_EQ(to_json(back), to_json(r));
  EXPECT_TRUE(std::signbit(back.input.parts[0].o[1]));
  EXPECT_EQ(back.input.parts[1].lse[0], 0x1p-149f);
  EXPECT_EQ(regression_kind(to_json(r)), "merge");
  const MergeKernel good = host_merge("test.merge", [](const MergeProblem& p) { model_merge(p); });
  EXPECT_EQ(replay_regression<MergeKind>(good, r), "");
  r.expect_holds = false;
  EXPECT_NE(replay_regression<MergeKind>(good, r).find("no longer shows"), std::string::npos);
  EXPECT_THROW(regression_from_json<MergeKind>("{\"osvs_merge_regression\": 1}"),
               std::runtime_error);
}

}  // namespace
}  // namespace osvs::test
