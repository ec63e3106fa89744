// The row reductions of the row-wise kind (logsumexp, layer_norm, rms_norm, mean_var,
// cross_entropy and its batch mean and sum): the tightness of the
// reference kernels' derived bounds (worst observed error over the bound on seeded rows with
// large common offsets, which must not exceed 1 and is printed), their conventions (rms_norm's
// declared one for infinite rows), the runner's shared arrays and one-a-row outputs, and the
// invariance laws failing on kernels that break them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <random>
#include <string>

#include "builtin_row_reductions.h"
#include "law_run.h"
#include "osvs/api/rowwise_ops.h"
#include "osvs/kernels/hex.h"
#include "osvs/mutation/row_reduction_mutant_policies.h"
#include "rowwise_counterexample.h"

namespace osvs::test {
namespace {

using builtin::reference_row_kernel;

constexpr float kInf = std::numeric_limits<float>::infinity();

/// The worst |o - exact| / tolerance and in ulps of every output measured.
struct Worst {
  double ratio = 0, ulps = 0;

  /// One output `got` of type t against its exact value e: the tolerance is a.ulps ulps of e's
  /// binade plus (a.cond_rel + a.cond_rel_per_element n) cond (rowwise_ops.h).
  void add(float got, const oracle::ExactElement& e, DType t, const RowwiseAccuracy& a,
           std::int64_t n, double cond) {
    const double ulp =
        std::ldexp(1.0, std::max(e.binade, min_exponent_of(t)) - precision_of(t) + 1);
    const double err = std::fabs(static_cast<double>(got) - e.value);
    const double tol = a.ulps * ulp + (a.cond_rel + a.cond_rel_per_element * n) * cond;
    ratio = std::max(ratio, err / tol);
    ulps = std::max(ulps, err / ulp);
  }

  /// Prints the measurement of `what` on `sample` and holds it to the derived bound: at most 1,
  /// and above 0.
  void expect_within_bound(const std::string& what, const char* sample) const {
    std::cout << "[ osvs     ] " << what << ": worst error / derived bound " << digits9(ratio)
              << ", worst " << digits9(ulps) << " ulp (" << sample << ")\n";
    EXPECT_LE(ratio, 1.0);
    EXPECT_GT(ratio, 0.0);
  }
};

/// Every output of one launch of k on `in` into w.
void measure(const RowwiseKernel& k, const std::vector<Rows>& in, const RowwiseParams& params,
             Worst& w) {
  const RowwiseOutputs out = run_rowwise_kernel(k, in, params);
  RowInputs row;
  for (const Rows& a : in) row.push_back(a[0].data());
  const std::int64_t n = out.cols;
  const auto exact = rowwise_exact(k.op(), row, n, params, k.out_types());
  for (std::size_t b = 0; b < exact.size(); ++b) {
    const auto cond = rowwise_condition(k.op(), b, row, n, params);
    const DType t = k.out_types()[b];
    for (std::size_t j = 0; j < exact[b].size(); ++j)
      w.add(out.out[b][j], exact[b][j], t, k.accuracy(), n, cond[j]);
  }
}

/// measure() for a batch reduction's one value: its contract's n is rows * cols, its cond the
/// batch's (rowwise_ops.h).
void measure_batch(const RowwiseKernel& k, const std::vector<Rows>& in, const RowwiseParams& params,
                   Worst& w) {
  const RowwiseOutputs out = run_rowwise_kernel(k, in, params);
  std::vector<RowInputs> rows;
  for (std::size_t r = 0; r < in[0].size(); ++r) rows.push_back({in[0][r].data(), in[1][r].data()});
  const std::int64_t n = static_cast<std::int64_t>(rows.size()) * out.cols;
  const auto e = rowwise_batch_exact(k.op(), rows, out.cols, params, k.out_types()).at(0);
  const double cond = rowwise_batch_condition(k.op(), rows, out.cols, params);
  w.add(out.out[0][0], e, k.out_types()[0], k.accuracy(), n, cond);
}

/// The rows the bound tests draw, from one seeded generator: a length of 1 ... 64 and, on every
/// other trial, an offset of up to 2^20 that the row's elements share (a mean large against the
/// spread, which the norms' mean must not cancel and lse - x_t must not lose).
struct RowDraws {
  explicit RowDraws(std::uint32_t seed) : rng(seed) {}

