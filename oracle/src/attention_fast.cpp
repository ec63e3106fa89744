// The fast path of the exact attention of one query (attention_fast.h): every quantity in
// double-double, every output with a certified bound on its error; an output is taken only when
// that bound decides its rounding AND keeps the doubles as accurate as attention_reference.h
// promises. Otherwise nothing is returned and the MPFR path (attention_reference.cpp) decides the
// whole query, so the result is the same whichever path decides (the oracle's tests check it).
//
// Error analysis. u = 2^-53, gamma_k = k u / (1 - k u); n kept keys, D = q/k's head_dim.
// Taken: at least one kept key, q and every kept k finite, no softcap (its tanh has no certified
// double-double version here). Every bound below is an upper bound computed in double and
// widened by a factor 1.01-1.05 where it multiplies (1 + eps) factors, eps <= 2^-60 (checked).
//
// 1. Scores. p_c = q_c k_jc is exact in double (24 + 24 bits; |p_c| in [2^-298, 2^256] or 0).
//    Four cascades (c mod 4) (S, e) = TwoSum(S, p_c) exact, C += e, then the four (S, C) added by
//    three more TwoSums: D' = D + 4 exact transformations, each |S| <= (1 + u)^D P (P = sum |p_c|),
//    |e| <= u |S|, and each e through at most D' roundings of the C's: |S + C - sum p_c| <=
//    gamma_D' (sum |e|) <= 1.01 D'^2 u^2 P, plus D' 2^-1074 where C's terms are subnormal.
//    (S_D, C) normalized by TwoSum (exact), times the scale by dd_mul (8.05 u^2 relative):
//      |s^_j - s_j| <= 1.01 D'^2 u^2 P |scale| (1.01) + 8.1 u^2 |s^_j| + 2^-1000 =: delta_j
//    An ALiBi bias b_j = -slope |position - j|: TwoProd (exact: 24 + 53 bits), dd_add (3.02 u^2
//    (|s^_j| + |b_j|), double_double.h): delta_j gains 3.06 u^2 (|s^_j| + |b_j|).
// 2. Shift. m^ = the largest s^_j.h, or the sink when larger. Any m^ gives the same softmax and
//    lse = m^ + log sum_j e^(s_j - m^); this one is within delta + 2^-52 |m^| of the maximum, so
//    d = sum_j e^(s_j - m^) (+ e^(sink - m^)) >= 1/2.
//    A = TwoSum(s^_j.h, -m^) exact; t^_j = TwoSum(A.h, fl(A.l + s^_j.l)): one rounding of a value
//    below u (|A.h| + |s^_j.h|) (1 + u):
//      |t^_j - (s_j - m^)| <= delta_j + 1.01 u^2 (|A.h| + |s^_j.h|) =: eta_j
//    The sink: TwoSum(sink, -m^), exact (eta 0).
// 3. Weights e^_j = e^(t^_j): exp_dd (2^-96, exp_double_double.h) for t^_j.h >= -128. Below,
//    t^_j.h in [-kFarGap, -128): J = floor(-t^_j.h / 128) in [1, 4], g = t^_j + 128 J in
//    (-128, 0] by TwoSum(t^_j.h, 128 J) (exact) and one rounding of its low part
//    (<= 1.01 u^2 (128 + kFarGap) < 2^-96.4), e^_j = e^g E_J, E_J = e^(-128 J) from MPFR
//    (1.01 u^2), by dd_mul (8.05 u^2): relative error < 2^-95 in all. Keys with
//    t^_j.h < -kFarGap are left out ("far"): e^(t_j) < 2^-865 each.
//    So e^_j = e^(s_j - m^) (1 + eps_j), |eps_j| <= 1.01 (1.01 eta_j + 2^-95) (eta_j <= 2^-10,
//    checked); eps_e = max eps_j.
// 4. Sums (Acc below; Ogita, Rump & Oishi's cascaded summation, each term main + rest):
//    (H, s) = TwoSum(H, main) exact, L = fl(L + fl(s + rest)). With |rest| <= rho |main|, the
//    n sigma's and rests go through at most n + 1 roundings each (recursive summation), and
//    |s_k| <= u |H_k| <= u (1 + u)^n sum |main|:
//      |H + L - sum (main + rest)| <= 1.01 gamma_(2n) (1.01 n u + rho) sum |main| =: acc(n, rho)
//    d: main e^_j.h, rest e^_j.l (rho = u). N_c = sum e^_j v_jc and A_c = sum e^_j |v_jc| (the
//    magnitude's numerator): e^_j.h = a + b (Veltkamp: a of 26 bits, |b| <= 2^-26 |e^_j.h|), main
//    a v (exact: 26 + 24 bits), rest fl(b v + fl(e^_j.l v)) (b v exact: 27 + 24 bits),
//    rho <= 0x1.2p-26, and the rest's two roundings, u (2^-26 + 2u) |e^_j.h v|, add at most
//    0x1.3p-79 |main| to each term; A_c the same with |v|. Products below 2^-1021 may round: 8
//    2^-1074 per term, absolute. Far keys: n_far 2^-865 max_far |v_jc| absolute on N_c and A_c,
//    n_far 2^-865 on d.
//      |d^ - d| <= (1.02 (acc_d + eps_e) + n_far 2^-864) d =: eps_d d
//      |N^_c - N_c|, |A^_c - A_c| <= (1.02 acc_v + 1.01 eps_e) A_c + abs_c =: eps_v A_c + abs_c
// 5. o_c = N_c / d and M_c = A_c / d by dd_div (32 u^2, double_double.h; 2^-1060 absolute for
//    values below its range). With A_c / d <= 1.01 M^_c and d^ >= 1/2 - eps:
//      |o^_c - o_c|, |M^_c - M_c| <= (1.05 (eps_v + eps_d) + 32.2 u^2) M^_c + 2.01 abs_c
//                                    + 2^-1060 =: err_c      (|o^_c| <= M^_c + 2 err_c)
//    Taken when err_c <= 2^-54 M^_c: then the doubles
//    fl(o^_c) and fl(M^_c) (one more rounding, 2^-53) are within 2^-52 M_c as promised. The
//    rounding to the output type is decided when both ends of [o^ - err, o^ + err], each computed
//    in double and then moved 2 ulps outward (two roundings of half an ulp at most), round to
//    the same bits (a result that underflows to 0 has its sign: an interval about 0 rounds to -0
//    and +0). When every kept v_jc is 0, o_c = +0 exactly (as MPFR's exact mean gives).
//    fp8 values (a value scale v_scale != 1, attention_reference.h): the exact o_c and M_c are
//    v_scale and |v_scale| times those of the stored v_jc, formed as above; o^_c and M^_c are
//    multiplied by dd_mul (8.05 u^2 relative, |o^| <= M^ + 2 err; 2^-1060 absolute for products
//    below its range, as dd_div's), and the error becomes
//      err'_c = 1.01 |v_scale| (err_c + 8.1 u^2 (M^_c + 2 err_c)) + 2^-1060
//    (1.01: the double arithmetic of the bound), taken and decided as above with M^'_c.
//    A key scale k_scale joins the score's scale in step 1: scale k_scale, a product of two
//    floats, is exact in double, and dd_mul's bound holds for any double factor.
// 6. lse. l0 = log(d^.h) by the C library (any accuracy: it is corrected), y = d^ e^(-l0)
//    (exp_dd, dd_mul: 2^-96 + 8.05 u^2 relative), delta = y - 1 (y.h - 1 exact, Sterbenz),
//    |delta.h| <= 2^-35 checked; log d^ = l0 + log(1 + delta), log(1 + delta) = delta -
//    delta^2 / 2 + r, |r| <= |delta|^3 / 3 (1.01) < 2^-106:
//      |l - log d^| <= 1.01 (2^-96 + 8.1 u^2) + 2^-105 + 2 u^2 |l|,  |log d^ - log d| <= 1.01 eps_d
//    lse = m^ + l by TwoSum and one rounding: 1.01 u^2 (|m^| + |l|) more. Base 2: times log2(e)
//    (a double-double from MPFR, 1.01 u^2; dd_mul 8.05 u^2): 1.45 err + 9.2 u^2 |lse2|. Taken when
//    err <= 2^-54 |lse| (so that fl(lse) is within 2^-52 |lse|) and decided as o's rounding, to
//    f32.
#include "attention_fast.h"

