// osvs's attention backward kernel (api/builtin/tiled_attention_backward.h) run directly on
// hand-built problems (host pointers, f32: one sequence of 2 queries and 3 keys, head_dim 2),
// before and beside the laws: values derived by hand where the kernel's roundings vanish, and
// elsewhere a long-double evaluation of the gradients held to the kernel's declared contract.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "attention_backward_mutant_policies.h"
#include "osvs/kernels/hex.h"
#include "tiled_attention_backward.h"

namespace osvs::test {
namespace {

using Kernel = builtin::TiledAttentionBackward;

/// One f32 problem's tensors and its AttentionProblem over them.
struct Backward {
  int lq = 2, lk = 3, heads_q = 1, heads_kv = 1, d = 2;
  std::vector<float> q, k, v, o, lse, dout, dq, dk, dv, delta;
  std::vector<std::int32_t> cu_q, cu_k;
  AttentionProblem p;

  Backward(int heads_q_, int heads_kv_) : heads_q(heads_q_), heads_kv(heads_kv_) {
    q.assign(static_cast<std::size_t>(lq * heads_q * d), 0.0f);
    dout = o = q;
    k.assign(static_cast<std::size_t>(lk * heads_kv * d), 0.0f);
    v = k;
    lse.assign(static_cast<std::size_t>(lq * heads_q), 0.0f);
    cu_q = {0, lq};
    cu_k = {0, lk};
    p.batch = 1;
    p.total_q = lq;
    p.total_k = lk;
    p.heads_q = heads_q;
    p.heads_kv = heads_kv;
    p.head_dim_qk = p.head_dim_v = d;
    p.backward = true;
  }

  float& at(std::vector<float>& t, std::int64_t token, int head, int heads, int c) {
    return t[static_cast<std::size_t>((token * heads + head) * d + c)];
  }