  std::size_t length() { return static_cast<std::size_t>(len(rng)); }
  double offset(int trial) {
    return trial % 2 ? std::ldexp(1 + normal(rng), offset_exp(rng)) : 0.0;
  }
  double standard_normal() { return normal(rng); }
  /// n logits offset + 4 N(0, 1), each rounded to t.
  std::vector<float> logits(DType t, std::size_t n, double offset) {
    std::vector<float> x;
    for (std::size_t j = 0; j < n; ++j)
      x.push_back(round_to(t, static_cast<float>(offset + 4 * standard_normal())));
    return x;
  }

  std::mt19937 rng;
  std::uniform_int_distribution<int> len{1, 64}, offset_exp{0, 20};
  std::normal_distribution<double> normal{0, 1};
};

/// What a trial draws first: its rows' length and offset.
struct DrawnRow {
  int trial;
  std::size_t n;
  double offset;
};

/// osvs's reference kernel of op in t, measured on `trials` cases drawn from `draw` (a length
/// and an offset, then the rest of the case by measure_one(k, row, worst), which measures it), its
/// worst held to the derived bound and printed (Worst::expect_within_bound) with a description of
/// the sample.
template <class MeasureOne>
void expect_worst_within_bound(RowwiseOp op, DType t, int trials, const char* sample,
                               RowDraws& draw, MeasureOne measure_one) {
  const RowwiseKernel k = reference_row_kernel("test.reference", op, t);
  Worst worst;
  for (int trial = 0; trial < trials; ++trial) {
    const std::size_t n = draw.length();
    measure_one(k, DrawnRow{trial, n, draw.offset(trial)}, worst);
  }
  worst.expect_within_bound(std::string(to_string(op)) + " " + to_string(t), sample);
}

TEST(RowReductions, TheDerivedBoundsHoldAndAreMeasured) {
  RowDraws draw(20261206);
  std::uniform_int_distribution<int> spread_exp(-8, 4);
  // A mean up to 2^20 times the spread on every other row: the norms' mean cancels.
  for (RowwiseOp op : {RowwiseOp::Logsumexp, RowwiseOp::LayerNorm, RowwiseOp::RmsNorm,
                       RowwiseOp::MeanVar, RowwiseOp::MeanVarUnbiased})
    for (DType t : {DType::F32, DType::BF16})
      expect_worst_within_bound(
          op, t, 300, "300 rows, n <= 64, offsets up to 2^20", draw,
          [&](const RowwiseKernel& k, const DrawnRow& row, Worst& worst) {
            const double spread = std::ldexp(1.0, spread_exp(draw.rng));
            std::vector<float> x, w, b;
            for (std::size_t j = 0; j < row.n; ++j) {
              x.push_back(
                  round_to(t, static_cast<float>((row.offset + draw.standard_normal()) * spread)));
              w.push_back(round_to(t, static_cast<float>(1 + draw.standard_normal() / 4)));
              b.push_back(round_to(t, static_cast<float>(draw.standard_normal() / 4)));
            }
            std::vector<Rows> in = {{x}};
            if (op == RowwiseOp::LayerNorm || op == RowwiseOp::RmsNorm) in.push_back({w});
            if (op == RowwiseOp::LayerNorm) in.push_back({b});
            measure(k, in, {.eps = uses_eps(op) ? 1e-5f : 0.0f}, worst);
          });
}

TEST(RowReductions, TheCrossEntropyBoundHoldsAndIsMeasured) {
  RowDraws draw(20261207);
  const float smoothing[] = {0.0f, 0.1f, 1.0f};
  for (DType t : {DType::F32, DType::BF16}) {
    // Logits sharing an offset up to 2^20 on every other row: lse - x_t must not lose it.
    expect_worst_within_bound(
        RowwiseOp::CrossEntropy, t, 300,
        "300 rows, n <= 64, offsets up to 2^20, smoothing 0, 0.1, 1", draw,
        [&](const RowwiseKernel& k, const DrawnRow& row, Worst& worst) {
          const std::vector<float> x = draw.logits(t, row.n, row.offset);
          const auto target = static_cast<float>(draw.rng() % row.n);
          measure(k, {{x}, {{target}}}, {.label_smoothing = smoothing[row.trial % 3]}, worst);
        });
    // The batch reductions: batches of 1 ... 8 such rows, one in five ignored (at least one
    // counted: the conventions of none are exact, TheBatchReductionsKeepTheirConventions).
    std::uniform_int_distribution<int> batch_rows(1, 8);
    for (RowwiseOp op : {RowwiseOp::CrossEntropyMean, RowwiseOp::CrossEntropySum})
      expect_worst_within_bound(
          op, t, 200, "200 batches of 1 ... 8 rows, n <= 64, offsets up to 2^20", draw,
          [&](const RowwiseKernel& k, const DrawnRow& row, Worst& worst) {
            Rows x, targets;
            for (int r = batch_rows(draw.rng); r > 0; --r) {
              x.push_back(draw.logits(t, row.n, row.offset));
              targets.push_back(
                  {draw.rng() % 5 == 0 ? -100.0f : static_cast<float>(draw.rng() % row.n)});
            }
            if (std::all_of(targets.begin(), targets.end(),
                            [](const std::vector<float>& t) { return t[0] < 0; }))
              targets[0][0] = 0;
            measure_batch(k, {x, targets}, {.label_smoothing = smoothing[row.trial % 3]}, worst);
          });
  }
}

TEST(RowReductions, TheReferenceKernelsKeepTheConventions) {
  const RowwiseKernel lse = reference_row_kernel("test.lse", RowwiseOp::Logsumexp, DType::F32);
  const RowwiseOutputs empty = run_rowwise_kernel(lse, {{{-kInf, -kInf}, {-kInf, 1.0f}}});
  EXPECT_EQ(empty.widths, (std::vector<std::int64_t>{1}));
  EXPECT_EQ(empty.out[0][0], -kInf);  // an empty row: log 0
  EXPECT_EQ(empty.out[0][1], 1.0f);   // -inf elements contribute 0
  const RowwiseOutputs special = run_rowwise_kernel(lse, {{{kInf, 0.0f}, {NAN, kInf}}});
  EXPECT_EQ(special.out[0][0], kInf);
  EXPECT_TRUE(std::isnan(special.out[0][1]));
  // A constant row with eps = 0: 0 / 0, NaN, as the oracle says; with eps > 0, the bias.
  const RowwiseKernel ln = reference_row_kernel("test.ln", RowwiseOp::LayerNorm, DType::F32);
  const std::vector<Rows> constant = {{{3.0f, 3.0f}}, {{2.0f, 2.0f}}, {{0.5f, -0.5f}}};
  const RowwiseOutputs nan = run_rowwise_kernel(ln, constant, {.eps = 0.0f});
  EXPECT_TRUE(std::isnan(nan.out[0][0]) && std::isnan(nan.out[0][1]));
  const RowwiseOutputs bias = run_rowwise_kernel(ln, constant, {.eps = 1e-5f});
  EXPECT_EQ(bias.out[0], (std::vector<float>{0.5f, -0.5f}));
}

/// rms_norm under the other convention for infinite rows: the IEEE evaluation, r = 1 / sqrt(inf)
/// = 0 (a conforming kernel of inf_row ieee, not a mutant).
struct IeeeInfinities : RowReductionAsWritten {
  static constexpr bool infinite_mean_square_nan = false;
};

TEST(RowReductions, RmsNormsInfiniteRowsFollowTheDeclaredConvention) {
  const RowwiseKernel nan_rule =
      reference_row_kernel("test.rms_nan", RowwiseOp::RmsNorm, DType::F32);
  const RowwiseKernel ieee_rule =
      reference_row_kernel<IeeeInfinities>("test.rms_ieee", RowwiseOp::RmsNorm, DType::F32)
          .inf_row(InfRow::Ieee);
  // x = [inf, 0, -2, 3], w = 1: NaN at the infinity, +-0 (x_i's sign) at the finite elements.
  const RowwiseOutputs y = run_rowwise_kernel(ieee_rule, {{{kInf, 0, -2, 3}}, {{1, 1, 1, 1}}});
  EXPECT_TRUE(std::isnan(y.out[0][0]));
  EXPECT_EQ(y.out[0][1], 0.0f);
  EXPECT_TRUE(std::signbit(y.out[0][2]) && y.out[0][2] == 0.0f);
  EXPECT_EQ(y.out[0][3], 0.0f);
  EXPECT_FALSE(counterexample(ieee_rule, "special_values"));
  // Each kernel fails the other declaration.
  EXPECT_TRUE(counterexample(RowwiseKernel(nan_rule).inf_row(InfRow::Ieee), "special_values"));
  EXPECT_TRUE(counterexample(RowwiseKernel(ieee_rule).inf_row(InfRow::Nan), "special_values"));
  // A kernel whose convention depends on the row length, as torch's rms_norm on the device
  // (reports/python/h100-2026-12-06-row-reductions: the IEEE value where n is a multiple of 4,
  // NaN everywhere otherwise), fails either declaration: a finding, not a convention.
  for (InfRow declared : {InfRow::Nan, InfRow::Ieee}) {
    RowwiseKernel by_length("test.rms_by_length", Where::Host);
    by_length.op(RowwiseOp::RmsNorm)
        .types({DType::F32, DType::F32}, {DType::F32})
        .accuracy(builtin::reference_row_reduction_bound(RowwiseOp::RmsNorm))
        .inf_row(declared)
        .run([nan_rule, ieee_rule](const RowwiseProblem& p) {
          (p.cols % 4 == 0 ? ieee_rule : nan_rule)(p);
        });
    EXPECT_TRUE(counterexample(by_length, "special_values")) << to_string(declared);
  }
}

TEST(RowReductions, TheRunnerSharesWeightsAndRefusesOtherShapes) {
  const RowwiseKernel rms = reference_row_kernel("test.rms", RowwiseOp::RmsNorm, DType::F32);
  // x = [3, 4]: mean square 12.5; weight [1, 2] shared by both rows.
  const RowwiseOutputs out = run_rowwise_kernel(rms, {{{3.0f, 4.0f}, {-3.0f, -4.0f}}, {{1, 2}}});
  const double r = 1 / std::sqrt(12.5);
  EXPECT_EQ(out.out[0],
            (std::vector<float>{static_cast<float>(3 * r), static_cast<float>(8 * r),
                                static_cast<float>(-3 * r), static_cast<float>(-8 * r)}));
  EXPECT_THROW(run_rowwise_kernel(rms, {{{3.0f, 4.0f}, {1, 1}}, {{1, 2}, {1, 2}}}),
               std::invalid_argument);  // a weight per row: it is every row's
  EXPECT_THROW(run_rowwise_kernel(rms, {{{3.0f, 4.0f}}, {{1, 2}}}, {}, {0, 1, 0}),
               std::invalid_argument);  // a shared array padded
}

TEST(RowReductions, TheInvarianceLawsCanFail) {
  using namespace mutation;
  // exp(x) without the max overflows once x + c passes 88.7.
  EXPECT_TRUE(counterexample(
      reference_row_kernel<LseWithoutMax>("test.lse_without_max", RowwiseOp::Logsumexp, DType::F32),
      "shift_invariance"));
  // An eps of its own (1e-6) where the launch says 0: x 2^k no longer gives the same bits.
  RowwiseKernel own_eps("test.own_eps", Where::Host);
  own_eps.op(RowwiseOp::RmsNorm)
      .types({DType::F32, DType::F32}, {DType::F32})
      .run([](const RowwiseProblem& p) {
        RowwiseProblem q = p;
        q.eps = 1e-6f;
        reference_row_kernel("inner", RowwiseOp::RmsNorm, DType::F32)(q);
      });
  EXPECT_TRUE(counterexample(own_eps, "scale_invariance"));
}

}  // namespace
}  // namespace osvs::test
