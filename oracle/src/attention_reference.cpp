// The exact attention (attention_reference.h): the fast path (attention_fast.cpp) where it
// certifies every output, else MPFR with a Ziv loop, below.
//
// Scores. Each s_j = (sum_c q_c k_jc) scale is computed EXACTLY at kScoreBits = 1200 bits: a
// product of two floats has 48 significant bits and an exponent in [-298, 256]; their sum over
// head_dim <= 256 terms spans fewer than 256 + 298 + 48 + 8 = 610 bits; the scale adds 24. Every
// operation's ternary value is checked to be 0 (exact).
//
// Error analysis at working precision p (u = 2^-p, round to nearest; MPFR's exponent range keeps
// every intermediate normal). m = max s_j (exact). Keys with t_j = s_j - m < -kGap (kGap = 4096)
// are left out: each e^(t_j) < 2^-5909, and d >= 1 (the maximum's term is 1), so together they
// move o_c by less than n 2^-5909 max|v| =: tiny and log d by less than n 2^-5909.
//   t_j = fl(s_j - m)    |t_j - (s_j - m)| <= u |s_j - m| <= kGap u
//   e_j = fl(exp(t_j))   relative error <= e^(kGap u) (1 + u) - 1 <= 1.01 (kGap + 1) u =: eps_e
//   d   = sum e_j        n - 1 roundings of positive terms:  rel <= 1.01 (eps_e + n u) =: eps_d
//   N_c = sum e_j v_jc   products and sums:  |N^ - N| <= 1.01 (eps_e + (n + 1) u) A_c =: eps_n A_c
//   A_c = sum e_j |v_jc| (same bound; M_c = A_c / d)
//   o_c = fl(N_c / d)    |o^ - o| <= (eps_n + eps_d) / (1 - eps_d) M_c + u |o^| + tiny
//                        <= 2 (eps_n + eps_d) M^_c + 2 u |o^| + tiny =: err_c
//                        (M_c <= M^_c (1 + 2 eps) / (1 - eps) <= 2 M^_c for eps << 1)
//   lse = fl(m + fl(log d))   |err| <= 2 (eps_d + u |log d^| + u |lse^|) + tiny =: err_l
//   base 2: lse2 = fl(lse / fl(log 2))   |err| <= 1.5 err_l + 3 u |lse2^|
// A component is decided when both ends of [o^ - err_c, o^ + err_c] (rounded outward) round to
// the same value of the output type; the lse likewise, to float.
//
// fp8 K/V (a key scale k_scale, a value scale v_scale): the exact score is (q . k_j) times the
// product scale k_scale (two floats: exact in double, exact_dot's factor); the values are
// v_scale v_jc (doubles, exact products), which the sums below multiply and add as they would
// floats: every bound is unchanged, with v_max the largest |v_scale v_jc|.
//
// Softcap c > 0: the score is w_j = c tanh(s_j / c), computed from the exact s_j at kCapBits
// (a division, a tanh and a product, each rounded once): |w^_j - w_j| <= 3.01 c 2^-kCapBits =:
// delta (|tanh| <= 1). tanh is increasing, so the maximum is the same key's and equal scores stay
// equal; every t_j = w_j - m is then off by at most 2 delta more, which multiplies each e_j by at
// most e^(2 delta): eps_e gains 2.02 delta, the lse delta. With a sink z the maximum is
// m' = max(m, z) and the denominator gains e^(z - m') (one more term of d, the same bound);
// neither the numerators nor rational_mean's exact case apply to it (o is then irrational unless
// every v_jc is 0, when N_c = 0 exactly and o_c = 0 is decided at once). An ALiBi bias
// b_j = -slope |position - j| is exact (a float times an integer); without a softcap it joins
// the exact score (s_j + b_j, exact at kScoreBits), with one it is subtracted from the softcapped
// score at kCapBits (one more rounding: delta gains 2^-kCapBits (c + max |b_j|)), and
// rational_mean is not asked (a softcapped score plus a bias may tie another without being equal
// to it term by term: the Ziv loop then decides, or throws at its last rung).
//
// Why the loop ends. By Lindemann-Weierstrass (e^a for distinct algebraic a are linearly
// independent over the algebraic numbers), grouping the keys by distinct score g,
// o_c = sum_g e^(s_g) V_g / sum_g e^(s_g) n_g (V_g = sum of v_jc over group g, n_g its size) is
// a rational r only if V_g = r n_g for every g: all groups have the same mean. That case is
// detected exactly (rational_mean) and o_c = sum_j v_jc / n computed directly (rounded correctly,
// see there); otherwise o_c is irrational, at a positive distance from every rounding boundary,
// and a finite precision decides it. lse = m + log d with one key is m itself (exact); with more,
// d > 1 and no rounding boundary has been met at 4096 bits (the last rung throws if one is).
#include "osvs/oracle/attention_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "attention_exact_terms.h"
#include "attention_fast.h"
#include "mpfr_thread_caches.h"
#include "mpfr_value.h"

