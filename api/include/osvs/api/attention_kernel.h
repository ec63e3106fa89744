// AttentionKernel: a black-box attention forward under test, the fused kernel users ship
// (flash-attention-style prefill, varlen batches, paged decode, GQA, causal and sliding-window
// masks). Declared like a RowKernel or a MergeKernel: a name, where it runs, the callable, and
// what it supports; the generators draw only problems it supports (docs/semantics.md §9 has the
// semantics: which keys a mask keeps, what an empty row gives, how pages map to keys).
//
//   osvs::AttentionKernel("my.flash", osvs::Where::Device)
//       .run([](const osvs::AttentionProblem& p) { my_flash_varlen(p.q_ptr, ..., p.cuda_stream());
//       }) .in_types({osvs::DType::BF16}) .masks({osvs::MaskKind::None, osvs::MaskKind::Causal})
//       .gqa()
//       .page_sizes({16})
//       .accuracy({4, 1, 2, 8, 2, 2});
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "osvs/api/dtype.h"
#include "osvs/api/kernel_declaration.h"
#include "osvs/api/lse_layout.h"
#include "osvs/kernels/attention/attention_cases.h"
#include "osvs/kernels/attention/lse_math.h"
#include "osvs/kernels/attention/value_conventions.h"
#include "osvs/kernels/hd.h"

