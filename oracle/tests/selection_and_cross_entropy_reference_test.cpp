// The cross-entropy reference (row_reduction_reference.h) and the rank order of argmax and top-k
// (selection_reference.h): rows whose answer is derived by hand, the conventions of ignored,
// masked, NaN and infinite rows, the tiny-R branch on a rounding midpoint, and random rows
// against an independent evaluation: plain MPFR at 3000 bits straight from
// -sum_j w_j log softmax_j (no max subtracted, no error analysis, no Ziv), rounded by
// round_to_type; the same for batches reduced by sum and mean (their counted rows, the
// conventions of a batch with none, the tiny-R branch on a midpoint of the sum).
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "mpfr_value.h"
#include "osvs/oracle/row_reduction_reference.h"
#include "osvs/oracle/selection_reference.h"

namespace osvs::oracle {
namespace {

using detail::MpValue;
using detail::round_to_type;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr std::int64_t kIgnore = -100;

ExactElement ce(const std::vector<float>& x, std::int64_t t, float eps = 0,
                DType out = DType::F32) {
  return cross_entropy_reference(x, t, kIgnore, eps, out);
}

constexpr mpfr_prec_t kIndependentBits = 3000;

/// loss = -sum_j w_j log(exp(x_j) / sum_i exp(x_i)) at 3000 bits, as the definition reads.
void independent_loss(const std::vector<float>& x, std::int64_t t, float eps, mpfr_ptr loss) {
  constexpr mpfr_prec_t p = kIndependentBits;
  const auto n = static_cast<long>(x.size());
  MpValue sum(p), e(p), log_sum(p), w(p), term(p);
  mpfr_set_zero(sum.get(), 1);
  for (float v : x) {
    mpfr_set_flt(e.get(), v, MPFR_RNDN);
    mpfr_exp(e.get(), e.get(), MPFR_RNDN);
    mpfr_add(sum.get(), sum.get(), e.get(), MPFR_RNDN);
  }
  mpfr_log(log_sum.get(), sum.get(), MPFR_RNDN);
  mpfr_set_zero(loss, 1);
  for (long j = 0; j < n; ++j) {
    mpfr_set_flt(w.get(), eps, MPFR_RNDN);
    mpfr_div_si(w.get(), w.get(), n, MPFR_RNDN);
    if (j == t) {
      mpfr_set_flt(term.get(), eps, MPFR_RNDN);
      mpfr_ui_sub(term.get(), 1, term.get(), MPFR_RNDN);
      mpfr_add(w.get(), w.get(), term.get(), MPFR_RNDN);
    }
    mpfr_set_flt(term.get(), x[static_cast<std::size_t>(j)], MPFR_RNDN);
    mpfr_sub(term.get(), log_sum.get(), term.get(), MPFR_RNDN);  // -log softmax_j
    mpfr_mul(term.get(), term.get(), w.get(), MPFR_RNDN);
    mpfr_add(loss, loss, term.get(), MPFR_RNDN);
  }
}

float independent_cross_entropy(const std::vector<float>& x, std::int64_t t, float eps, DType out) {
  MpValue loss(kIndependentBits);
  independent_loss(x, t, eps, loss.get());
  return round_to_type(loss.get(), out);
}

/// The batch's sum of the counted rows' independent losses, or their mean, at 3000 bits.
float independent_batch(const std::vector<std::vector<float>>& rows,
                        const std::vector<std::int64_t>& targets, float eps, BatchReduction r,
                        DType out) {
  MpValue total(kIndependentBits), loss(kIndependentBits);
  mpfr_set_zero(total.get(), 1);
  long counted = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (targets[i] == kIgnore) continue;
    independent_loss(rows[i], targets[i], eps, loss.get());
    mpfr_add(total.get(), total.get(), loss.get(), MPFR_RNDN);
    ++counted;
  }
  if (r == BatchReduction::Mean) mpfr_div_si(total.get(), total.get(), counted, MPFR_RNDN);
  return round_to_type(total.get(), out);
}

ExactElement batch(const std::vector<std::vector<float>>& rows,
                   const std::vector<std::int64_t>& targets, BatchReduction r, float eps = 0,
                   DType out = DType::F32) {
  std::vector<std::span<const float>> spans(rows.begin(), rows.end());
  return cross_entropy_batch_reference(spans, targets, kIgnore, eps, r, out);
}

constexpr auto kSum = BatchReduction::Sum;
constexpr auto kMean = BatchReduction::Mean;

TEST(CrossEntropyReference, RowsDerivedByHand) {
  // One element: lse = x_0, the loss 0 (exactly, whatever x_0).
  EXPECT_EQ(ce({3.5f}, 0).rounded, 0.0f);
  EXPECT_EQ(ce({3.5f}, 0).binade, kZeroBinade);
  // Two equal logits: the loss is log 2, for either target, with any smoothing (every
  // lse - x_j is log 2), rounded once: float(log 2) from double's correctly rounded log(2) (not
  // near a float midpoint: its 25th to 53rd bits are not 1000...0).
  const float log2f_rounded = static_cast<float>(std::log(2.0));
  for (float eps : {0.0f, 0.25f, 1.0f}) {
    EXPECT_EQ(ce({0.0f, 0.0f}, 0, eps).rounded, log2f_rounded) << eps;
    EXPECT_EQ(ce({7.0f, 7.0f}, 1, eps).rounded, log2f_rounded) << eps;
  }
  // The target masked with the rest finite: lse - x_t = +inf.
  EXPECT_EQ(ce({0.0f, -kInf}, 1).rounded, kInf);
  // A masked non-target logit with eps = 0 contributes nothing: the one finite element's loss 0.
  EXPECT_EQ(ce({2.0f, -kInf}, 0).rounded, 0.0f);
}

TEST(CrossEntropyReference, Conventions) {
  // ignore_index: +0 whatever the row holds, NaN and infinities included.
  for (const std::vector<float>& x :
       std::vector<std::vector<float>>{{1.0f, 2.0f}, {kNaN, kInf}, {-kInf, -kInf}}) {
    const ExactElement e = ce(x, kIgnore);
    EXPECT_EQ(e.rounded, 0.0f);
    EXPECT_FALSE(std::signbit(e.rounded));
  }
  EXPECT_TRUE(std::isnan(ce({1.0f, kNaN}, 0).rounded));        // a NaN anywhere
  EXPECT_TRUE(std::isnan(ce({-kInf, -kInf}, 0).rounded));      // -inf - -inf
  EXPECT_TRUE(std::isnan(ce({kInf, 0.0f}, 0).rounded));        // the target +inf: inf - inf
  EXPECT_EQ(ce({kInf, 0.0f}, 1).rounded, kInf);                // lse = +inf, x_t finite
  EXPECT_TRUE(std::isnan(ce({kInf, 0.0f}, 1, 0.1f).rounded));  // the +inf term is present
  EXPECT_EQ(ce({0.0f, -kInf}, 0, 0.1f).rounded, kInf);         // a masked logit, smoothed
  EXPECT_EQ(ce({0.0f, -kInf}, 1, 1.0f).rounded, kInf);         // eps = 1: 1 / n of each term
  EXPECT_THROW(ce({1.0f}, 1), std::invalid_argument);          // target outside the row
  EXPECT_THROW(ce({1.0f}, -1), std::invalid_argument);         // ... and not ignore_index
  EXPECT_THROW(ce({1.0f}, 0, 1.5f), std::invalid_argument);    // smoothing outside [0, 1]
  EXPECT_THROW(ce({}, 0), std::invalid_argument);              // no element
}

TEST(CrossEntropyReference, TinyRestAboveAMidpointRoundsUp) {
  // x = (2^-15, -1000), target 1: loss = Q + L with Q = m - x_t = 1000 + 2^-15, the midpoint of
  // the floats 1000 and 1000 + 2^-14 (1000 has 14 integer bits: its ulp is 2^-14), and
  // L = log1p(exp(-1000 - 2^-15)) > 0, about 2^-1443. Ties to even would give 1000 (its last
  // significand bit is 0); the exact loss lies above the midpoint, so it rounds up. (Every
  // precision below 1450 bits sees the midpoint itself: the tiny-R branch decides it.)
  const ExactElement e = ce({0x1p-15f, -1000.0f}, 1);
  EXPECT_EQ(e.rounded, std::nextafter(1000.0f, kInf));
  EXPECT_EQ(e.binade, 9);
  EXPECT_EQ(e.value, 1000.0 + 0x1p-15);  // double holds the midpoint; 2^-1443 is far below half
                                         // its ulp there
  // The same with the target the max: Q = 0 and the loss is L alone, below every float.
  const ExactElement tiny = ce({0x1p-15f, -1000.0f}, 0);
  EXPECT_EQ(tiny.rounded, 0.0f);
  EXPECT_EQ(tiny.value, 0.0);  // about 2^-1443: below double's subnormals too
}

TEST(CrossEntropyReference, RandomRowsMatchIndependentMpfr) {
  std::mt19937 rng(20261206);
  std::uniform_int_distribution<int> mantissa(-(1 << 20), 1 << 20), length(1, 12), small(-8, 8);
  const float smoothing[] = {0.0f, 0.1f, 0.25f, 1.0f};
  int compared = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<float> x(static_cast<std::size_t>(length(rng)));
    const bool ties = trial % 3 == 0;
    for (float& v : x)
      v = ties ? static_cast<float>(small(rng))
               : std::ldexp(static_cast<float>(mantissa(rng)), -16);
    const auto t = static_cast<std::int64_t>(rng() % x.size());
    const float eps = smoothing[trial % 4];
    for (DType out : {DType::F32, DType::BF16, DType::F16}) {
      EXPECT_EQ(ce(x, t, eps, out).rounded, independent_cross_entropy(x, t, eps, out))
          << "trial " << trial << " " << to_string(out);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 1200);
}

TEST(CrossEntropyBatchReference, BatchesDerivedByHand) {
  // Two rows of two equal logits: each loss log 2 (RowsDerivedByHand); the mean log 2, the sum
  // 2 log 2, whose rounding is twice log 2's (a power of two scales the rounding).
  const float log2f_rounded = static_cast<float>(std::log(2.0));
  EXPECT_EQ(batch({{0, 0}, {7, 7}}, {0, 1}, kMean).rounded, log2f_rounded);
  EXPECT_EQ(batch({{0, 0}, {7, 7}}, {0, 1}, kSum).rounded, 2 * log2f_rounded);
  // An ignored row counts for nothing, whatever it holds: the mean is over the two others.
  EXPECT_EQ(batch({{0, 0}, {kNaN, kInf}, {1, 1}}, {0, kIgnore, 1}, kMean).rounded, log2f_rounded);
  EXPECT_EQ(batch({{0, 0}, {kNaN, kInf}, {1, 1}}, {0, kIgnore, 1}, kSum).rounded,
            2 * log2f_rounded);
  // Losses of 0 only (one finite element a row): the rational branch, +0.
  const ExactElement zero = batch({{3.5f, -kInf}, {-kInf, 2}}, {0, 1}, kMean);
  EXPECT_EQ(zero.rounded, 0.0f);
  EXPECT_FALSE(std::signbit(zero.rounded));
  // x = (2^-15, -1000), target 1, twice: Q = 1000 + 2^-15 a row (TinyRestAboveAMidpointRoundsUp)
  // and the tiny L above it. The mean is that midpoint plus L / 2: it rounds up. The sum is
  // 2000 + 2^-14, the midpoint of 2000 and 2000 + 2^-13 (2000 has 11 integer bits), plus 2 L:
  // up again, where ties to even would give 2000.
  EXPECT_EQ(batch({{0x1p-15f, -1000}, {0x1p-15f, -1000}}, {1, 1}, kMean).rounded,
            std::nextafter(1000.0f, kInf));
  EXPECT_EQ(batch({{0x1p-15f, -1000}, {0x1p-15f, -1000}}, {1, 1}, kSum).rounded,
            std::nextafter(2000.0f, kInf));
}

TEST(CrossEntropyBatchReference, Conventions) {
  // No row counted: every row ignored, or no row. The sum is the empty sum +0, the mean 0 / 0.
  for (const auto& rows : std::vector<std::vector<std::vector<float>>>{{{1, 2}, {kNaN, 0}}, {}}) {
    const std::vector<std::int64_t> ignored(rows.size(), kIgnore);
    EXPECT_TRUE(std::isnan(batch(rows, ignored, kMean).rounded)) << rows.size() << " rows";
    const ExactElement sum = batch(rows, ignored, kSum);
    EXPECT_EQ(sum.rounded, 0.0f);
    EXPECT_FALSE(std::signbit(sum.rounded));
  }
  // A counted row's NaN or +inf is the batch's; NaN before +inf.
  EXPECT_TRUE(std::isnan(batch({{0, 0}, {1, kNaN}}, {0, 0}, kMean).rounded));
  EXPECT_EQ(batch({{0, 0}, {0, -kInf}}, {0, 1}, kSum).rounded, kInf);  // the target masked
  EXPECT_EQ(batch({{0, 0}, {0, -kInf}}, {0, 1}, kMean).rounded, kInf);
  EXPECT_TRUE(std::isnan(batch({{kNaN, 0}, {0, -kInf}}, {0, 1}, kSum).rounded));
  // What has no answer: a counted target outside the row, rows of two lengths, a target count
  // that is not the row count.
  EXPECT_THROW(batch({{1, 2}}, {2}, kMean), std::invalid_argument);
  EXPECT_THROW(batch({{1, 2}, {1, 2, 3}}, {0, 0}, kSum), std::invalid_argument);
  EXPECT_THROW(batch({{1, 2}}, {0, 0}, kSum), std::invalid_argument);
}

TEST(CrossEntropyBatchReference, RandomBatchesMatchIndependentMpfr) {
  std::mt19937 rng(20261208);
  std::uniform_int_distribution<int> mantissa(-(1 << 20), 1 << 20), length(1, 8), rows_of(1, 5),
      small(-8, 8);
  const float smoothing[] = {0.0f, 0.1f, 1.0f};
  int compared = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const auto n = static_cast<std::size_t>(length(rng));
    std::vector<std::vector<float>> rows(static_cast<std::size_t>(rows_of(rng)));
    std::vector<std::int64_t> targets;
    for (auto& x : rows) {
      x.resize(n);
      for (float& v : x)
        v = trial % 3 == 0 ? static_cast<float>(small(rng))
                           : std::ldexp(static_cast<float>(mantissa(rng)), -16);
      targets.push_back(rng() % 5 == 0 ? kIgnore : static_cast<std::int64_t>(rng() % n));
    }
    if (std::all_of(targets.begin(), targets.end(), [](std::int64_t t) { return t == kIgnore; }))
      targets[0] = 0;  // a batch with a counted row (the conventions are Conventions')
    const float eps = smoothing[trial % 3];
    for (BatchReduction r : {kSum, kMean})
      for (DType out : {DType::F32, DType::BF16, DType::F16}) {
        EXPECT_EQ(batch(rows, targets, r, eps, out).rounded,
                  independent_batch(rows, targets, eps, r, out))
            << "trial " << trial << " " << to_string(out);
        ++compared;
      }
  }
  EXPECT_EQ(compared, 720);
}

