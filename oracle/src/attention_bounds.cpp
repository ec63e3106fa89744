// The attention kernels' error bounds, derived from their order (split_decode.h,
// attention_state.h, merge_states.h) and the primitives' accuracies (docs/semantics.md §6, §8).
//
// Notation: u = 2^-24; u_T = 2^-p_T the output type's unit roundoff (p_T = 24, 8, 11); gamma_k =
// k u / (1 - k u); c_x, c_l the exp and log accuracies in ulps (lse_math.h), so a normal result
// has relative error at most eps_x = 2 c_x u, eps_l = 2 c_l u (an ulp is at most 2u relative);
// b the base, lambda_b = ln b; all lse's and scores in base-b units. Lambda bounds |lse| of every
// partial and |score| of every key; V bounds |v_jc|.
//
// ONE SPLIT (n unmasked keys, L = ceil(head_dim / 32) components per lane).
//  (a) Scores. Each product q_c k_jc enters one lane's fma chain (at most L roundings) and the
//      5-step butterfly: |dot^ - dot| <= gamma_(L+5) sum_c |q_c k_jc| (the classical bound for
//      any summation tree of depth L + 5). Then s^ = fl(dot^ mu) with mu = scale (base e) or
//      fl(scale fl(log2 e)) = scale log2(e) (1 + d), |d| <= 2u + u^2 (base 2). So
//      |s^_j - beta s_j| <= H := [(1 + gamma_(L+5))(1 + u_mu)(1 + u) - 1] max_j beta A_j,
//      A_j = |scale| sum_c |q_c k_jc|, u_mu = 0 or 2u + u^2.
//  (b) Weights. Let m^ be the computed maximum and w_j = b^(beta s_j - m^) the exact weights in
//      the computed shift (the shift cancels in o and enters lse exactly). Key j's weight in d^
//      and in each o^_c is b^(s^_j - m^) (within b^(+-H) of w_j) times: at most n exp results
//      (its own lift, when it was the smaller side, and one per later change of the maximum), each
//      within (1 + eps_x); at most n fma roundings (one per later step, as in recursive
//      summation); and the exp arguments' roundings, at most u |Delta_i| each, whose Delta_i all
//      have one sign and telescope to m^ - s^_j. Where that exceeds kArgRange = 150 b-units the
//      weight is below 2^-149 however its arguments rounded (an absolute term below covers
//      it); elsewhere the arguments cost at most u kArgRange. So each weight that matters is
//      perturbed by a factor within (1 +- phi),
//        phi = (1 + eps_x)^n (1 + u)^n b^(H + u kArgRange) - 1,
//      independently in the numerator sum and in d.
//  (c) o. With numerator weights w_j (1 + f_j) and denominator weights w_j (1 + g_j), |f|, |g| <=
//      phi: |N'/D' - N/D| = |sum w_j f_j v_j - o sum w_j g_j| / D' <= 2 phi M_c / (1 - phi),
//      since |o| <= M_c. The division rounds once (u) and the store to the output type once
//      (u_T):  o_rel = (1 + 2 phi / (1 - phi)) (1 + u) (1 + u_T) - 1.
//      Absolute terms: a weight below 2^-126 is subnormal and carries an absolute error up to
//      (c_x + 1) 2^-149 per operation on it (2n + 2 of them), against d^ >= 1 (the final
//      maximum's weight is 1 exactly): n (2n + 2)(c_x + 1) 2^-149 V; a subnormal o sum or quotient
//      adds 2^-150 per rounding (n + 2); the store a half subnormal ulp of the type,
//      2^(e_min - p_T):  o_abs = n (2n + 2)(c_x + 1) 2^-149 V + (n + 2) 2^-150 + 2^(e_min - p_T).
//  (d) lse = fl(m^ + fl(log_b d^)). LSE_b is 1-Lipschitz in the max norm, so the scores' errors
//      move it by at most H; d^ is within (1 +- phi') of the exact sum in the computed scores,
//      phi' = (1 + eps_x)^n (1 + u)^n b^(u kArgRange) - 1 + n (2n + 2)(c_x + 1) 2^-149 (d >= 1),
//      which moves log_b by at most -log(1 - phi') / lambda_b; the log is within eps_l
//      |log_b d^| <= eps_l log_b(n (1 + phi')); the final sum rounds once, u (Lambda + 1):
//        lse_abs = H - log(1 - phi') / lambda_b + eps_l log_b(n (1 + phi')) + u (Lambda + 1).
//      A single key gives d^ = 1 and log_b 1 = 0 exactly: the same formula holds.
//
// ONE MERGE of partials a, b (bounds R_a, R_b, ...; weights W = b^lse). Empty partials are
// selected away exactly, so merging with one returns the other's bound.
//  e^ = exp_b(fl(l^_s - l^_b)): within (1 +- phi_e) of b^(l^_s - l^_b), phi_e = b^(u kArgRange)
//  (1 + eps_x) - 1 (beyond kArgRange both are below 2^-149: absolute (c_x + 2) 2^-149), and within
//  (1 +- phi_m) of the exact ratio W_s / W_b, phi_m = b^(lse_abs_a + lse_abs_b) (1 + phi_e) - 1; d^
//  = fl(1 + e^) adds one rounding: phi = (1 + phi_m)(1 + u) - 1 bounds both the numerator's and the
//  denominator's perturbation. o = (W_s o_s + W_b o_b) / (W_s + W_b) and M = (W_s M_s + W_b M_b) /
//  (W_s + W_b) exactly (the merged M_c is the union's). As in (c), with the inputs' errors R_i M_i
//  + abs_i carried by weights within (1 + phi)/(1 - phi) of the exact ones:
//    o_rel = (1 + (R + 2 phi + 2 phi R)(1 + phi)/(1 - phi)) (1 + u)^2 (1 + u_T) - 1, R = max R_i
//    (one fma rounding, one division, one store), and
//    o_abs = max abs_i (1 + phi)/(1 - phi) (1 + u)^2 (1 + u_T) + (c_x + 2) 2^-149 V + 3 2^-150
//            + 2^(e_min - p_T)   (e^ tiny: absolute (c_x + 2) 2^-149 times |o_s| <= V).
//  lse: LSE_b is 1-Lipschitz (max lse_abs_i); log_b(1 + e^) moves by at most (phi_e + (c_x + 2)
//  2^-149) / lambda_b from e^'s error and u / lambda_b from the rounding of 1 + e^; the log of
//  d^ in [1, 2] errs by at most eps_l (|log_b d^| <= 1); the final sum rounds once:
//    lse_abs = max lse_abs_i + (phi_e + u + (c_x + 2) 2^-149) / lambda_b + eps_l + u (Lambda + 1).
// A perturbation phi >= 1/2 leaves no useful bound: the bound is +inf (unless_useless).
// A tree applies the merge bound at every node (tree_bound walks the plan's merges).
#include "osvs/oracle/attention_bounds.h"