namespace osvs::oracle {
namespace {

using detail::decided;
using detail::exact_dot;
using detail::MpValue;
using detail::require_exact;
using detail::round_to_type;

constexpr mpfr_prec_t kScoreBits = detail::kExactDotBits;
constexpr mpfr_prec_t kCapBits = 1400;
constexpr double kGap = 4096;
constexpr mpfr_prec_t kZivBits[] = {128, 256, 512, 1024, 2048, 4096};

/// The exact score of key j: with an fp8 key scale, (q . k_j) times scale k_scale, a product of
/// two floats, exact in double.
MpValue exact_score(const AttentionQuery& a, std::int64_t j) {
  return exact_dot(a.q, a.k + j * a.head_dim, a.head_dim,
                   static_cast<double>(a.scale) * static_cast<double>(a.k_scale));
}

bool all_finite(const float* x, std::int64_t n) {
  return std::all_of(x, x + n, [](float v) { return std::isfinite(v); });
}

/// When o_c is rational (every group of equal scores has the same mean of v_jc; see the top), its
/// value sum_j v_jc / n correctly rounded to type t; otherwise nothing. `order` lists the keys by
/// score, `values` holds the kept keys' values (v_scale v_jc: doubles, products of two floats),
/// `dim` a key. Rounding: the sum is exact at kScoreBits (terms of at most 48 bits, exponents in
/// [-298, 256]); the quotient at 4 kScoreBits is either exact (then rounded correctly by
/// round_to_type) or not dyadic with few bits, and then more than 2^-(426 + log2 n) relative
/// away from every boundary of t (S is a multiple of 2^-298, n B of 2^-150 for a boundary B,
/// |B| <= 2^128), far beyond its 2^-4800 error: the approximation rounds like the exact value.
std::optional<float> rational_mean(const std::vector<double>& values, std::size_t dim,
                                   const std::vector<std::int64_t>& order,
                                   const std::vector<MpValue>& score, std::size_t c, DType t) {
  MpValue total(kScoreBits), group(kScoreBits), first_group(kScoreBits), lhs(2 * kScoreBits),
      rhs(2 * kScoreBits);
  mpfr_set_zero(total.get(), 1);
  std::int64_t first_count = 0;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t end = i;
    mpfr_set_zero(group.get(), 1);
    while (end < order.size() && mpfr_equal_p(score[static_cast<std::size_t>(order[i])].get(),
                                              score[static_cast<std::size_t>(order[end])].get())) {
      const double v = values[static_cast<std::size_t>(order[end]) * dim + c];
      require_exact(mpfr_add_d(group.get(), group.get(), v, MPFR_RNDN), "group sum");
      ++end;
    }
    const auto count = static_cast<std::int64_t>(end - i);
    if (first_count == 0) {
      mpfr_set(first_group.get(), group.get(), MPFR_RNDN);
      first_count = count;
    } else {  // same mean: V_g n_first == V_first n_g, exactly
      require_exact(mpfr_mul_si(lhs.get(), group.get(), static_cast<long>(first_count), MPFR_RNDN),
                    "mean test");
      require_exact(mpfr_mul_si(rhs.get(), first_group.get(), static_cast<long>(count), MPFR_RNDN),
                    "mean test");
      if (!mpfr_equal_p(lhs.get(), rhs.get())) return std::nullopt;
    }
    require_exact(mpfr_add(total.get(), total.get(), group.get(), MPFR_RNDN), "total");
    i = end;
  }
  MpValue mean(4 * kScoreBits);
  mpfr_div_si(mean.get(), total.get(), static_cast<long>(order.size()), MPFR_RNDN);
  return round_to_type(mean.get(), t);
}

/// x -= slope |position - j|, the ALiBi bias of key j (subtract_alibi_bias: exact when x's
/// precision holds the difference; the callers' 1200 bits do for an exact score, a softcapped one
/// is rounded once, in their bound).
int subtract_alibi_bias(mpfr_ptr x, const AttentionQuery& a, std::int64_t j) {
  return detail::subtract_alibi_bias(x, a.alibi_slope, std::llabs(a.alibi_position - j));
}

/// Per output component c, at precision p, both from +0: N_c = sum_j w_j v_jc, the numerator of
/// o_c, and A_c = sum_j w_j |v_jc|, the magnitude the error terms scale with (eps_n above).
struct WeightedSums {
  std::vector<MpValue> num, abs_sum;
  WeightedSums(std::size_t dim, mpfr_prec_t p) {
    for (std::size_t c = 0; c < dim; ++c) {
      num.emplace_back(p);
      abs_sum.emplace_back(p);
      mpfr_set_zero(num.back().get(), 1);
      mpfr_set_zero(abs_sum.back().get(), 1);
    }
  }
  /// N_c += w v, A_c += w |v|: each product and each sum rounded once (term: scratch).
  void add(std::size_t c, mpfr_srcptr w, double v, mpfr_ptr term) {
    mpfr_mul_d(term, w, v, MPFR_RNDN);
    mpfr_add(num[c].get(), num[c].get(), term, MPFR_RNDN);
    mpfr_mul_d(term, w, std::fabs(v), MPFR_RNDN);
    mpfr_add(abs_sum[c].get(), abs_sum[c].get(), term, MPFR_RNDN);
  }
};

}  // namespace