TEST(SelectionReference, RankOrder) {
  // NaN above every number (the first NaN first), then by value, ties to the lowest index;
  // +0 and -0 tie.
  EXPECT_EQ(top_indices(std::vector<float>{1.0f, kNaN, 3.0f, kNaN}, 4),
            (std::vector<std::int64_t>{1, 3, 2, 0}));
  EXPECT_EQ(top_indices(std::vector<float>{2.0f, -0.0f, 0.0f, 2.0f}, 4),
            (std::vector<std::int64_t>{0, 3, 1, 2}));
  EXPECT_EQ(top_indices(std::vector<float>{-kInf, -kInf}, 1), (std::vector<std::int64_t>{0}));
  EXPECT_EQ(top_indices(std::vector<float>{kInf, kNaN, kInf}, 2),
            (std::vector<std::int64_t>{1, 0}));
  EXPECT_TRUE(same_rank_value(0.0f, -0.0f));
  EXPECT_TRUE(same_rank_value(kNaN, -kNaN));
  EXPECT_FALSE(same_rank_value(kNaN, kInf));
  EXPECT_THROW(top_indices(std::vector<float>{1.0f}, 2), std::invalid_argument);
  EXPECT_THROW(top_indices(std::vector<float>{1.0f}, 0), std::invalid_argument);
}

}  // namespace
}  // namespace osvs::oracle