namespace osvs {

/// Where the diagonal of a causal or windowed mask sits when a sequence has q_len queries and
/// k_len keys (docs/semantics.md §9): BottomRight puts query i at key i + k_len - q_len (the
/// last query sees every key: flash-attention 2.1+, decode), TopLeft at key i (torch's
/// is_causal, flash-attention before 2.1).
enum class MaskAlign { BottomRight, TopLeft };

/// The masks a kernel supports: none, causal (no key right of the diagonal), a sliding window
/// (keys within [diagonal - left, diagonal + right]), or a causal sliding window (right = 0).
enum class MaskKind { None, Causal, Window };

/// The mask of one problem. window_left / window_right < 0: unbounded on that side.
struct AttentionMask {
  MaskKind kind = MaskKind::None;
  MaskAlign align = MaskAlign::BottomRight;
  std::int64_t window_left = -1;
  std::int64_t window_right = -1;
  // (spelt out: CUDA translation units include this header as C++17)
  bool operator==(const AttentionMask& o) const {
    return kind == o.kind && align == o.align && window_left == o.window_left &&
           window_right == o.window_right;
  }
};

/// Whether query i of a sequence with q_len queries and k_len keys attends to key j: the one
/// definition of docs/semantics.md §9 (the oracle, the poison law and the generators use it).
bool key_kept(const AttentionMask& m, std::int64_t i, std::int64_t j, std::int64_t q_len,
              std::int64_t k_len);

/// |i + offset - j|, offset = k_len - q_len bottom-right aligned (m.align), 0 top-left: the
/// distance an ALiBi bias -slope |distance| is proportional to (docs/semantics.md §9; the mask's
/// alignment whatever its kind, flash-attention's alibi_slopes bottom-right).
std::int64_t alibi_distance(const AttentionMask& m, std::int64_t i, std::int64_t j,
                            std::int64_t q_len, std::int64_t k_len);

/// Where the lse of (query token t, head h) lives: [heads, tokens] (flash-attention's varlen
/// softmax_lse) or [tokens, heads]; the merge kind's layout (lse_layout.h).
using AttnLseLayout = LseLayout;

/// What a kernel's split parameter counts (flash-decoding: each sequence's keys cut into splits
/// whose partials are merged): the number of splits (flash-attention's num_splits) or the keys a
/// split holds (FlashInfer's fixed split size).
enum class KvSplit { Count, Size };

/// What a kernel writes for the lse of a row that attends to no key (docs/semantics.md §9):
/// -inf (osvs's convention, the log of an empty sum) or +inf (flash-attention's). Its o is 0.
enum class EmptyRowLse { NegInf, PosInf };

/// A declared accuracy contract (docs/semantics.md §9), for a row with n kept keys whose scores'
/// magnitude is S = max_j scale sum_c |q_c k_jc| (+ |b_j| with an ALiBi bias b_j; at least the
/// softcap plus the largest |b_j| with a softcap) over its kept keys (the size of the dot
/// products a float kernel rounds; an exact score has none of that error), at least z_h with a
/// sink z_h (where the sink is above the scores a float kernel rescales them by e^(m - z_h) and
/// rounds m - z_h: u |m - z_h| moves every key's weight against the sink's), and whose o
/// component c has magnitude M_c = sum_j p_j |v_jc| (>= |o_c|):
///   |o_c - exact| <= (o_ulps + o_ulps_per_key n) ulp_T(M_c) + o_per_score (d + 1) S 2^-24 M_c
///   |lse - exact| <= (lse_ulps + lse_ulps_per_key n) ulp_f32(max(|lse|, 1))
///                    + lse_per_score (d + 1) S 2^-24
/// T the output type, d = head_dim_qk: an f32 dot product of d terms is within (d + 1) 2^-24 S
/// of its exact value (with the scale's rounding), and a score error moves every weight by that
/// much relatively.
struct AttentionAccuracy {
  double o_ulps = 2;
  double o_ulps_per_key = 0;
  double o_per_score = 0;
  double lse_ulps = 8;
  double lse_ulps_per_key = 0;
  double lse_per_score = 0;
  /// Underflow: + o_underflow n (V_c + 1) 2^-149 on o_c, V_c = max_j |v_jc| over the kept keys
  /// (weights and products below f32's normals carry an absolute error of up to 2^-149 each).
  double o_underflow = 0;
};

/// A backward kernel's declared contract (docs/semantics.md §9.4), the same for each gradient
/// element X (dq, dk, dv, delta where written, dsinks with sinks): with M_X its magnitude (the
/// sum of the absolute values of the terms X sums, oracle/attention_backward_reference.h) and n_X
/// the number of those terms (kept keys for dq and delta, the query rows that keep the key for dk
/// and dv, the rows of the head that keep a key, over the batch, for dsinks), S and d as for the
/// forward (with a sink z_h, a row's S is at least |z_h|: its lse, from which a kernel recomputes
/// P, is as large as the sink, as is the argument z_h - lse of P_sink),
///   |X - exact| <= (ulps + ulps_per_term n_X) ulp_T(M_X) + per_score (d + 1) S 2^-24 M_X
///                  + underflow n_X ((R_X + 1) 2^-149 + W_X)
/// R_X the largest factor a weight P multiplies in one of X's terms (dq_c: |scale| (|dP|_j +
/// delta's magnitude) |k_jc| over the kept keys; dk_jc: the same with |q_ic| over the rows that
/// keep the key; dv_jc: |dout_ic|; delta: |dP|_j; dsinks: delta's magnitude over its rows; a weight
/// below f32's normals errs absolutely), W_X the absolute error dP - delta carries below the
/// normals times the largest factor it multiplies in one of X's terms: w_i = eta_T sum_c |dout_ic|
/// + 2 dv 2^-150 (the given o below T's normals is within eta_T, half T's smallest subnormal, not
/// relatively; dP's and delta's fma chains below f32's), times |scale k_jc| (dq), |scale q_ic|
/// (dk), 1 (delta, dsinks), 0 (dv); T the in type (for delta and dsinks too, though they are
/// f32: they are formed from o, which a backward kernel is given in the in type); for dsinks S is
/// the largest of its rows'. The cancellation of dS = P (dP - D) is in M_X: a gradient that is
/// small beside its terms is judged in the scale of its terms, as a float kernel rounds them.
struct AttentionGradAccuracy {
  double ulps = 4;
  double ulps_per_term = 0;
  double per_score = 0;
  double underflow = 0;
};

/// One launch (docs/semantics.md §9). batch sequences, sequence s with queries
/// cu_seqlens_q[s] ... cu_seqlens_q[s + 1] - 1 and keys 0 ... k_len(s) - 1,
/// k_len(s) = cu_seqlens_k[s + 1] - cu_seqlens_k[s]. Every tensor is dense, row-major, in the
/// in_type's bits (out_type for o; kv_type's for k and v):
///   q  [total_q, heads_q, head_dim_qk]        o  [total_q, heads_q, head_dim_v]
///   contiguous (page_size == 0): k [total_k, heads_kv, head_dim_qk], v [total_k, heads_kv,
///     head_dim_v], key j of sequence s at token cu_seqlens_k[s] + j;
///   paged (page_size > 0): k [num_pages, page_size, heads_kv, head_dim_qk], v likewise, key j of
///     sequence s in page block_table[s * max_pages + j / page_size] at slot j % page_size.
/// Query head h reads kv head h / (heads_q / heads_kv). Scores are scale * (q . k), then, with
/// softcap > 0, softcap * tanh(score / softcap), then, with alibi_slopes (null: none; one a query
/// head), - alibi_slopes[h] alibi_distance(mask, i, j, ...) added; sinks (null: none) holds one
/// logit a query head that joins the softmax's denominator with no value. lse (null when the kernel
/// declares no lse) is f32, in `base`, laid out as lse_layout says.
struct AttentionProblem : Launch {
  const void* q_ptr = nullptr;
  const void* k_ptr = nullptr;
  const void* v_ptr = nullptr;
  void* o_ptr = nullptr;
  float* lse = nullptr;
  const std::int32_t* cu_seqlens_q = nullptr;  ///< batch + 1 entries
  const std::int32_t* cu_seqlens_k = nullptr;  ///< batch + 1 entries (paged too: the lengths)
  const std::int32_t* block_table = nullptr;   ///< batch x max_pages (paged), else null
  int batch = 0;
  std::int64_t total_q = 0;
  std::int64_t total_k = 0;
  int heads_q = 1;
  int heads_kv = 1;
  int head_dim_qk = 1;
  int head_dim_v = 1;
  DType in_type = DType::F32;
  DType out_type = DType::F32;
  float scale = 1;
  float softcap = 0;
  const float* sinks = nullptr;
  const float* alibi_slopes = nullptr;
  AttentionMask mask;
  LseBase base = LseBase::E;
  AttnLseLayout lse_layout = AttnLseLayout::HeadsTokens;
  int page_size = 0;
  int num_pages = 0;
  int max_pages = 0;
  /// For a kernel that declares kv_splits: the split count or size (as declared) this launch
  /// asks for, one of the declared values; 0: the kernel's own choice.
  int kv_splits = 0;
  /// The type k and v are stored in: in_type, or, for a kernel that declares kv_types, one of
  /// those fp8 types (one byte an element, docs/semantics.md §9 "fp8 K/V"). Then the keys and
  /// values attended to are k_scale times each stored k element and v_scale times each stored v
  /// element (per-tensor scales, positive floats in [2^-64, 2^64]); q, o (and a backward's
  /// tensors) stay in in_type. Both scales are 1 when kv_type is in_type.
  DType kv_type = DType::F32;
  float k_scale = 1;
  float v_scale = 1;