AttentionReference attention_reference(const AttentionQuery& a) {
  if (std::optional<AttentionReference> fast = detail::attention_reference_fast(a))
    return *std::move(fast);
  AttentionReference r = attention_reference_mpfr(a);
  r.mpfr = true;
  return r;
}

AttentionReference attention_reference_mpfr(const AttentionQuery& a) {
  detail::free_mpfr_caches_at_thread_exit();  // (exact_attention's worker threads use MPFR too)
  AttentionReference r;
  const auto dim = static_cast<std::size_t>(a.o_dim());
  r.o_rounded.assign(dim, 0.0f);
  r.o.assign(dim, 0.0);
  r.magnitude.assign(dim, 0.0);
  r.o_finite.assign(dim, true);
  std::vector<std::int64_t> keys;
  for (std::int64_t j = 0; j < a.kv_len; ++j)
    if (a.masked == nullptr || a.masked[j] == 0) keys.push_back(j);
  r.unmasked = static_cast<std::int64_t>(keys.size());
  if (keys.empty() && !a.has_sink) {
    r.outcome = AttnOutcome::Empty;
    r.lse_rounded = -INFINITY;
    r.lse = -INFINITY;
    return r;
  }
  bool finite = all_finite(a.q, a.head_dim);
  for (std::int64_t j : keys) finite = finite && all_finite(a.k + j * a.head_dim, a.head_dim);
  if (!finite) {
    r.outcome = AttnOutcome::NotFinite;
    return r;
  }
  r.outcome = AttnOutcome::Finite;  // (a query without keys but a sink too: o = 0, lse = sink)

  // Exact scores (indexed like `keys`), their maximum, the keys in score order, finite columns.
  std::vector<MpValue> score;
  for (std::int64_t j : keys) score.push_back(exact_score(a, j));
  // ALiBi without a softcap: the bias joins the exact score (exact: b_j = -slope |dist| has 24 +
  // 31 bits, below 2^160, and the sum spans fewer than 1200 bits), so that the equal-score groups
  // of rational_mean and the one-key lse below see s_j + b_j.
  const bool alibi = a.alibi_slope != 0;
  if (alibi && a.softcap <= 0)
    for (std::size_t i = 0; i < keys.size(); ++i)
      require_exact(subtract_alibi_bias(score[i].get(), a, keys[i]), "score + ALiBi bias");
  // The scores the softmax weighs: the exact ones, or softcapped at kCapBits (delta above).
  std::vector<MpValue> weighed;
  double delta = 0;
  const double max_bias = std::fabs(double{a.alibi_slope}) *
                          static_cast<double>(a.kv_len + std::llabs(a.alibi_position));
  for (const MpValue& x : score) {
    if (a.softcap <= 0) {
      weighed.emplace_back(kScoreBits);
      mpfr_set(weighed.back().get(), x.get(), MPFR_RNDN);  // exact: the same precision
      continue;
    }
    weighed.emplace_back(kCapBits);
    mpfr_ptr w = weighed.back().get();
    mpfr_div_d(w, x.get(), a.softcap, MPFR_RNDN);
    mpfr_tanh(w, w, MPFR_RNDN);
    mpfr_mul_d(w, w, a.softcap, MPFR_RNDN);
    delta = 3.01 * a.softcap * std::ldexp(1.0, -static_cast<int>(kCapBits));
    if (alibi) {  // w - slope |dist|, rounded once more: 2^-kCapBits (c + the largest bias)
      subtract_alibi_bias(w, a, keys[static_cast<std::size_t>(&x - score.data())]);
      delta += (a.softcap + max_bias) * std::ldexp(1.0, -static_cast<int>(kCapBits));
    }
  }
  // (the largest weighed score: with a softcap and a bias, not the largest exact one's)
  std::size_t arg_max = 0;
  for (std::size_t i = 1; i < weighed.size(); ++i)
    if (mpfr_greater_p(weighed[i].get(), weighed[arg_max].get())) arg_max = i;
  std::vector<std::int64_t> order(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::int64_t>(i);
  std::sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) {
    return mpfr_less_p(score[static_cast<std::size_t>(x)].get(),
                       score[static_cast<std::size_t>(y)].get());
  });
  // The softmax's maximum m': the largest weighed score, or the sink when larger.
  MpValue top(kCapBits);
  if (keys.empty() || (a.has_sink && mpfr_cmp_d(weighed[arg_max].get(), a.sink) < 0))
    mpfr_set_flt(top.get(), a.sink, MPFR_RNDN);
  else
    mpfr_set(top.get(), weighed[arg_max].get(), MPFR_RNDN);
  // The kept keys' values renumbered 0..n-1 (rational_mean reads them through `order`), each
  // v_scale v_jc: exact in double (two floats' product), v_jc itself when v_scale is 1.
  std::vector<double> values(keys.size() * dim);
  double v_max = 0;
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t c = 0; c < dim; ++c) {
      const double v = static_cast<double>(a.v_scale) *
                       static_cast<double>(a.v[static_cast<std::size_t>(keys[i]) * dim + c]);
      values[i * dim + c] = v;
      if (!std::isfinite(v))
        r.o_finite[c] = false;
      else
        v_max = std::max(v_max, std::fabs(v));
    }

  const auto n = static_cast<double>(keys.size());
  std::vector<bool> o_done(dim, false);
  for (std::size_t c = 0; c < dim; ++c) {
    if (!r.o_finite[c]) {
      r.o_rounded[c] = std::numeric_limits<float>::quiet_NaN();
      r.o[c] = std::numeric_limits<double>::quiet_NaN();
      o_done[c] = true;
    } else if (const auto mean = a.has_sink || (alibi && a.softcap > 0)
                                     ? std::nullopt
                                     : rational_mean(values, dim, order, score, c, a.out)) {
      r.o_rounded[c] = *mean;
      o_done[c] = true;
    }
  }
  bool lse_done = false;
  if (keys.size() == 1 && a.base == LseBase::E && !a.has_sink && a.softcap <= 0) {
    r.lse_rounded = mpfr_get_flt(score[0].get(), MPFR_RNDN);  // lse = m exactly: correct rounding
    lse_done = true;
  }

  for (const mpfr_prec_t p : kZivBits) {
    const double u = std::ldexp(1.0, -static_cast<int>(p));
    const double eps_e = 1.01 * ((kGap + 1) * u + 2.02 * delta);
    const double eps_d = 1.01 * (eps_e + (n + (a.has_sink ? 1 : 0)) * u);  // d's terms
    const double eps_n = 1.01 * (eps_e + (n + 1) * u);
    const double tiny = n * std::ldexp(1.0, -5909) * std::max(v_max, 1.0);
    MpValue t(p), e(p), d(p), term(p), log_d(p), lse(p), err(p);
    WeightedSums sums(dim, p);
    mpfr_set_zero(d.get(), 1);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      mpfr_sub(t.get(), weighed[i].get(), top.get(), MPFR_RNDN);
      if (mpfr_cmp_d(t.get(), -kGap) < 0) continue;  // left out (tiny)
      mpfr_exp(e.get(), t.get(), MPFR_RNDN);
      mpfr_add(d.get(), d.get(), e.get(), MPFR_RNDN);
      for (std::size_t c = 0; c < dim; ++c)
        if (r.o_finite[c]) sums.add(c, e.get(), values[i * dim + c], term.get());
    }
    if (a.has_sink) {  // the sink's term of the denominator (no value)
      mpfr_set_flt(t.get(), a.sink, MPFR_RNDN);
      mpfr_sub(t.get(), t.get(), top.get(), MPFR_RNDN);
      mpfr_exp(e.get(), t.get(), MPFR_RNDN);
      mpfr_add(d.get(), d.get(), e.get(), MPFR_RNDN);
    }
    bool all = true;
    for (std::size_t c = 0; c < dim; ++c) {
      if (!r.o_finite[c]) continue;
      MpValue o(p), mag(p);
      mpfr_div(o.get(), sums.num[c].get(), d.get(), MPFR_RNDN);
      mpfr_div(mag.get(), sums.abs_sum[c].get(), d.get(), MPFR_RNDN);
      r.o[c] = mpfr_get_d(o.get(), MPFR_RNDN);
      r.magnitude[c] = mpfr_get_d(mag.get(), MPFR_RNDN);
      if (o_done[c]) continue;
      mpfr_mul_d(err.get(), mag.get(), 2 * (eps_n + eps_d), MPFR_RNDU);
      mpfr_mul_d(term.get(), o.get(), 2 * u, MPFR_RNDU);
      mpfr_abs(term.get(), term.get(), MPFR_RNDU);
      mpfr_add(err.get(), err.get(), term.get(), MPFR_RNDU);
      mpfr_add_d(err.get(), err.get(), tiny, MPFR_RNDU);
      if (const auto rounded = decided(o.get(), err.get(), a.out)) {
        r.o_rounded[c] = *rounded;
        o_done[c] = true;
      } else {
        all = false;
      }
    }
    // lse = m + log d, in base e; base 2 divides by log 2.
    mpfr_log(log_d.get(), d.get(), MPFR_RNDN);
    mpfr_add(lse.get(), top.get(), log_d.get(), MPFR_RNDN);
    double err_l = 2 * (eps_d + u * std::fabs(mpfr_get_d(log_d.get(), MPFR_RNDU)) +
                        u * std::fabs(mpfr_get_d(lse.get(), MPFR_RNDU))) +
                   tiny + delta;
    if (a.base == LseBase::Two) {
      MpValue ln2(p);
      mpfr_const_log2(ln2.get(), MPFR_RNDN);
      mpfr_div(lse.get(), lse.get(), ln2.get(), MPFR_RNDN);
      err_l = 1.5 * err_l + 3 * u * std::fabs(mpfr_get_d(lse.get(), MPFR_RNDU));
    }
    r.lse = mpfr_get_d(lse.get(), MPFR_RNDN);
    if (!lse_done) {
      mpfr_set_d(err.get(), err_l, MPFR_RNDU);
      if (const auto rounded = decided(lse.get(), err.get(), DType::F32)) {
        r.lse_rounded = *rounded;
        lse_done = true;
      } else {
        all = false;
      }
    }
    if (all && lse_done) return r;
  }
  throw std::runtime_error(
      "attention reference: a rounding is undecided at 4096 bits (an output within 2^-4000 "
      "relative of a rounding boundary)");
}