#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "attention_terms_dd.h"
#include "double_double.h"
#include "exp_double_double.h"
#include "mpfr_thread_caches.h"
#include "mpfr_value.h"

namespace osvs::oracle::detail {
namespace {

constexpr double kU = kDdU;
constexpr double kFar = 0x1p-865;         // e^-600 < 2^-865.6 (kFarGap, step 3)
constexpr double kTermFloor = 0x1p-1071;  // 8 2^-1074: a term's products below the normals
constexpr double kDivFloor = 0x1p-1060;   // dd_div below its range
constexpr double kTaken = 0x1p-54;        // the accuracy a taken output has before its rounding

/// log2(e) as a double-double from MPFR (1.01 u^2, step 6).
DoubleDouble make_log2e() {
  free_mpfr_caches_at_thread_exit();
  MpValue v(400), scratch(400);
  mpfr_set_ui(v.get(), 1, MPFR_RNDN);
  mpfr_exp(v.get(), v.get(), MPFR_RNDN);
  mpfr_log2(v.get(), v.get(), MPFR_RNDN);
  return to_double_double(v.get(), scratch.get());
}

const DoubleDouble& log2e() {
  static const DoubleDouble c = make_log2e();
  return c;
}

/// lo and hi, each computed in double and moved two ulps outward, around x +- err (step 5).
bool decide(DoubleDouble x, double err, DType t, float* out) {
  const double lo = std::nextafter(std::nextafter(x.h + (x.l - err), -INFINITY), -INFINITY);
  const double hi = std::nextafter(std::nextafter(x.h + (x.l + err), INFINITY), INFINITY);
  const float a = round_double_to(lo, t), b = round_double_to(hi, t);
  // The same bits: an interval about 0 rounds to -0 and +0 and is not decided.
  if (std::bit_cast<std::uint32_t>(a) != std::bit_cast<std::uint32_t>(b)) return false;
  *out = a;
  return true;
}

/// Scratch of one thread, reused from query to query.
struct Scratch {
  std::vector<std::int64_t> keys;
  std::vector<Score> scores;
  std::vector<DoubleDouble> e;
  std::vector<std::uint8_t> far;
  std::vector<Acc> num, mag;
  std::vector<double> v_abs;
};

}  // namespace

float round_double_to(double x, DType t) {
  if (x == 0 || !std::isfinite(x)) return static_cast<float>(x);
  const int p = precision_of(t);
  const int q = std::max(std::ilogb(x), min_exponent_of(t)) - (p - 1);
  const double integer = std::nearbyint(std::ldexp(x, -q));  // exact scaling; ties to even
  const double r = std::ldexp(integer, q);                   // exact: at most p + 1 bits
  if (std::fabs(r) > static_cast<double>(max_finite_of(t))) return r > 0 ? INFINITY : -INFINITY;
  return static_cast<float>(r);  // exact
}

std::optional<AttentionReference> attention_reference_fast(const AttentionQuery& a) {
  if (a.softcap > 0) return std::nullopt;
  thread_local Scratch w;
  const int dqk = a.head_dim;
  const auto dim = static_cast<std::size_t>(a.o_dim());
  w.keys.clear();
  for (std::int64_t j = 0; j < a.kv_len; ++j)
    if (a.masked == nullptr || a.masked[j] == 0) w.keys.push_back(j);
  const std::size_t n_kept = w.keys.size();
  if (n_kept == 0) return std::nullopt;  // empty (MPFR's answer is immediate) or a sink alone
  for (int c = 0; c < dqk; ++c)
    if (!std::isfinite(a.q[c])) return std::nullopt;

  AttentionReference r;
  r.outcome = AttnOutcome::Finite;
  r.unmasked = static_cast<std::int64_t>(n_kept);
  r.o_rounded.assign(dim, 0.0f);
  r.o.assign(dim, 0.0);
  r.magnitude.assign(dim, 0.0);
  r.o_finite.assign(dim, true);
  // sum_j |v_jc| in double (no overflow: n 2^128 << 2^1024): NaN or inf iff some v_jc is, 0 iff
  // every v_jc is +-0. (A loop the compiler vectorizes; the flags are read once below.)
  w.v_abs.assign(dim, 0.0);
  for (std::int64_t j : w.keys) {
    const float* v = a.v + static_cast<std::size_t>(j) * dim;
    for (std::size_t c = 0; c < dim; ++c) w.v_abs[c] += std::fabs(double{v[c]});
  }
  for (std::size_t c = 0; c < dim; ++c) r.o_finite[c] = std::isfinite(w.v_abs[c]);

  // Steps 1-2: scores and the shift (a key scale times the score's: exact in double).
  const double score_scale = static_cast<double>(a.scale) * static_cast<double>(a.k_scale);
  w.scores.resize(n_kept);
  double m = -INFINITY;
  for (std::size_t i = 0; i < n_kept; ++i) {
    w.scores[i] = score_of(a.q, a.k + w.keys[i] * dqk, dqk, score_scale);
    if (a.alibi_slope != 0)  // step 1's bias
      add_alibi_bias(w.scores[i], a.alibi_slope, std::llabs(a.alibi_position - w.keys[i]));
    // q is finite: a NaN or inf in k makes the score NaN or inf (finite floats cannot overflow it)
    if (!std::isfinite(w.scores[i].s.h) || !std::isfinite(w.scores[i].s.l)) return std::nullopt;
    m = std::max(m, w.scores[i].s.h);
  }
  if (a.has_sink) m = std::max(m, static_cast<double>(a.sink));
  // Step 3: weights; far keys left out.
  w.e.resize(n_kept);
  w.far.assign(n_kept, 0);
  double eps_e = 0;
  std::size_t n_far = 0;
  for (std::size_t i = 0; i < n_kept; ++i) {
    const DoubleDouble s = w.scores[i].s;
    const DoubleDouble shift = two_sum(s.h, -m);
    const DoubleDouble t = two_sum(shift.h, shift.l + s.l);
    if (t.h < -kFarGap) {
      w.far[i] = 1;
      w.e[i] = {};
      ++n_far;
      continue;
    }
    const double eta = w.scores[i].delta + 1.01 * kU * kU * (std::fabs(shift.h) + std::fabs(s.h));
    if (!(eta <= 0x1p-10) || !weight(t, &w.e[i])) return std::nullopt;
    eps_e = std::max(eps_e, 1.01 * (1.01 * eta + 0x1p-95));
  }
  DoubleDouble sink_e;  // the sink's term of d (0 when far: then counted with the far keys)
  bool sink_far = false;
  if (a.has_sink) {
    const DoubleDouble t = two_sum(static_cast<double>(a.sink), -m);  // exact
    sink_far = t.h < -kFarGap;
    if (!sink_far && !weight(t, &sink_e)) return std::nullopt;
    eps_e = std::max(eps_e, 1.01 * 0x1p-95);
  }
  const double n = static_cast<double>(n_kept) + (a.has_sink ? 1 : 0);

  // Step 4: the sums, key after key; far keys' largest |v| per component.
  Acc d_acc;
  w.num.assign(dim, Acc{});
  w.mag.assign(dim, Acc{});
  std::vector<double> far_v(dim, 0.0);
  for (std::size_t i = 0; i < n_kept; ++i) {
    const float* v = a.v + static_cast<std::size_t>(w.keys[i]) * dim;
    if (w.far[i]) {
      for (std::size_t c = 0; c < dim; ++c)
        if (r.o_finite[c]) far_v[c] = std::max(far_v[c], std::fabs(double{v[c]}));
      continue;
    }
    const DoubleDouble e = w.e[i];
    d_acc.add(e.h, e.l);
    const double split = e.h * 134217729.0;  // Veltkamp: 2^27 + 1
    const double hi = split - (split - e.h), lo_part = e.h - hi;
    Acc* num = w.num.data();
    Acc* mag = w.mag.data();
    for (std::size_t c = 0; c < dim; ++c) {
      const double x = v[c], ax = std::fabs(x);
      // (lo_part and e.l may have either sign: A's rest is theirs times |x|, not |rest|)
      num[c].add(hi * x, lo_part * x + e.l * x);  // hi x, lo_part x exact; e.l x rounded
      mag[c].add(hi * ax, lo_part * ax + e.l * ax);
    }
  }
  if (a.has_sink) d_acc.add(sink_e.h, sink_e.l);
  const double kept = static_cast<double>(n_kept - n_far);
  const double far = static_cast<double>(n_far);
  const double eps_d =
      1.02 * (acc_bound(n, kU) + eps_e) + (far + (sink_far ? 1 : 0)) * 2 * kFar;  // (d >= 1/2)
  const double eps_v = 1.02 * (acc_bound(kept, 0x1.2p-26) + 0x1.3p-79) + 1.01 * eps_e;
  if (!(eps_d + eps_v <= 0x1p-60)) return std::nullopt;
  const DoubleDouble d = d_acc.value();

  // Step 5: o and M, each component.
  for (std::size_t c = 0; c < dim; ++c) {
    if (!r.o_finite[c]) {
      r.o_rounded[c] = std::numeric_limits<float>::quiet_NaN();
      r.o[c] = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    if (w.v_abs[c] == 0) continue;  // every v_jc is +-0: o_c = +0 and M_c = 0 exactly
    DoubleDouble o = dd_div(w.num[c].value(), d);
    DoubleDouble mag = dd_div(w.mag[c].value(), d);
    const double abs_c = kept * kTermFloor + far * kFar * far_v[c];
    // (|o^| <= M^ + 2 err: dd_div's 32 u^2 |o^| is within 32.2 u^2 M^, which M^ needs too)
    double err = (1.05 * (eps_v + eps_d) + 32.2 * kU * kU) * mag.h + 2.01 * abs_c + kDivFloor;
    if (a.v_scale != 1) {  // step 5's fp8 values: o and M times the value scale
      const double s = std::fabs(static_cast<double>(a.v_scale));
      o = dd_mul(o, static_cast<double>(a.v_scale));
      err = 1.01 * s * (err + 8.1 * kU * kU * (mag.h + 2 * err)) + kDivFloor;
      mag = dd_mul(mag, s);
    }
    if (!(err <= kTaken * mag.h)) return std::nullopt;
    float rounded;
    if (!decide(o, err, a.out, &rounded)) return std::nullopt;
    r.o_rounded[c] = rounded;
    r.o[c] = o.h + o.l;
    r.magnitude[c] = mag.h + mag.l;
  }

  // Step 6: lse.
  const double l0 = std::log(d.h);
  DoubleDouble inv;
  if (!exp_dd({-l0, 0}, &inv)) return std::nullopt;
  const DoubleDouble y = dd_mul(d, inv);
  const DoubleDouble delta = two_sum(y.h - 1, y.l);
  if (!(std::fabs(delta.h) <= 0x1p-35)) return std::nullopt;
  const DoubleDouble l0_delta = two_sum(l0, delta.h);
  const DoubleDouble l = two_sum(l0_delta.h, l0_delta.l + (delta.l - delta.h * delta.h / 2));
  const DoubleDouble top = two_sum(m, l.h);
  DoubleDouble lse = two_sum(top.h, top.l + l.l);
  double err = 1.01 * eps_d + 1.01 * (0x1p-96 + 8.1 * kU * kU) + 0x1p-105 +
               2 * kU * kU * std::fabs(l.h) + 1.01 * kU * kU * (std::fabs(m) + std::fabs(l.h));
  if (a.base == LseBase::Two) {
    lse = dd_mul(lse, log2e());
    err = 1.45 * err + 9.2 * kU * kU * std::fabs(lse.h);
  }
  if (!(err <= kTaken * std::fabs(lse.h))) return std::nullopt;
  if (!decide(lse, err, DType::F32, &r.lse_rounded)) return std::nullopt;
  r.lse = lse.h + lse.l;
  return r;
}

}  // namespace osvs::oracle::detail