  // --- A backward kernel's launch (AttentionKernel::backward, docs/semantics.md §9.4): o (out
  // type) and, when the kernel declares an lse, lse hold the forward's outputs as osvs's oracle
  // rounds them (inputs here, never to be written; with sinks, the sink's term is in the lse);
  // dout [total_q, heads_q, head_dim_v] (in type) is the gradient of o. The kernel writes dq like
  // q, dk like k and dv like v (in type, contiguous K/V), where it declares writes_delta, delta
  // (f32, laid out as lse_layout says) = sum_c dout_c o_c of each (token, head), and, where the
  // launch has sinks, dsinks [heads_q] (f32): the gradient of each head's sink, summed over every
  // row of the head in the batch, - sum_i e^(sink_h - lse_i) delta_i.
  bool backward = false;
  const void* dout_ptr = nullptr;
  void* dq_ptr = nullptr;
  void* dk_ptr = nullptr;
  void* dv_ptr = nullptr;
  float* delta = nullptr;
  float* dsinks = nullptr;  ///< with sinks (a backward launch), else null

  /// Where the lse (and a backward's delta) of (query token, head) is (on the host and in
  /// device code).
  OSVS_HD std::int64_t lse_offset(std::int64_t token, int head) const {
    return lse_layout == AttnLseLayout::HeadsTokens ? head * total_q + token
                                                    : token * heads_q + head;
  }
  OSVS_DETAIL_TYPED_VIEW(q)
  OSVS_DETAIL_TYPED_VIEW(k)
  OSVS_DETAIL_TYPED_VIEW(v)
  OSVS_DETAIL_TYPED_VIEW(o)
  OSVS_DETAIL_TYPED_VIEW(dout)
  OSVS_DETAIL_TYPED_VIEW(dq)
  OSVS_DETAIL_TYPED_VIEW(dk)
  OSVS_DETAIL_TYPED_VIEW(dv)
};

class AttentionKernel : public KernelDeclaration<AttentionKernel, AttentionProblem> {
 public:
  AttentionKernel() = default;
  AttentionKernel(std::string name, Where where) : KernelDeclaration(std::move(name), where) {}

