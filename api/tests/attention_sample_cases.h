// A fixed, seeded sample of attention cases that exercises every declaration of osvs's tiled
// attention kernel (api/builtin/tiled_attention.h): varlen batches with empty sequences, GQA,
// head_dims of q/k and v apart, f32 / bf16 / f16, no mask, causal and windows of both
// alignments, softcap, sinks, ALiBi, paged K/V with pages in any order and spare pages, every
// declared split size and the kernel's own choice, lse in base e and 2. The host bit-record test
// (tiled_attention_bits_test.cpp) and the device == host test (tiled_attention_device_test.cpp)
// run the same cases; the backward kernel's tests run them fitted to it
// (attention_backward_sample_cases).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "osvs/api/attention_case.h"
#include "osvs/api/attention_kernel.h"
#include "osvs/api/dtype.h"
#include "osvs/osvs.h"

namespace osvs::test {

/// x rounded to t (the case's values must be exact in its in type).
inline float exact_in(DType t, float x) {
  float y = x;
  unsigned char bytes[4];
  store_as(t, &x, bytes, 1);
  load_from(t, bytes, &y, 1);
  return y;
}

/// `count` cases drawn from `seed`, each well formed (attention_case_problem) and within the
/// tiled kernel's declaration.
inline std::vector<AttentionCase> attention_sample_cases(int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const auto normal = [&](double sd) {
    return static_cast<float>(std::normal_distribution<double>(0, sd)(rng));
  };
  const DType types[] = {DType::F32, DType::BF16, DType::F16};
  const int dims[] = {1, 2, 3, 4, 5, 8, 16};
  const int pages[] = {1, 3, 4};
  const int splits[] = {0, 4, 8, 16};
  std::vector<AttentionCase> out;
  for (int n = 0; n < count; ++n) {
    AttentionCase c;
    c.in_type = types[pick(0, 2)];
    c.seqs.clear();
    const int batch = pick(1, 3);
    for (int s = 0; s < batch; ++s) {
      AttentionSequence seq;
      seq.k_len = pick(0, 7) == 0 ? 0 : pick(1, 40);
      seq.q_len = pick(0, 5);
      c.seqs.push_back(seq);
    }
    c.heads_kv = pick(1, 2);
    c.heads_q = c.heads_kv * pick(1, 3);
    c.head_dim_qk = dims[pick(0, 6)];
    c.head_dim_v = pick(0, 1) ? c.head_dim_qk : dims[pick(0, 6)];
    c.scale = exact_in(DType::F32, 1.0f / std::sqrt(static_cast<float>(c.head_dim_qk)));
    const int mask = pick(0, 2);
    c.mask.kind = mask == 0 ? MaskKind::None : mask == 1 ? MaskKind::Causal : MaskKind::Window;
    c.mask.align = pick(0, 1) ? MaskAlign::BottomRight : MaskAlign::TopLeft;
    if (c.mask.kind == MaskKind::Window)
      c.mask.window_left = pick(-1, 6), c.mask.window_right = pick(-1, 3);
    c.base = pick(0, 1) ? LseBase::E : LseBase::Two;
    if (pick(0, 3) == 0) c.softcap = static_cast<float>(pick(1, 30));
    if (pick(0, 3) == 0)
      for (int h = 0; h < c.heads_q; ++h) c.sinks.push_back(normal(3));
    if (pick(0, 3) == 0)
      for (int h = 0; h < c.heads_q; ++h) c.alibi_slopes.push_back(std::ldexp(1.0f, -pick(0, 8)));
    c.kv_splits = splits[pick(0, 3)];
    const double spread = pick(0, 3) == 0 ? 40 : 2;  // one in four with scores far apart
    std::int64_t total_q = 0, total_k = 0;
    for (const AttentionSequence& s : c.seqs) total_q += s.q_len, total_k += s.k_len;
    const auto fill = [&](std::vector<float>& x, std::int64_t tokens, int heads, int dim,
                          double sd) {
      x.resize(static_cast<std::size_t>(tokens * heads * dim));
      for (float& v : x) v = exact_in(c.in_type, normal(sd));
    };
    fill(c.q, total_q, c.heads_q, c.head_dim_qk, spread);
    fill(c.k, total_k, c.heads_kv, c.head_dim_qk, 1);
    fill(c.v, total_k, c.heads_kv, c.head_dim_v, 1);
    if (pick(0, 1)) {
      c.page_size = pages[pick(0, 2)];
      std::int64_t logical = 0;
      for (std::size_t s = 0; s < c.seqs.size(); ++s) logical += c.pages_of(s);
      c.page_order.resize(static_cast<std::size_t>(logical + pick(0, 2)));  // spare pages too
      std::iota(c.page_order.begin(), c.page_order.end(), std::int64_t{0});
      std::shuffle(c.page_order.begin(), c.page_order.end(), rng);
    }
    out.push_back(std::move(c));
  }
  return out;
}

/// The same sample fitted to osvs's attention backward kernel (tiled_attention_backward.h):
/// contiguous K/V, the kernel's own split choice, v's head_dim q/k's (v drawn again where it had
/// its own), and a dout of N(0, 1) values exact in the case's type, from a generator of its own
/// seeded by `seed`.
inline std::vector<AttentionCase> attention_backward_sample_cases(int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed + 1);
  std::normal_distribution<double> normal(0, 1);
  std::vector<AttentionCase> out = attention_sample_cases(count, seed);
  for (AttentionCase& c : out) {
    c.page_size = 0;
    c.page_order.clear();
    c.kv_splits = 0;
    const auto draw = [&](std::vector<float>& x, std::int64_t n) {
      x.resize(static_cast<std::size_t>(n));
      for (float& v : x) v = exact_in(c.in_type, static_cast<float>(normal(rng)));
    };
    if (c.head_dim_v != c.head_dim_qk) {
      c.head_dim_v = c.head_dim_qk;
      draw(c.v, c.total_k() * c.heads_kv * c.head_dim_v);
    }
    draw(c.dout, c.total_q() * c.heads_q * c.head_dim_v);
  }
  return out;
}

}  // namespace osvs::test