  /// Runs the kernel with every output poisoned first (each element must be written).
  template <class P = Kernel>
  void run() {
    dq.assign(q.size(), NAN);
    dk.assign(k.size(), NAN);
    dv.assign(v.size(), NAN);
    delta.assign(lse.size(), NAN);
    p.q_ptr = q.data();
    p.k_ptr = k.data();
    p.v_ptr = v.data();
    p.o_ptr = o.data();
    p.lse = lse.data();
    p.dout_ptr = dout.data();
    p.dq_ptr = dq.data();
    p.dk_ptr = dk.data();
    p.dv_ptr = dv.data();
    p.delta = delta.data();
    p.cu_seqlens_q = cu_q.data();
    p.cu_seqlens_k = cu_k.data();
    builtin::tiled_attention_backward<P>(p);
  }
};

/// Bits equal (so +0 and -0 differ), printed readably.
void expect_bits(float got, float want, const char* what, std::size_t index) {
  EXPECT_EQ(std::signbit(got), std::signbit(want))
      << what << "[" << index << "]: " << readable(got);
  EXPECT_TRUE(got == want || (std::isnan(got) && std::isnan(want)))
      << what << "[" << index << "]: " << readable(got) << ", want " << readable(want);
}

// Window (0, 0) top-left: row i keeps key i alone, key 2 no row. With one kept key P = 1, o = v_i
// (exact), lse = its score (exact: small integers), so dP - delta = 0 bit for bit (the same fma
// chain): dq = 0, dk = 0, dv_i = dout_i, delta_i = dout_i . v_i, and dk_2 = dv_2 = +0.
TEST(TiledAttentionBackward, OneKeptKeyGivesDvDoutAndZeroDq) {
  Backward b(1, 1);
  b.q = {1, 2, -1, 0.5f};
  b.k = {0.5f, 1, 2, -1, 3, 3};
  b.v = {1, -2, 0.25f, 4, 7, 7};
  b.dout = {3, -1, 0.5f, 2};
  b.p.mask = {MaskKind::Window, MaskAlign::TopLeft, 0, 0};
  for (int i = 0; i < 2; ++i) {
    b.at(b.o, i, 0, 1, 0) = b.at(b.v, i, 0, 1, 0);
    b.at(b.o, i, 0, 1, 1) = b.at(b.v, i, 0, 1, 1);
    b.lse[static_cast<std::size_t>(i)] = b.at(b.q, i, 0, 1, 0) * b.at(b.k, i, 0, 1, 0) +
                                         b.at(b.q, i, 0, 1, 1) * b.at(b.k, i, 0, 1, 1);
  }
  b.run();
  for (std::size_t e = 0; e < b.dq.size(); ++e) expect_bits(b.dq[e], 0.0f, "dq", e);
  for (std::size_t e = 0; e < b.dk.size(); ++e) expect_bits(b.dk[e], 0.0f, "dk", e);
  const std::vector<float> dv = {3, -1, 0.5f, 2, 0, 0};
  for (std::size_t e = 0; e < dv.size(); ++e) expect_bits(b.dv[e], dv[e], "dv", e);
  expect_bits(b.delta[0], 3 * 1 + -1 * -2, "delta", 0);
  expect_bits(b.delta[1], 0.5f * 0.25f + 2 * 4, "delta", 1);
}

// dout = 0: delta, dP and dS vanish, and every gradient is +0 whatever the scores.
TEST(TiledAttentionBackward, ZeroDoutGivesZeroGradients) {
  Backward b(2, 1);
  b.q = {1, 2, -1, 0.5f, 0.25f, 3, 2, -2};
  b.k = {0.5f, 1, 2, -1, 3, 3};
  b.v = {1, -2, 0.25f, 4, 7, 7};
  b.o = {1, 1, 2, 2, 0.5f, 0.5f, 3, -1};
  b.lse = {4, 5, 6, 7};
  b.p.scale = 0.5f;
  b.run();
  for (std::size_t e = 0; e < b.dq.size(); ++e) expect_bits(b.dq[e], 0.0f, "dq", e);
  for (std::size_t e = 0; e < b.dk.size(); ++e) expect_bits(b.dk[e], 0.0f, "dk", e);
  for (std::size_t e = 0; e < b.dv.size(); ++e) expect_bits(b.dv[e], 0.0f, "dv", e);
  for (std::size_t e = 0; e < b.delta.size(); ++e) expect_bits(b.delta[e], 0.0f, "delta", e);
}

/// The forward's exact o and lse of `b` (rounded to f32 into b.o and b.lse, as the oracle gives
/// them), and the exact gradients with their magnitudes (attention_backward_reference.h), in long
/// double; then each of the kernel's outputs held to its contract.
struct Exact {
  std::vector<long double> dq, dq_mag, dk, dk_mag, dv, dv_mag, delta, delta_mag, row_s;
  std::vector<long double> dq_n, dk_n;  ///< terms: kept keys of a row, rows of a key
};

long double score_of(Backward& b, int i, int h, int j, long double* t) {
  const int g = h / (b.heads_q / b.heads_kv);
  long double s = 0;
  for (int c = 0; c < b.d; ++c)
    s += static_cast<long double>(b.at(b.q, i, h, b.heads_q, c)) * b.at(b.k, j, g, b.heads_kv, c);
  s *= b.p.scale;
  *t = 1;
  if (b.p.softcap > 0) {
    const long double th = std::tanh(s / b.p.softcap);
    s = b.p.softcap * th;
    *t = 1 - th * th;
  }
  if (b.p.alibi_slopes != nullptr)
    s -= static_cast<long double>(b.p.alibi_slopes[h]) *
         static_cast<long double>(alibi_distance(b.p.mask, i, j, b.lq, b.lk));
  return s;
}

Exact forward_and_exact(Backward& b) {
  const int group = b.heads_q / b.heads_kv, d = b.d;
  Exact x;
  const auto zeros = [](std::size_t n) { return std::vector<long double>(n, 0.0L); };
  x.dq = x.dq_mag = x.dq_n = zeros(b.q.size());
  x.dk = x.dk_mag = x.dk_n = zeros(b.k.size());
  x.dv = x.dv_mag = zeros(b.v.size());
  x.delta = x.delta_mag = x.row_s = zeros(b.lse.size());
  for (int h = 0; h < b.heads_q; ++h) {
    const int g = h / group;
    for (int i = 0; i < b.lq; ++i) {
      // q, o and dq by (token, head); lse and delta [heads, tokens] (HeadsTokens)
      const std::size_t row = static_cast<std::size_t>(i * b.heads_q + h),
                        li = static_cast<std::size_t>(h * b.lq + i);
      std::vector<long double> w(3), t(3), p(3), dp(3), dp_mag(3);
      std::vector<bool> kept(3);
      long double sum = 0, top = -INFINITY;
      for (int j = 0; j < b.lk; ++j) {
        kept[j] = key_kept(b.p.mask, i, j, b.lq, b.lk);
        if (!kept[j]) continue;
        w[j] = score_of(b, i, h, j, &t[j]);
        top = std::max(top, w[j]);
        long double dot_mag = 0;
        for (int c = 0; c < d; ++c)
          dot_mag += std::fabs(static_cast<long double>(b.at(b.q, i, h, b.heads_q, c)) *
                               b.at(b.k, j, g, b.heads_kv, c));
        long double s = std::fabs(b.p.scale) * dot_mag;
        if (b.p.softcap > 0) s = std::max<long double>(s, b.p.softcap);
        if (b.p.alibi_slopes != nullptr)
          s += std::fabs(b.p.alibi_slopes[h]) * alibi_distance(b.p.mask, i, j, b.lq, b.lk);
        x.row_s[li] = std::max(x.row_s[li], s);
      }
      if (top == -INFINITY) {
        b.lse[li] = -INFINITY;
        for (int c = 0; c < d; ++c) b.at(b.o, i, h, b.heads_q, c) = 0;
        continue;
      }
      for (int j = 0; j < b.lk; ++j)
        if (kept[j]) sum += std::exp(w[j] - top);
      const long double lse = top + std::log(sum);
      b.lse[li] = static_cast<float>(b.p.base == LseBase::Two ? lse / std::log(2.0L) : lse);
      std::vector<long double> o(static_cast<std::size_t>(d), 0.0L);
      for (int j = 0; j < b.lk; ++j) {
        if (!kept[j]) continue;
        p[j] = std::exp(w[j] - lse);
        for (int c = 0; c < d; ++c) {
          o[c] += p[j] * b.at(b.v, j, g, b.heads_kv, c);
          const long double term = static_cast<long double>(b.at(b.dout, i, h, b.heads_q, c)) *
                                   b.at(b.v, j, g, b.heads_kv, c);
          dp[j] += term;
          dp_mag[j] += std::fabs(term);
        }
        x.delta[li] += p[j] * dp[j];
        x.delta_mag[li] += p[j] * dp_mag[j];
      }
      for (int c = 0; c < d; ++c) b.at(b.o, i, h, b.heads_q, c) = static_cast<float>(o[c]);
      for (int j = 0; j < b.lk; ++j) {
        if (!kept[j]) continue;
        const long double ds = p[j] * (dp[j] - x.delta[li]) * t[j];
        const long double ds_mag = p[j] * (dp_mag[j] + x.delta_mag[li]) * t[j];
        for (int c = 0; c < d; ++c) {
          const std::size_t qe = row * d + c,
                            ke = static_cast<std::size_t>((j * b.heads_kv + g) * d + c);
          const long double qc = b.at(b.q, i, h, b.heads_q, c), kc = b.at(b.k, j, g, b.heads_kv, c),
                            dc = b.at(b.dout, i, h, b.heads_q, c);
          x.dq[qe] += b.p.scale * ds * kc;
          x.dq_mag[qe] += std::fabs(b.p.scale) * ds_mag * std::fabs(kc);
          x.dq_n[qe] += 1;
          x.dk[ke] += b.p.scale * ds * qc;
          x.dk_mag[ke] += std::fabs(b.p.scale) * ds_mag * std::fabs(qc);
          x.dk_n[ke] += 1;
          x.dv[ke] += p[j] * dc;
          x.dv_mag[ke] += p[j] * std::fabs(dc);
        }
      }
    }
  }
  return x;
}

double ulp_f32(long double m) {
  int e = m > 0 ? std::ilogb(static_cast<double>(m)) : -126;
  return std::ldexp(1.0, std::max(e, -126) - 23);
}

/// The elements of `got` not within the declared contract of `exact`: (ulps + ulps_per_term n)
/// ulp_f32(M) + per_score (d + 1) S 2^-24 M + underflow n 2^-149; each a test failure where
/// `report`.
std::size_t outside(const std::vector<float>& got, const std::vector<long double>& exact,
                    const std::vector<long double>& mag, const std::vector<long double>& terms,
                    long double s, int d, const char* what, bool report) {
  const AttentionGradAccuracy a = builtin::tiled_attention_backward_accuracy();
  std::size_t count = 0;
  for (std::size_t e = 0; e < got.size(); ++e) {
    const long double n = terms[e];
    const long double bound = (a.ulps + a.ulps_per_term * n) * ulp_f32(mag[e]) +
                              a.per_score * (d + 1) * s * 0x1p-24L * mag[e] +
                              a.underflow * n * 0x1p-149L;
    const long double err = std::fabs(static_cast<long double>(got[e]) - exact[e]);
    // (a NaN is outside too)
    if (!(err <= bound && err <= 0.1L * mag[e] + 0x1p-140L)) ++count;
    if (!report) continue;
    EXPECT_LE(err, bound) << what << "[" << e << "]: " << readable(got[e]) << ", exact "
                          << readable(static_cast<double>(exact[e])) << ", magnitude "
                          << readable(static_cast<double>(mag[e]));
    // and the derivation is no bound in name only: the contract's first term alone is a few
    // ulps of M, so an output off by a tenth of M is caught
    EXPECT_LE(err, 0.1L * mag[e] + 0x1p-140L) << what << "[" << e << "]";
  }
  return count;
}

void fill(Backward& b) {
  b.q = {1, 2, -1, 0.5f};
  b.k = {0.5f, 1, 2, -1, 3, 1.5f};
  b.v = {1, -2, 0.25f, 4, 7, -3};
  b.dout = {3, -1, 0.5f, 2};
  if (b.heads_q == 2) {
    b.q = {1, 2, 0.75f, -1.5f, -1, 0.5f, 2, 0.125f};
    b.dout = {3, -1, -2, 1, 0.5f, 2, 1.5f, -0.25f};
  }
}

/// The outputs of `b` (kernel P) outside the contract of the long-double gradients (S the
/// largest over the problem's rows: a bound's parameter); each a test failure where `report`.
template <class P = Kernel>
std::size_t expect_contract(Backward& b, bool report = true) {
  const Exact x = forward_and_exact(b);
  b.run<P>();
  long double s = 0;
  for (long double r : x.row_s) s = std::max(s, r);
  std::size_t count = outside(b.dq, x.dq, x.dq_mag, x.dq_n, s, b.d, "dq", report) +
                      outside(b.dk, x.dk, x.dk_mag, x.dk_n, s, b.d, "dk", report) +
                      outside(b.dv, x.dv, x.dv_mag, x.dk_n, s, b.d, "dv", report);
  std::vector<long double> keys(b.lse.size(), 0);
  for (int h = 0; h < b.heads_q; ++h)
    for (int i = 0; i < b.lq; ++i)
      keys[static_cast<std::size_t>(h * b.lq + i)] =
          x.dq_n[static_cast<std::size_t>((i * b.heads_q + h) * b.d)];
  return count + outside(b.delta, x.delta, x.delta_mag, keys, s, b.d, "delta", report);
}

/// The hand-built cases below, each of kernel P: the outputs outside the contract.
template <class P>
std::size_t outside_on_the_cases() {
  std::size_t count = 0;
  Backward plain(1, 1);
  fill(plain);
  plain.p.scale = 0.5f;
  count += expect_contract<P>(plain, false);
  Backward causal(2, 1);
  fill(causal);
  causal.p.mask = {MaskKind::Causal, MaskAlign::BottomRight, -1, -1};
  causal.p.base = LseBase::Two;
  causal.p.scale = 0.75f;
  count += expect_contract<P>(causal, false);
  Backward capped(2, 1);
  fill(capped);
  const std::vector<float> slopes = {0.5f, 0.25f};
  capped.p.softcap = 1;
  capped.p.alibi_slopes = slopes.data();
  capped.p.scale = 2;
  return count + expect_contract<P>(capped, false);
}

TEST(TiledAttentionBackward, WithinContractUnmasked) {
  Backward b(1, 1);
  fill(b);
  b.p.scale = 0.5f;
  expect_contract(b);
}

TEST(TiledAttentionBackward, WithinContractCausalBaseTwoGqa) {
  Backward b(2, 1);
  fill(b);
  b.p.mask = {MaskKind::Causal, MaskAlign::BottomRight, -1, -1};
  b.p.base = LseBase::Two;
  b.p.scale = 0.75f;
  expect_contract(b);
}

TEST(TiledAttentionBackward, WithinContractSoftcapAlibi) {
  Backward b(2, 1);
  fill(b);
  const std::vector<float> slopes = {0.5f, 0.25f};
  b.p.softcap = 5;
  b.p.alibi_slopes = slopes.data();
  b.p.scale = 2;
  expect_contract(b);
  // and the softcap's derivative matters here: the scores reach |s| / c ~ 1
  b.p.softcap = 1;
  expect_contract(b);
}

// Two equal keys get equal gradients, bit for bit (the same operations on the same bits), each
// row's P of them the same; the rows keep every key.
TEST(TiledAttentionBackward, EqualKeysEqualGradients) {
  Backward b(1, 1);
  fill(b);
  b.k = {0.5f, 1, 0.5f, 1, 3, 1.5f};
  b.v = {1, -2, 1, -2, 7, -3};
  forward_and_exact(b);
  b.run();
  for (int c = 0; c < 2; ++c) {
    expect_bits(b.dk[static_cast<std::size_t>(2 + c)], b.dk[static_cast<std::size_t>(c)], "dk",
                static_cast<std::size_t>(2 + c));
    expect_bits(b.dv[static_cast<std::size_t>(2 + c)], b.dv[static_cast<std::size_t>(c)], "dv",
                static_cast<std::size_t>(2 + c));
  }
}

// A kv head with one query head gives the bits of that head alone, and GQA the left-to-right sum
// of its heads' own: dk of two query heads on one kv head is fl(dk_a + dk_b) of the two runs with
// a copy of the kv head each; dq is each head's own.
TEST(TiledAttentionBackward, GqaSumsTheCopiesBits) {
  Backward shared(2, 1);
  fill(shared);
  forward_and_exact(shared);
  shared.run();
  Backward copies(2, 2);
  fill(copies);
  copies.k = {0.5f, 1, 0.5f, 1, 2, -1, 2, -1, 3, 1.5f, 3, 1.5f};
  copies.v = {1, -2, 1, -2, 0.25f, 4, 0.25f, 4, 7, -3, 7, -3};
  copies.o = shared.o;
  copies.lse = shared.lse;
  copies.run();
  for (std::size_t e = 0; e < shared.dq.size(); ++e)
    expect_bits(shared.dq[e], copies.dq[e], "dq", e);
  for (std::size_t j = 0; j < 3; ++j)
    for (std::size_t c = 0; c < 2; ++c) {
      expect_bits(shared.dk[j * 2 + c], copies.dk[j * 4 + c] + copies.dk[j * 4 + 2 + c], "dk",
                  j * 2 + c);
      expect_bits(shared.dv[j * 2 + c], copies.dv[j * 4 + c] + copies.dv[j * 4 + 2 + c], "dv",
                  j * 2 + c);
    }
}

// Two launches give the same bits.
TEST(TiledAttentionBackward, Deterministic) {
  Backward b(2, 1);
  fill(b);
  b.p.mask = {MaskKind::Causal, MaskAlign::TopLeft, -1, -1};
  forward_and_exact(b);
  b.run();
  const std::vector<float> dq = b.dq, dk = b.dk, dv = b.dv;
  b.run();
  for (std::size_t e = 0; e < dq.size(); ++e) expect_bits(b.dq[e], dq[e], "dq", e);
  for (std::size_t e = 0; e < dk.size(); ++e) expect_bits(b.dk[e], dk[e], "dk", e);
  for (std::size_t e = 0; e < dv.size(); ++e) expect_bits(b.dv[e], dv[e], "dv", e);
}

}  // namespace
}  // namespace osvs::test