  // --- declaration (each returns *this)
  /// The input types it takes (default f32); o is written in the same type.
  AttentionKernel& in_types(std::vector<DType> t) { return (in_types_ = std::move(t), *this); }
  /// It takes K/V stored in these fp8 types (DType::E4M3, DType::E5M2) with a scale a tensor
  /// (AttentionProblem::kv_type, k_scale, v_scale; q and o stay in the in type), and, when
  /// `only`, never K/V in the in type. Without this call it gets K/V in the in type only.
  AttentionKernel& kv_types(std::vector<DType> t, bool only = false) {
    return (kv_types_ = std::move(t), kv_types_only_ = only, *this);
  }
  /// The masks it supports (default: none only) and where their diagonal sits.
  AttentionKernel& masks(std::vector<MaskKind> m) { return (masks_ = std::move(m), *this); }
  AttentionKernel& mask_align(MaskAlign a) { return (align_ = a, *this); }
  /// It takes heads_kv < heads_q (grouped-query and multi-query attention).
  AttentionKernel& gqa(bool g = true) { return (gqa_ = g, *this); }
  /// Its shared kv heads give the bits a copy each gives (default); false: the gqa law asks
  /// only that both be within the contract (a GQA path that rounds differently).
  AttentionKernel& gqa_bitwise(bool b) { return (gqa_bitwise_ = b, *this); }
  /// A sequence's outputs may change bits with the rest of the batch (its position, the other
  /// sequences): the batch_invariance law then asks for the contract, not the bits.
  AttentionKernel& batch_bitwise(bool b) { return (batch_bitwise_ = b, *this); }
  /// Its outputs may change bits with the page size, the page order or contiguous K/V: the
  /// page_layout law then asks for the contract, not the bits.
  AttentionKernel& page_bitwise(bool b) { return (page_bitwise_ = b, *this); }
  /// It cuts each sequence's keys into splits whose partials it merges, by a split count or a
  /// split size (`by`), its own choice when p.kv_splits is 0 (which may follow the batch: then
  /// batch_bitwise(false)), and takes p.kv_splits = each of `values` (empty: its own choice
  /// only). The split_invariance law varies both.
  AttentionKernel& kv_splits(KvSplit by, std::vector<int> values) {
    return (splits_ = true, split_by_ = by, split_values_ = std::move(values), *this);
  }
  /// Its outputs may change bits with the split parameter: split_invariance then asks for the
  /// contract across split values, not the bits.
  AttentionKernel& split_bitwise(bool b) { return (split_bitwise_ = b, *this); }
  /// Its outputs may change bits when the queries come in chunks, each against its KV prefix:
  /// chunked_prefill then asks for the contract, not the bits.
  AttentionKernel& chunk_bitwise(bool b) { return (chunk_bitwise_ = b, *this); }
  /// A decode step (one query a sequence) may round otherwise than the last row of a prefill:
  /// prefill_decode then asks for the contract, not the bits.
  AttentionKernel& decode_bitwise(bool b) { return (decode_bitwise_ = b, *this); }
  /// The registered merge kernel (its name) that merges its partials in a cascade: the cascade
  /// law runs it on a shared prefix's (o, lse) and the suffix's, each a call of this kernel, and
  /// holds the merge to the derived merge bound of two partials within this kernel's contract
  /// (docs/semantics.md §9.3). Needs the lse (.lse(...)); "" (default): no cascade.
  AttentionKernel& cascade_merge(std::string merge_kernel) {
    return (cascade_merge_ = std::move(merge_kernel), *this);
  }
  /// Its tiles of keys and queries hold these many each: the accuracy and determinism laws then
  /// also judge, for each size T, one sequence of every length T + r, r = 0 ... T - 1 (a ragged
  /// last tile at every residue; causal where declared), besides their generated cases.
  AttentionKernel& tile_sizes(std::vector<int> t) { return (tile_sizes_ = std::move(t), *this); }
  /// It takes sequences of different lengths in one batch (default); false: every sequence of
  /// a problem has the same q_len and the same k_len.
  AttentionKernel& varlen(bool v) { return (varlen_ = v, *this); }
  /// It reads K/V from pages of these sizes (and never contiguous K/V when `only`).
  AttentionKernel& page_sizes(std::vector<int> sizes, bool only = false) {
    return (page_sizes_ = std::move(sizes), paged_only_ = only, *this);
  }
  /// It applies a softcap (scores softcap * tanh(score / softcap); cases then draw one).
  AttentionKernel& softcap(bool s = true) { return (softcap_ = s, *this); }
  /// It takes attention sinks (a logit a query head in the denominator; cases then draw them).
  AttentionKernel& sinks(bool s = true) { return (sinks_ = s, *this); }
  /// It adds ALiBi biases (a slope a query head; cases then draw them).
  AttentionKernel& alibi(bool a = true) { return (alibi_ = a, *this); }
  /// Every sequence has at least n keys (a kernel that refuses empty or one-key K/V).
  AttentionKernel& min_k_len(std::int64_t n) { return (min_k_len_ = n, *this); }
  /// With a mask, every sequence has as many queries as keys (a kernel whose masks need a
  /// square score matrix, as torch's flash backend with is_causal).
  AttentionKernel& square_masks(bool s = true) { return (square_masks_ = s, *this); }
  /// The head_dims it takes, for q/k (and v, without v_head_dims) (default: cases draw 1, 2,
  /// 3, 4, 5, 8 and 16).
  AttentionKernel& head_dims(std::vector<int> d) { return (head_dims_ = std::move(d), *this); }
  /// v (and o) may have a head_dim of its own, one of these (MLA-style q/k 192, v 128); without
  /// this call head_dim_v == head_dim_qk.
  AttentionKernel& v_head_dims(std::vector<int> d) { return (v_head_dims_ = std::move(d), *this); }
  /// It writes the lse (in these bases, laid out so); without this call it writes none.
  AttentionKernel& lse(std::vector<LseBase> bases, AttnLseLayout layout) {
    return (lse_bases_ = std::move(bases), lse_layout_ = layout, *this);
  }
  AttentionKernel& empty_row_lse(EmptyRowLse e) { return (empty_lse_ = e, *this); }
  AttentionKernel& accuracy(AttentionAccuracy a) { return (accuracy_ = a, *this); }
  /// It computes attention's gradients, not its forward (the backward fields of
  /// AttentionProblem; docs/semantics.md §9.4), and with `writes_delta` the row term delta =
  /// sum_c dout_c o_c too; declaring sinks, it writes their gradient dsinks where a launch has
  /// them. Its contract is grad_accuracy's; the laws across calls that cut a forward (pages,
  /// splits, chunks, decode steps, cascades) do not apply to it.
  AttentionKernel& backward(bool writes_delta = false) {
    return (backward_ = true, writes_delta_ = writes_delta, *this);
  }
  AttentionKernel& grad_accuracy(AttentionGradAccuracy a) { return (grad_accuracy_ = a, *this); }
  /// What it documents about NaN bits and zero signs (value_conventions.h).
  AttentionKernel& value_conventions(ValueConventions c) { return (conventions_ = c, *this); }