MergeReference merge_reference(const std::vector<float>& lse,
                               const std::vector<std::vector<float>>& o, int head_dim,
                               LseBase base) {
  detail::free_mpfr_caches_at_thread_exit();
  constexpr mpfr_prec_t kBits = 320;  // errors ~2^-300 (times |lse| <= 2^128): far below 2^-60
  MergeReference r;
  const auto dim = static_cast<std::size_t>(head_dim);
  r.o.assign(dim, 0.0);
  r.magnitude.assign(dim, 0.0);
  r.o_finite.assign(dim, true);
  std::vector<std::size_t> live;
  for (std::size_t i = 0; i < lse.size(); ++i) {
    if (std::isnan(lse[i]) || lse[i] == INFINITY) {
      r.outcome = AttnOutcome::NotFinite;
      return r;
    }
    if (lse[i] != -INFINITY) live.push_back(i);
  }
  if (live.empty()) {
    r.outcome = AttnOutcome::Empty;
    r.lse = -INFINITY;
    return r;
  }
  r.outcome = AttnOutcome::Finite;
  float top = lse[live[0]];
  for (std::size_t i : live) top = std::max(top, lse[i]);
  MpValue w(kBits), d(kBits), term(kBits), ln2(kBits);
  mpfr_const_log2(ln2.get(), MPFR_RNDN);
  WeightedSums sums(dim, kBits);
  mpfr_set_zero(d.get(), 1);
  for (std::size_t i : live) {
    mpfr_set_flt(w.get(), lse[i], MPFR_RNDN);
    mpfr_sub_d(w.get(), w.get(), top, MPFR_RNDN);  // exact: a difference of two floats
    if (base == LseBase::E)
      mpfr_exp(w.get(), w.get(), MPFR_RNDN);
    else
      mpfr_exp2(w.get(), w.get(), MPFR_RNDN);
    mpfr_add(d.get(), d.get(), w.get(), MPFR_RNDN);
    for (std::size_t c = 0; c < dim; ++c) {
      const float v = o[i][c];
      if (!std::isfinite(v)) {
        r.o_finite[c] = false;
        continue;
      }
      sums.add(c, w.get(), v, term.get());
    }
  }
  for (std::size_t c = 0; c < dim; ++c) {
    if (!r.o_finite[c]) {
      r.o[c] = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    mpfr_div(term.get(), sums.num[c].get(), d.get(), MPFR_RNDN);
    r.o[c] = mpfr_get_d(term.get(), MPFR_RNDN);
    mpfr_div(term.get(), sums.abs_sum[c].get(), d.get(), MPFR_RNDN);
    r.magnitude[c] = mpfr_get_d(term.get(), MPFR_RNDN);
  }
  if (base == LseBase::E)
    mpfr_log(term.get(), d.get(), MPFR_RNDN);
  else
    mpfr_log2(term.get(), d.get(), MPFR_RNDN);
  mpfr_add_d(term.get(), term.get(), top, MPFR_RNDN);
  r.lse = mpfr_get_d(term.get(), MPFR_RNDN);
  return r;
}

}  // namespace osvs::oracle