namespace osvs::test {
namespace {

// Before the laws: each inaccurate mutant (attention_backward_mutant_policies.h) leaves the
// contract on one of the hand-built cases, and the varying-order one changes bits between launches.
TEST(TiledAttentionBackward, MutantsLeaveTheContract) {
  EXPECT_EQ(outside_on_the_cases<Kernel>(), 0u);
  EXPECT_GT(outside_on_the_cases<DeltaFromBf16O>(), 0u);
  EXPECT_GT(outside_on_the_cases<DqMissingScale>(), 0u);
  EXPECT_GT(outside_on_the_cases<GqaHeadsOverwrite>(), 0u);
  EXPECT_GT(outside_on_the_cases<MaskForwardOnly>(), 0u);
  EXPECT_GT(outside_on_the_cases<SoftcapDerivativeDropped>(), 0u);
  EXPECT_GT(outside_on_the_cases<LseBaseTwoAsE>(), 0u);
  EXPECT_GT(outside_on_the_cases<DeltaNotSubtracted>(), 0u);
  EXPECT_EQ(outside_on_the_cases<RowsInVaryingOrder>(), 0u);  // accurate
}

TEST(TiledAttentionBackward, VaryingOrderMutantChangesBits) {
  Backward b(2, 1);  // 4 rows on every key
  fill(b);
  forward_and_exact(b);
  b.run<RowsInVaryingOrder>();
  const std::vector<float> dk = b.dk, dv = b.dv;
  b.run<RowsInVaryingOrder>();
  bool differ = false;
  for (std::size_t e = 0; e < dk.size(); ++e)
    differ = differ || std::memcmp(&dk[e], &b.dk[e], sizeof(float)) != 0 ||
             std::memcmp(&dv[e], &b.dv[e], sizeof(float)) != 0;
  EXPECT_TRUE(differ);
}

}  // namespace
}  // namespace osvs::test