  // --- reading the declaration
  const std::vector<DType>& in_types() const { return in_types_; }
  const std::vector<DType>& kv_types() const { return kv_types_; }
  bool kv_types_only() const { return kv_types_only_; }
  bool takes_kv_type(DType t) const;
  const std::vector<MaskKind>& masks() const { return masks_; }
  MaskAlign mask_align() const { return align_; }
  bool gqa() const { return gqa_; }
  bool gqa_bitwise() const { return gqa_bitwise_; }
  bool batch_bitwise() const { return batch_bitwise_; }
  bool page_bitwise() const { return page_bitwise_; }
  bool splits() const { return splits_; }
  KvSplit split_by() const { return split_by_; }
  const std::vector<int>& split_values() const { return split_values_; }
  bool split_bitwise() const { return split_bitwise_; }
  bool chunk_bitwise() const { return chunk_bitwise_; }
  bool decode_bitwise() const { return decode_bitwise_; }
  const std::string& cascade_merge() const { return cascade_merge_; }
  bool varlen() const { return varlen_; }
  const std::vector<int>& tile_sizes() const { return tile_sizes_; }
  const std::vector<int>& page_sizes() const { return page_sizes_; }
  bool paged_only() const { return paged_only_; }
  const std::vector<int>& head_dims() const { return head_dims_; }
  const std::vector<int>& v_head_dims() const { return v_head_dims_; }
  bool softcap() const { return softcap_; }
  bool sinks() const { return sinks_; }
  bool alibi() const { return alibi_; }
  std::int64_t min_k_len() const { return min_k_len_; }
  bool square_masks() const { return square_masks_; }
  bool writes_lse() const { return !lse_bases_.empty(); }
  const std::vector<LseBase>& lse_bases() const { return lse_bases_; }
  AttnLseLayout lse_layout() const { return lse_layout_; }
  EmptyRowLse empty_row_lse() const { return empty_lse_; }
  const AttentionAccuracy& accuracy() const { return accuracy_; }
  bool backward() const { return backward_; }
  bool writes_delta() const { return writes_delta_; }
  const AttentionGradAccuracy& grad_accuracy() const { return grad_accuracy_; }
  const ValueConventions& value_conventions() const { return conventions_; }
  bool supports(MaskKind m) const;

