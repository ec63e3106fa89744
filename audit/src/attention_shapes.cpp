#include "attention_shapes.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <random>

#include "osvs/api/attention_runner.h"
#include "osvs/kernels/stable_hash.h"

namespace osvs::audit {
namespace {

/// The head_dim engines use most (Llama, Mistral, Qwen: 64 or 128; 64 keeps the oracle's cost
/// within the section's time).
constexpr int kHeadDim = 64;

/// `want` when `dims` takes it (empty: any), else the declared one nearest to it (the larger on
/// a tie).
int nearest_dim(const std::vector<int>& dims, int want) {
  if (dims.empty() || std::find(dims.begin(), dims.end(), want) != dims.end()) return want;
  int best = dims.front();
  for (int d : dims)
    if (std::abs(d - want) < std::abs(best - want) ||
        (std::abs(d - want) == std::abs(best - want) && d > best))
      best = d;
  return best;
}

/// The case's frame from k's declaration: `type`, heads (4 query heads over 2 kv heads with GQA),
/// head_dims, scale 1/sqrt(d), base, mask `want` where supported (else none, else the first).
AttentionCase frame(const AttentionKernel& k, MaskKind want, DType type) {
  AttentionCase c;
  c.in_type = type;
  c.heads_q = 4;
  c.heads_kv = k.gqa() ? 2 : 4;
  c.head_dim_qk = nearest_dim(k.head_dims(), kHeadDim);
  c.head_dim_v = nearest_dim(k.v_head_dims().empty() ? k.head_dims() : k.v_head_dims(),
                             k.v_head_dims().empty() ? c.head_dim_qk : kHeadDim);
  c.scale = 1.0f / std::sqrt(static_cast<float>(c.head_dim_qk));
  c.mask.kind = k.supports(want) ? want : k.masks().front();
  if (c.mask.kind == MaskKind::Window) {  // a causal sliding window of 64 keys
    c.mask.window_left = 63;
    c.mask.window_right = 0;
  }
  c.mask.align = k.mask_align();
  if (k.writes_lse()) c.base = k.lse_bases().front();
  return c;
}

/// Lengths as k takes them: equal when it is not varlen, square when it needs masked sequences
/// square, at least its min_k_len keys.
void set_lengths(const AttentionKernel& k, AttentionCase& c, std::vector<AttentionSequence> seqs) {
  for (AttentionSequence& s : seqs) {
    if (!k.varlen()) s = seqs.front();
    s.k_len = std::max(s.k_len, k.min_k_len());
    if (k.square_masks() && c.mask.kind != MaskKind::None) s.q_len = s.k_len;
  }
  c.seqs = std::move(seqs);
}

/// Pages of k's largest declared size, in a shuffled physical order with two spare pages; none
/// when k reads contiguous K/V, unless `paged` (and k reads pages) or k reads only pages.
void set_pages(const AttentionKernel& k, AttentionCase& c, bool paged, std::mt19937_64& rng) {
  if (k.page_sizes().empty() || !(paged || k.paged_only())) return;
  c.page_size = *std::max_element(k.page_sizes().begin(), k.page_sizes().end());
  c.page_order.resize(static_cast<std::size_t>(c.logical_pages() + 2));
  std::iota(c.page_order.begin(), c.page_order.end(), std::int64_t{0});
  std::shuffle(c.page_order.begin(), c.page_order.end(), rng);
}

/// x stored in the fp8 type t as engines quantise a tensor: the scale amax / (t's largest
/// finite value), rounded to a float (24 significant bits, no power of two), each element x / scale
/// rounded to t (saturated). Returns the scale.
float quantised(DType t, std::vector<float>& x) {
  float amax = 0;
  for (float v : x) amax = std::max(amax, std::fabs(v));
  const float top = max_finite_of(t);
  const float scale = amax > 0 ? amax / top : 1.0f;
  for (float& v : x) v = round_to(t, std::clamp(v / scale, -top, top));
  return scale;
}

/// q, k and v (and a backward kernel's dout) from N(0, 1), rounded to the case's type; K/V
/// quantised to k's first fp8 type (quantised) when it takes fp8 K/V only.
void fill_values(const AttentionKernel& k, AttentionCase& c, std::mt19937_64& rng) {
  std::normal_distribution<float> normal;
  const auto fill = [&](std::vector<float>& x, std::int64_t n) {
    x.resize(static_cast<std::size_t>(n));
    for (float& v : x) v = round_to(c.in_type, normal(rng));
  };
  fill(c.q, c.total_q() * c.heads_q * c.head_dim_qk);
  fill(c.k, c.total_k() * c.heads_kv * c.head_dim_qk);
  fill(c.v, c.total_k() * c.heads_kv * c.head_dim_v);
  if (k.backward()) fill(c.dout, c.total_q() * c.heads_q * c.head_dim_v);
  if (k.kv_types_only()) {
    c.kv_type = k.kv_types().front();
    c.k_scale = quantised(*c.kv_type, c.k);
    c.v_scale = quantised(*c.kv_type, c.v);
  }
}

}  // namespace

std::vector<NamedAttentionCase> realistic_attention_cases(const AttentionKernel& k,
                                                          std::uint64_t seed) {
  struct Shape {
    const char* name;
    MaskKind mask;
    bool paged;
    std::vector<AttentionSequence> seqs;
  };
  // A chunked prefill: two sequences, the first's queries the last 128 of its 256 keys; a
  // sliding window of 64 keys over 256 (Mistral-style; where the kernel has windows); decode
  // steps: one query each over a few hundred keys, paged where the kernel reads pages.
  const Shape shapes[] = {
      {"prefill", MaskKind::Causal, false, {{128, 256}, {192, 192}}},
      {"sliding window", MaskKind::Window, false, {{256, 256}}},
      {"decode", MaskKind::None, true, {{1, 256}, {1, 77}, {1, 200}, {1, 131}}},
  };
  std::vector<NamedAttentionCase> out;
  for (const Shape& s : shapes) {
    if (s.mask != MaskKind::None && !k.supports(s.mask)) continue;
    for (DType type : k.in_types()) {  // each shape in every type the kernel takes
      const std::string name = std::string(s.name) + " " + to_string(type);
      std::mt19937_64 rng(fnv1a64(std::to_string(seed) + "/attention_shapes/" + name));
      AttentionCase c = frame(k, s.mask, type);
      set_lengths(k, c, s.seqs);
      set_pages(k, c, s.paged, rng);
      fill_values(k, c, rng);
      if (undeclared_in(k, c).empty() && attention_case_problem(c).empty())
        out.push_back({name, std::move(c)});
    }
  }
  return out;
}

}  // namespace osvs::audit