#include <algorithm>
#include <cmath>

namespace osvs::oracle {
namespace {

constexpr double kU = 0x1p-24;

/// Beyond this many b-units below the maximum a weight b^Delta is below 2^-149 (base e: 2^-216):
/// it is 0 or subnormal whatever its argument's rounding, and the absolute underflow terms
/// cover it. Within it, an exp argument's rounding costs at most u kArgRange in the exponent.
constexpr double kArgRange = 150;

/// A perturbation this large leaves no useful bound: the result is +inf (never violated, and
/// never mistaken for a bound that was approached).
double unless_useless(double phi, double value) {
  return phi < 0.5 ? value : INFINITY;
}

double gamma(double k) {
  return k * kU / (1 - k * kU);
}

double lambda_of(LseBase base) {
  return base == LseBase::E ? 1.0 : std::log(2.0);
}

/// b^x for x in b-units.
double pow_b(LseBase base, double x) {
  return std::exp(lambda_of(base) * x);
}

double unit_roundoff(DType t) {
  return std::ldexp(1.0, -precision_of(t));
}

/// Half a subnormal ulp of the output type: the absolute error of storing a tiny value.
double half_subnormal_ulp(DType t) {
  return std::ldexp(1.0, min_exponent_of(t) - precision_of(t));
}

/// beta |scale| sum_c |q_c k_c|, rounded up (a double sum of float products: relative error
/// below 2^-44 for head_dim <= 256; the factor 1 + 2^-40 covers it).
double dot_magnitude(const DecodeProblem& p, const float* q, const float* k) {
  double sum = 0;
  for (int c = 0; c < p.head_dim; ++c) sum += std::fabs(double{q[c]} * double{k[c]});
  const double beta = p.base == LseBase::E ? 1.0 : 1.0 / std::log(2.0);
  return sum * std::fabs(double{p.scale}) * beta * (1 + 0x1p-40);
}

const float* key_row(const std::vector<float>& kv, const DecodeProblem& p, std::int64_t row,
                     std::int64_t j) {
  return kv.data() + static_cast<std::size_t>((row * p.kv_len + j) * p.head_dim);
}

}  // namespace

AttnBound split_bound(const SplitKeys& keys, const AttnBoundContext& ctx) {
  if (keys.unmasked == 0) return AttnBound{};
  const auto n = static_cast<double>(keys.unmasked);
  const double lanes_chain = std::ceil(ctx.head_dim / static_cast<double>(kAttnWarp));
  const double u_mu = ctx.base == LseBase::E ? 0.0 : 2 * kU + kU * kU;
  const double c_x = lse_exp_max_ulp(ctx.base, ctx.gpu);
  const double eps_x = 2 * c_x * kU;
  const double eps_l = 2 * lse_log_max_ulp(ctx.base, ctx.gpu) * kU;
  const double u_t = unit_roundoff(ctx.out);
  const double lambda = ctx.lse_magnitude;
  // (a) scores
  const double h =
      ((1 + gamma(lanes_chain + 5)) * (1 + u_mu) * (1 + kU) - 1) * keys.max_dot_magnitude;
  // (b) weights
  const double rounding = std::pow(1 + eps_x, n) * std::pow(1 + kU, n);
  const double phi = rounding * pow_b(ctx.base, h + kU * kArgRange) - 1;
  const double underflow = n * (2 * n + 2) * (c_x + 1) * 0x1p-149;
  // (c) o
  AttnBound b;
  b.empty = false;
  b.o_rel = unless_useless(phi, (1 + 2 * phi / (1 - phi)) * (1 + kU) * (1 + u_t) - 1);
  b.o_abs = underflow * ctx.v_max + (n + 2) * 0x1p-150 + half_subnormal_ulp(ctx.out);
  // (d) lse
  const double phi_d = rounding * pow_b(ctx.base, kU * kArgRange) - 1 + underflow;
  const double lambda_b = lambda_of(ctx.base);
  b.lse_abs =
      unless_useless(phi_d, h - std::log(1 - phi_d) / lambda_b +
                                eps_l * std::log(n * (1 + phi_d)) / lambda_b + kU * (lambda + 1));
  return b;
}

AttnBound merge_bound(const AttnBound& a, const AttnBound& b, const AttnBoundContext& ctx) {
  if (a.empty) return b;
  if (b.empty) return a;
  const double c_x = lse_exp_max_ulp(ctx.base, ctx.gpu);
  const double eps_x = 2 * c_x * kU;
  const double eps_l = 2 * lse_log_max_ulp(ctx.base, ctx.gpu) * kU;
  const double u_t = unit_roundoff(ctx.out);
  const double lambda = ctx.lse_magnitude;
  const double lambda_b = lambda_of(ctx.base);
  const double phi_e = pow_b(ctx.base, kU * kArgRange) * (1 + eps_x) - 1;
  const double phi_m = pow_b(ctx.base, a.lse_abs + b.lse_abs) * (1 + phi_e) - 1;
  const double phi = (1 + phi_m) * (1 + kU) - 1;
  const double r = std::max(a.o_rel, b.o_rel);
  const double stores = (1 + kU) * (1 + kU) * (1 + u_t);
  const double spread = (1 + phi) / (1 - phi);
  AttnBound m;
  m.empty = false;
  m.o_rel = unless_useless(phi, (1 + (r + 2 * phi + 2 * phi * r) * spread) * stores - 1);
  m.o_abs = std::max(a.o_abs, b.o_abs) * spread * stores + (c_x + 2) * 0x1p-149 * ctx.v_max +
            3 * 0x1p-150 + half_subnormal_ulp(ctx.out);
  m.lse_abs = std::max(a.lse_abs, b.lse_abs) + (phi_e + kU + (c_x + 2) * 0x1p-149) / lambda_b +
              eps_l + kU * (lambda + 1);
  return m;
}

AttnBound tree_bound(std::vector<AttnBound> leaves, const std::vector<Merge>& merges,
                     const AttnBoundContext& ctx) {
  for (const Merge& m : merges)
    leaves[static_cast<std::size_t>(m.dst)] = merge_bound(
        leaves[static_cast<std::size_t>(m.dst)], leaves[static_cast<std::size_t>(m.src)], ctx);
  return leaves.at(0);
}

AttnBoundContext decode_context(const DecodeProblem& p, std::int64_t row, bool gpu) {
  AttnBoundContext ctx{p.head_dim, p.base, p.out, gpu, 0, 0};
  const int b = static_cast<int>(row / p.heads);
  const float* q = p.q.data() + static_cast<std::size_t>(row * p.head_dim);
  double max_dot = 0;
  std::int64_t n = 0;
  for (std::int64_t j = 0; j < p.kv_len; ++j) {
    if (p.is_masked(b, j)) continue;
    ++n;
    max_dot = std::max(max_dot, dot_magnitude(p, q, key_row(p.k, p, row, j)));
    const float* v = key_row(p.v, p, row, j);
    for (int c = 0; c < p.head_dim; ++c) ctx.v_max = std::max(ctx.v_max, std::fabs(double{v[c]}));
  }
  // |lse| <= max |score| + log_b n, plus the scores' and the lse's own errors (far below 1).
  ctx.lse_magnitude =
      max_dot * (1 + 0x1p-16) + std::log(std::max<double>(n, 1)) / lambda_of(p.base) + 1;
  return ctx;
}

SplitKeys split_keys(const DecodeProblem& p, std::int64_t row, std::int64_t begin,
                     std::int64_t end) {
  const int b = static_cast<int>(row / p.heads);
  const float* q = p.q.data() + static_cast<std::size_t>(row * p.head_dim);
  SplitKeys keys;
  for (std::int64_t j = begin; j < end; ++j) {
    if (p.is_masked(b, j)) continue;
    ++keys.unmasked;
    keys.max_dot_magnitude =
        std::max(keys.max_dot_magnitude, dot_magnitude(p, q, key_row(p.k, p, row, j)));
  }
  return keys;
}

AttnBound decode_bound(const DecodeProblem& p, const SplitPlan& plan, std::int64_t row, bool gpu) {
  const AttnBoundContext ctx = decode_context(p, row, gpu);
  std::vector<AttnBound> leaves;
  for (int s = 0; s < plan.splits(); ++s)
    leaves.push_back(split_bound(split_keys(p, row, plan.offsets[static_cast<std::size_t>(s)],
                                            plan.offsets[static_cast<std::size_t>(s) + 1]),
                                 ctx));
  return tree_bound(std::move(leaves), plan.merges, ctx);
}

bool in_bound_domain(const DecodeProblem& p, std::int64_t row) {
  const int b = static_cast<int>(row / p.heads);
  const float* q = p.q.data() + static_cast<std::size_t>(row * p.head_dim);
  if (!std::all_of(q, q + p.head_dim, [](float x) { return std::isfinite(x); })) return false;
  double v_max = 0, max_dot = 0;
  std::int64_t n = 0;
  for (std::int64_t j = 0; j < p.kv_len; ++j) {
    if (p.is_masked(b, j)) continue;
    ++n;
    const float* k = key_row(p.k, p, row, j);
    const float* v = key_row(p.v, p, row, j);
    for (int c = 0; c < p.head_dim; ++c) {
      if (!std::isfinite(k[c]) || !std::isfinite(v[c])) return false;
      v_max = std::max(v_max, std::fabs(double{v[c]}));
    }
    // Every partial dot product is at most sum_c |q_c k_c| (1 + gamma): far from 2^128.
    double raw = 0;
    for (int c = 0; c < p.head_dim; ++c) raw += std::fabs(double{q[c]} * double{k[c]});
    max_dot = std::max({max_dot, raw, dot_magnitude(p, q, k)});
  }
  return max_dot < 0x1p100 && double(n) * v_max < 0x1p100 &&
         v_max <= static_cast<double>(max_finite_of(p.out)) / 2;
}

double o_tolerance(const AttnBound& b, double magnitude) {
  if (!std::isfinite(b.o_rel) || !std::isfinite(b.o_abs)) return INFINITY;  // no useful bound
  return b.o_rel * magnitude + b.o_abs + 0x1p-50 * magnitude;
}

double lse_tolerance(const AttnBound& b, double lse) {
  if (!std::isfinite(b.lse_abs)) return INFINITY;  // no useful bound
  return b.lse_abs + 0x1p-50 * std::fabs(lse);
}

}  // namespace osvs::oracle