 private:
  std::vector<DType> in_types_{DType::F32};
  std::vector<DType> kv_types_;
  bool kv_types_only_ = false;
  std::vector<MaskKind> masks_{MaskKind::None};
  MaskAlign align_ = MaskAlign::BottomRight;
  bool gqa_ = false;
  bool gqa_bitwise_ = true;
  bool batch_bitwise_ = true;
  bool page_bitwise_ = true;
  bool splits_ = false;
  KvSplit split_by_ = KvSplit::Count;
  std::vector<int> split_values_;
  bool split_bitwise_ = true;
  bool chunk_bitwise_ = true;
  bool decode_bitwise_ = true;
  std::string cascade_merge_;
  bool varlen_ = true;
  std::vector<int> tile_sizes_;
  std::vector<int> page_sizes_;
  bool paged_only_ = false;
  std::vector<int> head_dims_;
  std::vector<int> v_head_dims_;
  bool softcap_ = false;
  bool sinks_ = false;
  bool alibi_ = false;
  std::int64_t min_k_len_ = 0;
  bool square_masks_ = false;
  std::vector<LseBase> lse_bases_;
  AttnLseLayout lse_layout_ = AttnLseLayout::HeadsTokens;
  EmptyRowLse empty_lse_ = EmptyRowLse::NegInf;
  AttentionAccuracy accuracy_;
  bool backward_ = false;
  bool writes_delta_ = false;
  AttentionGradAccuracy grad_accuracy_;
  ValueConventions conventions_;
};

/// The contract in a line, its figures with 9 significant digits: "o within 5 + 4 n ulp + 4
/// (d + 1) S 2^-24 M, lse within 6 + 2 n ulp + 2 (d + 1) S 2^-24".
std::string describe(const AttentionAccuracy& a);
/// A backward kernel's: "dq, dk, dv, delta and dsinks within 4 + 1 n ulp + 2 (d + 1) S 2^-24 M".
std::string describe(const AttentionGradAccuracy& a);

const char* to_string(MaskKind m);   ///< "none", "causal", "window"
const char* to_string(MaskAlign a);  ///< "bottom-right", "top-left"
const char* to_string(KvSplit s);    ///< "count", "size"
std::optional<MaskKind> parse_mask_kind(std::string_view s);
std::optional<MaskAlign> parse_mask_align(std::string_view s);
std::optional<KvSplit> parse_kv_split(std::string_view s);

}  // namespace osvs
