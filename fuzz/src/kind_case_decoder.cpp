#include "osvs/fuzz/kind_case_decoder.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "osvs/api/rowwise_ops.h"
#include "osvs/fuzz/case_decoder.h"
#include "osvs/fuzz/float_decoder.h"
#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/merge_trees.h"

namespace osvs::fuzz {
namespace {

/// n floats from decode_float, each rounded to type t.
std::vector<float> decode_floats(ByteReader& in, std::size_t n, DType t) {
  std::vector<float> out;
  float running_max = -INFINITY;
  for (std::size_t i = 0; i < n; ++i) {
    const float x = round_to(t, decode_float(in, running_max));
    if (!std::isnan(x)) running_max = std::max(running_max, x);
    out.push_back(x);
  }
  return out;
}

/// A decoded lse in the merge laws' domain (gen::attn_lse's): -inf (an empty partial) or finite
/// with |lse| <= 2^40; a NaN or +inf lse is the special_values law's to inject, not the case's.
float in_lse_domain(float x) {
  if (std::isnan(x) || x == INFINITY) return -INFINITY;
  if (x == -INFINITY) return x;
  return std::clamp(x, -0x1p40f, 0x1p40f);
}

/// A decoded o component in the laws' domain (gen::attn_value's): finite, |o| <= 2^16, and 0
/// below 2^-18, so that no weighted sum overflows or loses its relative accuracy to underflow.
float in_o_domain(float x, DType t) {
  if (!std::isfinite(x) || std::fabs(x) < 0x1p-18f) return std::signbit(x) ? -0.0f : 0.0f;
  return round_to(t, std::clamp(x, -0x1p16f, 0x1p16f));
}

/// A decoded q, k or v value in the attention generator's range: finite, |x| <= 2^6, and 0 below
/// 2^-18 (the laws' cases are finite; poison is the poison law's to inject).
float in_attention_domain(float x, DType t) {
  if (!std::isfinite(x) || std::fabs(x) < 0x1p-18f) return std::signbit(x) ? -0.0f : 0.0f;
  return round_to(t, std::clamp(x, -0x1p6f, 0x1p6f));
}

template <class T>
const T& pick(ByteReader& in, const std::vector<T>& options) {
  return options[in.below(static_cast<std::uint32_t>(options.size()))];
}

}  // namespace

RowCase decode_case(ByteReader& in, const RowKernel& k, const RowLaw& law) {
  RowCase c;
  const std::size_t rows = 1 + in.below(3);
  const auto n =
      static_cast<std::size_t>(std::min<std::int64_t>(in.below(65), k.traits().max_cols));
  for (std::size_t r = 0; r < rows; ++r) c.rows.push_back(decode_floats(in, n, k.in_type()));
  if (law.name == "permutation") {
    c.rows.resize(1);
    c.permutation.resize(n);
    std::iota(c.permutation.begin(), c.permutation.end(), 0);
    if (n > 0)
      std::rotate(c.permutation.begin(),
                  c.permutation.begin() + in.below(static_cast<std::uint32_t>(n)),
                  c.permutation.end());
    if (in.byte() & 1) std::reverse(c.permutation.begin(), c.permutation.end());
  }
  if (law.name == "shift_invariance") c.shift = decode_floats(in, 1, k.in_type())[0];
  if (law.name == "batch_invariance") {
    c.batch_rows = 1 + in.below(8);
    c.batch_position = in.below(static_cast<std::uint32_t>(c.batch_rows));
  }
  if (law.name == "strided" && k.traits().strided) c.layout = {in.below(9), in.below(9)};
  return c;
}

MergeCase decode_case(ByteReader& in, const MergeKernel& k, const MergeLaw&) {
  MergeCase c;
  const int parts = 2 + static_cast<int>(in.below(5));
  const std::int64_t rows = 1 + in.below(4);
  std::vector<int> dims;
  for (int d : k.supported_head_dims())
    if (d <= 16) dims.push_back(d);
  if (dims.empty()) dims = {k.supported_head_dims().front()};
  const int head_dim = pick(in, dims);
  const DType o_type = pick(in, k.o_types());
  c.base = pick(in, k.lse_bases());
  for (int p = 0; p < parts; ++p) {
    AttnStates s;
    s.rows = rows;
    s.head_dim = head_dim;
    s.o_type = o_type;
    s.lse = decode_floats(in, static_cast<std::size_t>(rows), DType::F32);
    for (float& lse : s.lse) lse = in_lse_domain(lse);
    s.o = decode_floats(in, static_cast<std::size_t>(rows * head_dim), o_type);
    for (float& o : s.o) o = in_o_domain(o, o_type);
    c.parts.push_back(std::move(s));
  }
  for (int i = 0; i < 2 * parts; ++i) c.tree_choices.push_back(in.u16() % 720);
  c.other_choices = c.tree_choices;
  std::rotate(c.other_choices.begin(), c.other_choices.begin() + 1, c.other_choices.end());
  std::vector<std::int64_t> divisors;
  for (std::int64_t h = 1; h <= rows; ++h)
    if (rows % h == 0) divisors.push_back(h);
  c.shape = {pick(in, divisors), in.below(3), in.below(4)};
  return fit_to(k, c);
}

AttentionCase decode_case(ByteReader& in, const AttentionKernel& k, const AttentionLaw&) {
  AttentionCase c;
  c.in_type = pick(in, k.in_types());
  c.seqs.clear();
  const int batch = 1 + static_cast<int>(in.below(3));
  const AttentionSequence first{1 + in.below(4), in.below(9)};
  for (int s = 0; s < batch; ++s)
    c.seqs.push_back(k.varlen() && s > 0 ? AttentionSequence{in.below(5), in.below(9)} : first);
  c.heads_kv = 1 + static_cast<int>(in.below(2));
  c.heads_q = c.heads_kv * (k.gqa() ? 1 + static_cast<int>(in.below(3)) : 1);
  const std::vector<int> dims =
      k.head_dims().empty() ? std::vector<int>{1, 2, 3, 4, 5, 8, 16} : k.head_dims();
  c.head_dim_qk = c.head_dim_v = pick(in, dims);
  if (!k.v_head_dims().empty()) c.head_dim_v = pick(in, k.v_head_dims());
  c.scale = pick(in, std::vector<float>{1.0f, 0.5f, 0.125f, 2.0f, 0.3f});
  c.mask.kind = pick(in, k.masks());
  c.mask.align = k.mask_align();
  for (AttentionSequence& s : c.seqs) {
    s.k_len = std::max(s.k_len, k.min_k_len());
    if (c.mask.kind != MaskKind::None && k.square_masks()) s.q_len = s.k_len;
  }
  if (c.mask.kind == MaskKind::Window) {
    c.mask.window_left = static_cast<std::int64_t>(in.below(5)) - 1;
    c.mask.window_right = static_cast<std::int64_t>(in.below(4)) - 1;
  }
  if (k.writes_lse()) c.base = pick(in, k.lse_bases());
  if (k.softcap() && in.below(2) == 1)
    c.softcap = pick(in, std::vector<float>{1.0f, 5.0f, 20.0f, 50.0f});
  if (k.alibi() && in.below(2) == 1)
    for (int h = 0; h < c.heads_q; ++h) c.alibi_slopes.push_back(pick(in, kAlibiSlopes));
  if (k.sinks() && in.below(2) == 1)
    for (int h = 0; h < c.heads_q; ++h)
      c.sinks.push_back(static_cast<float>(in.below(65)) / 8.0f - 4.0f);
  if (!k.page_sizes().empty() && (k.paged_only() || in.below(2) == 1)) {
    c.page_size = pick(in, k.page_sizes());
    c.page_order.resize(static_cast<std::size_t>(c.logical_pages() + in.below(3)));
    for (std::size_t i = 0; i < c.page_order.size(); ++i)
      c.page_order[i] = static_cast<std::int64_t>(i);
    for (std::size_t i = 0; i + 1 < c.page_order.size(); ++i)
      std::swap(c.page_order[i],
                c.page_order[i + in.below(static_cast<std::uint32_t>(c.page_order.size() - i))]);
  }
  const auto values = [&](std::vector<float>& x, std::int64_t n) {
    x = decode_floats(in, static_cast<std::size_t>(n), c.in_type);
    for (float& v : x) v = in_attention_domain(v, c.in_type);
  };
  values(c.q, c.total_q() * c.heads_q * c.head_dim_qk);
  values(c.k, c.total_k() * c.heads_kv * c.head_dim_qk);
  values(c.v, c.total_k() * c.heads_kv * c.head_dim_v);
  if (k.backward()) values(c.dout, c.total_q() * c.heads_q * c.head_dim_v);
  return c;
}

}  // namespace osvs::fuzz

