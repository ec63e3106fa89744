// The row-wise kind itself: declarations refused with the valid laws named, regression files
// round-tripped and malformed ones named, the runner's memory checks, osvs's reference backward
// kernels holding every law, the tightness of their derived bound (worst observed error over the
// bound on seeded random rows, which must not exceed 1 and is printed), and every law failing
// on a kernel that breaks it.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

#include "builtin_row_reductions.h"
#include "builtin_softmax_backward.h"
#include "law_run.h"
#include "osvs/api/regression.h"
#include "osvs/api/rowwise_ops.h"
#include "osvs/kernels/hex.h"
#include "osvs/mutation/softmax_backward_mutant_policies.h"
#include "regression_record.h"
#include "rowwise_counterexample.h"

namespace osvs::test {
namespace {

using builtin::reference_backward;

RowwiseKernel softmax_reference(DType t = DType::F32) {
  return reference_backward("test.softmax_backward", RowwiseOp::SoftmaxBackward, t);
}

/// The reference kernel, its output then changed by `after(p, call)` (call: the launch's count).
template <class After>
RowwiseKernel wrapped(std::string name, After after) {
  auto calls = std::make_shared<int>(0);
  return RowwiseKernel(std::move(name), Where::Host)
      .op(RowwiseOp::SoftmaxBackward)
      .types({DType::F32, DType::F32}, {DType::F32})
      .accuracy(builtin::reference_backward_bound())
      .run([after, calls](const RowwiseProblem& p) {
        builtin::run_reference_backward<BackwardAsWritten>(RowwiseOp::SoftmaxBackward, p);
        after(p, (*calls)++);
      });
}

TEST(RowwiseKind, AMisspeltLawIsARegistrationErrorNamingTheValidOnes) {
  try {
    register_kernel(softmax_reference().skip("accuarcy", "typo"));
    FAIL() << "registered";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("skip 'accuarcy' is not a row-wise law (accuracy, "
                                         "empty_rows, special_values, determinism, "
                                         "batch_invariance, strided, permutation, "
                                         "shift_invariance, scale_invariance)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NE(declaration_problem(softmax_reference().types({DType::F32}, {DType::F32}))
                .find("softmax_backward has 2 inputs and 1 output"),
            std::string::npos);
  EXPECT_NE(declaration_problem(softmax_reference().accuracy(RowwiseAccuracy::bound(-1, 0, 0)))
                .find("negative"),
            std::string::npos);
  EXPECT_EQ(declaration_problem(softmax_reference()), "");
}

TEST(RowwiseKind, RegressionFilesRoundTripAndMalformedOnesAreNamed) {
  Regression<RowwiseKind> r =
      regression_record<RowwiseKind>("test.softmax_backward", "permutation", false);
  r.input.inputs = {{{0x1.8p-2f, -0.0f}}, {{NAN, 0x1p-149f}}};
  r.input.permutation = {1, 0};
  r.input.pads = {0, 2, 1};
  const Regression<RowwiseKind> back = regression_from_json<RowwiseKind>(to_json(r));
  EXPECT_EQ(back.law, "permutation");
  EXPECT_EQ(back.input.permutation, r.input.permutation);
  EXPECT_EQ(back.input.pads, r.input.pads);
  EXPECT_EQ(back.input.inputs[0][0][0], 0x1.8p-2f);
  EXPECT_TRUE(std::signbit(back.input.inputs[0][0][1]));
  EXPECT_TRUE(std::isnan(back.input.inputs[1][0][0]));
  EXPECT_EQ(back.input.inputs[1][0][1], 0x1p-149f);
  EXPECT_EQ(regression_kind(to_json(r)), "rowwise");
  std::string text = to_json(r);
  text.replace(text.find("\"pads\""), 6, "\"padz\"");
  try {
    regression_from_json<RowwiseKind>(text);
    FAIL() << "read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'pads'"), std::string::npos) << e.what();
  }
}

TEST(RowwiseKind, TheRunnerNamesWhatAKernelDidToMemory) {
  const std::vector<Rows> batch = {{{0.25f, 0.75f}}, {{1, 2}}};
  const auto failure = [&](const RowwiseKernel& k, std::vector<std::int64_t> pads = {}) {
    try {
      run_rowwise_kernel(k, batch, {}, pads);
    } catch (const KernelFailure& e) {
      return std::string(e.what());
    }
    return std::string("no failure");
  };
  EXPECT_EQ(failure(RowwiseKernel("test.lazy", Where::Host).run([](const RowwiseProblem& p) {
              p.out<float>(0)[0] = 1;
            })),
            "kernel 'test.lazy' left dx[0][1] unwritten");
  EXPECT_EQ(
      failure(wrapped("test.writes_input", [](const RowwiseProblem& p,
                                              int) { const_cast<float*>(p.in<float>(1))[0] = 3; })),
      "kernel 'test.writes_input' modified its input dy");
  EXPECT_EQ(failure(wrapped("test.writes_padding",
                            [](const RowwiseProblem& p, int) { p.out<float>(0)[2] = 0; }),
                    {0, 0, 1}),
            "kernel 'test.writes_padding' wrote into row 0's padding (column 2) (outside the "
            "output)");
  const RowwiseOutputs out = run_rowwise_kernel(softmax_reference(), batch, {}, {1, 2, 3});
  EXPECT_EQ(out.out[0], (std::vector<float>{-0.1875f, 0.1875f}));
}

/// osvs's reference kernel of `op` in type t (builtin_softmax_backward.h,
/// builtin_row_reductions.h).
RowwiseKernel reference_of(RowwiseOp op, DType t) {
  if (is_backward(op)) return reference_backward("test.reference", op, t);
  return builtin::reference_row_kernel("test.reference", op, t);
}

TEST(RowwiseKind, TheReferenceKernelsHoldEveryLaw) {
  for (RowwiseOp op : kRowwiseOps)
    for (DType t : {DType::F32, DType::BF16, DType::F16}) {
      const RowwiseKernel k = reference_of(op, t);
      for (const RowwiseLaw& law : rowwise_laws()) {
        // Only a law the op has no use for is left out (no empty row, no invariance).
        const std::string skipped = why_skipped<RowwiseKind>(k, law);
        if (!skipped.empty()) {
          EXPECT_EQ(skipped.rfind(to_string(op), 0), 0u) << law.name << ": " << skipped;
          continue;
        }
        const auto run =
            testbed::run_law<RowwiseKind>(law, k, 5, [](const Verdict&, const RowwiseCase&) {});
        EXPECT_FALSE(run.errored()) << to_string(op) << " " << to_string(t) << " " << law.name
                                    << ": " << run.property_failure;
        EXPECT_FALSE(run.failed()) << to_string(op) << " " << to_string(t) << " " << law.name
                                   << ": " << run.smallest_verdict.explanation;
        EXPECT_GT(run.judged, run.not_judged) << law.name;
      }
    }
}

/// The worst |dx^ - dx| / tolerance of the reference over seeded random rows with cancellation.
TEST(RowwiseKind, TheDerivedBoundHoldsAndItsTermsAreMeasured) {
  std::mt19937 rng(20261203);
  std::uniform_int_distribution<int> len(1, 64), small(-4, 4);
  std::uniform_real_distribution<double> logit(-6, 6);
  for (RowwiseOp op : {RowwiseOp::SoftmaxBackward, RowwiseOp::LogSoftmaxBackward})
    for (DType t : {DType::F32, DType::BF16}) {
      const RowwiseKernel k = reference_backward("test.reference", op, t);
      const RowwiseAccuracy a = k.accuracy();
      double worst_ratio = 0, worst_ulps = 0;
      for (int trial = 0; trial < 300; ++trial) {
        const int n = len(rng);
        std::vector<double> x(static_cast<std::size_t>(n));
        for (double& v : x) v = logit(rng);
        double m = x[0], d = 0;
        for (double v : x) m = std::max(m, v);
        for (double v : x) d += std::exp(v - m);
        std::vector<float> in0, dy;
        const double offset = trial % 2 ? 3.0 : 0.0;  // dx cancels
        for (double v : x) {
          in0.push_back(round_to(
              t, static_cast<float>(op == RowwiseOp::SoftmaxBackward ? std::exp(v - m) / d
                                                                     : v - m - std::log(d))));
          dy.push_back(round_to(t, static_cast<float>(offset + small(rng) / 8.0)));
        }
        const RowwiseOutputs out = run_rowwise_kernel(k, {{in0}, {dy}});
        const RowInputs row = {in0.data(), dy.data()};
        const auto exact = rowwise_exact(op, row, n, RowwiseParams{}, {t});
        const auto cond = rowwise_condition(op, 0, row, n, RowwiseParams{});
        for (int j = 0; j < n; ++j) {
          const auto& e = exact[0][static_cast<std::size_t>(j)];
          const double ulp =
              std::ldexp(1.0, std::max(e.binade, min_exponent_of(t)) - precision_of(t) + 1);
          const double err =
              std::fabs(static_cast<double>(out.out[0][static_cast<std::size_t>(j)]) - e.value);
          const double tol = a.ulps * ulp + (a.cond_rel + a.cond_rel_per_element * n) *
                                                cond[static_cast<std::size_t>(j)];
          worst_ratio = std::max(worst_ratio, err / tol);
          worst_ulps = std::max(worst_ulps, err / ulp);
        }
      }
      std::cout << "[ osvs     ] " << to_string(op) << " " << to_string(t)
                << ": worst error / derived bound " << digits9(worst_ratio) << ", worst "
                << digits9(worst_ulps) << " ulp of dx (300 rows, n <= 64)\n";
      EXPECT_LE(worst_ratio, 1.0);
      EXPECT_GT(worst_ratio, 0.0);
    }
}

// The registered fuzz run's case (2026-12-03): z[0] = 0x1.02p+87, which no log-softmax gives,
// and dy = 0: exp(z) overflows and the reference's dx is NaN where the exact value is 0. The
// value laws judge only rows within the forward's range (rowwise_ops.h, in_forward_range).
TEST(RowwiseKind, RowsNoForwardGivesAreNotJudgedByTheValueLaws) {
  const RowwiseKernel k =
      reference_backward("test.log_softmax_backward", RowwiseOp::LogSoftmaxBackward, DType::BF16);
  RowwiseCase c;
  c.inputs = {{{0x1.02p+87f, 0.0f, 0.0f}}, {{0.0f, 0.0f, 0.0f}}};
  const Verdict outside = RowwiseKind::check(*RowwiseKind::find_law("accuracy"), k, c);
  EXPECT_FALSE(outside.judged()) << outside.explanation;
  // The same row with z within the range (z <= 0) is judged, and holds.
  c.inputs[0][0][0] = -0x1.02p+7f;
  const Verdict inside = RowwiseKind::check(*RowwiseKind::find_law("accuracy"), k, c);
  EXPECT_TRUE(inside.holds()) << inside.explanation;
}

TEST(RowwiseKind, EveryLawCanFail) {
  using namespace mutation;
  EXPECT_TRUE(counterexample(
      reference_backward<RowTermDropped>("test.dropped", RowwiseOp::SoftmaxBackward, DType::F32),
      "accuracy"));
  EXPECT_TRUE(counterexample(reference_backward<RowTermRenormalised>(
                                 "test.renormalised", RowwiseOp::SoftmaxBackward, DType::F32),
                             "empty_rows"));
  EXPECT_TRUE(counterexample(
      reference_backward<RowTermSkipsNan>("test.skips_nan", RowwiseOp::SoftmaxBackward, DType::F32),
      "special_values"));
  // The last bit of dx[0] flipped on every other launch.
  EXPECT_TRUE(counterexample(wrapped("test.flaky",
                                     [](const RowwiseProblem& p, int call) {
                                       if (call % 2 && p.rows * p.cols > 0)
                                         p.out<float>(0)[0] =
                                             std::nextafter(p.out<float>(0)[0], INFINITY);
                                     }),
                             "determinism"));
  // The last bit of every row but the first flipped: a row's bits depend on its position.
  EXPECT_TRUE(counterexample(wrapped("test.positional",
                                     [](const RowwiseProblem& p, int) {
                                       for (std::int64_t i = 1; i < p.rows; ++i)
                                         for (std::int64_t j = 0; j < p.cols; ++j) {
                                           float& v = p.out<float>(0)[i * p.outputs[0].stride + j];
                                           v = std::nextafter(v, INFINITY);
                                         }
                                     }),
                             "batch_invariance"));
  // Reads dy as if it were dense.
  RowwiseKernel dense_only("test.dense_only", Where::Host);
  dense_only.op(RowwiseOp::SoftmaxBackward)
      .accuracy(builtin::reference_backward_bound())
      .run([](const RowwiseProblem& p) {
        RowwiseProblem q = p;
        q.inputs[1].stride = p.cols;
        builtin::run_reference_backward<BackwardAsWritten>(RowwiseOp::SoftmaxBackward, q);
      });
  EXPECT_TRUE(counterexample(dense_only, "strided"));
  // Claims bitwise order independence with a binary32 row term.
  EXPECT_TRUE(counterexample(
      reference_backward<RowTermInFloat>("test.float_sum", RowwiseOp::SoftmaxBackward, DType::F32)
          .accuracy(RowwiseAccuracy::none())
          .order_independent(),
      "permutation"));
}

}  // namespace
}  // namespace osvs::test