namespace osvs::fuzz {

ReductionCase decode_case(ByteReader& in, const ReductionKernel& k, const ReductionLaw& law) {
  ReductionCase c;
  std::vector<float> row;
  float running_max = -INFINITY;
  for (std::size_t i = 0, n = in.below(65); i < n; ++i) {
    const float x = decode_float(in, running_max);
    // The reduction's declared domain: finite, |x| <= max_abs (the special values law has its
    // own grid of the rest).
    const float v = std::isfinite(x) ? std::clamp(x, -k.max_abs(), k.max_abs()) : 0.0f;
    running_max = std::max(running_max, v);
    row.push_back(v);
  }
  const auto n = static_cast<std::int64_t>(row.size());
  if (law.name == "accuracy" || law.name == "special_values") {
    c.schedule.chunk_offsets = {0, n};
    c.schedule.slot_chunk = {0};
  } else {
    const int chunks = 1 + static_cast<int>(in.below(8));
    c.schedule = random_schedule(n, chunks, [&in](std::int64_t m) {
      return static_cast<std::int64_t>(in.below(static_cast<std::uint32_t>(m)));
    });
  }
  c.schedule.row = std::move(row);
  return c;
}

}  // namespace osvs::fuzz

namespace osvs::fuzz {

RowwiseCase decode_case(ByteReader& in, const RowwiseKernel& k, const RowwiseLaw& law) {
  RowwiseCase c;
  const RowwiseSignature& sig = signature(k.op());
  const std::size_t rows = 1 + in.below(3), n = 1 + in.below(64);
  // cross_entropy's parameters and topk's k, each a value the runner takes (rowwise_kernel.h)
  if (reads_target(k.op())) {
    constexpr std::int64_t kIgnoreIndices[] = {-100, -1, 0};
    c.ignore_index = kIgnoreIndices[in.below(3)];
    constexpr float kSmoothing[] = {0.0f, 0.1f, 1.0f};
    if (k.traits().label_smoothing) c.label_smoothing = kSmoothing[in.below(3)];
  }
  if (k.op() == RowwiseOp::TopK) c.k = 1 + in.below(static_cast<std::uint32_t>(n));
  c.inputs.resize(k.in_types().size());
  for (std::size_t a = 0; a < c.inputs.size(); ++a) {
    const bool shared = sig.inputs[a].extent == Extent::Column;
    for (std::size_t r = 0; r < (shared ? 1 : rows); ++r)
      if (sig.inputs[a].index)  // a target: a column, or ignore_index in one row of four
        c.inputs[a].push_back({in.below(4) == 0
                                   ? static_cast<float>(c.ignore_index)
                                   : static_cast<float>(in.below(static_cast<std::uint32_t>(n)))});
      else
        c.inputs[a].push_back(decode_floats(in, n, k.in_types()[a]));
  }
  if (uses_eps(k.op())) c.eps = in.below(2) == 0 ? 0.0f : 1e-5f;
  if (law.name == "empty_rows" && reduces_batch(k.op()))  // no row counted
    for (auto& target_row : c.inputs[1]) target_row = {static_cast<float>(c.ignore_index)};
  else if (law.name == "empty_rows" && k.op() == RowwiseOp::CrossEntropy)
    c.inputs[1][0] = {static_cast<float>(c.ignore_index)};
  else if (law.name == "empty_rows" && has_empty_rows(k.op()))
    std::fill(c.inputs[0][0].begin(), c.inputs[0][0].end(), masked_input(k.op()));
  if (law.name == "permutation") {
    c.permutation.resize(n);
    std::iota(c.permutation.begin(), c.permutation.end(), 0);
    std::rotate(c.permutation.begin(),
                c.permutation.begin() + in.below(static_cast<std::uint32_t>(n)),
                c.permutation.end());
  }
  if (law.name == "batch_invariance") c.batch_position = in.below(static_cast<std::uint32_t>(rows));
  if (law.name == "strided")
    for (std::size_t a = 0; a < c.inputs.size() + k.out_types().size(); ++a)
      c.pads.push_back((a < c.inputs.size() ? sig.inputs[a].paddable()
                                            : sig.outputs[a - c.inputs.size()].paddable())
                           ? 1 + in.below(3)
                           : 0);
  if (law.name == "shift_invariance") c.shift = static_cast<float>(1 + in.below(64));
  if (law.name == "scale_invariance") {
    c.eps = 0;
    c.scale_exponent = static_cast<int>(in.below(9)) - 4;
  }
  return c;
}

}  // namespace osvs::fuzz

namespace osvs::fuzz {

CombineCase decode_case(ByteReader& in, const CombineKernel&, const CombineLaw& law) {
  CombineCase c;
  const bool warp = law.name == "warp_reduce";
  if (!warp && law.name != "tree_invariance") {
    const int count = 2 * (1 + static_cast<int>(in.below(kMaxStates / 2)));
    for (int i = 0; i < count; ++i) c.states.push_back(decode_state(in));
    return c;
  }
  std::vector<float> row;
  float running_max = -INFINITY;
  for (std::size_t i = 0, n = in.below(65); i < n; ++i) {
    const float x = decode_float(in, running_max);
    const float v = std::isfinite(x) ? x : 0.0f;
    running_max = std::max(running_max, v);
    row.push_back(v);
  }
  const auto n = static_cast<std::int64_t>(row.size());
  for (int s = 0; s < (warp ? 1 : 2); ++s) {
    const int chunks = warp ? kWarpSize : 1 + static_cast<int>(in.below(gen::kMaxChunks));
    c.schedules.push_back(random_schedule(n, chunks, byte_choices(in)));
  }
  c.rows = {std::move(row)};
  return c;
}

}  // namespace osvs::fuzz
