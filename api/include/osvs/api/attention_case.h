// The values an attention law is judged on (osvs/api/kind.h's K::Case of the attention kind): a
// batch of sequences with their own query and key lengths, q / k / v as floats exactly
// representable in the input type (k and v in their fp8 type, with its scales, where the case
// has one; logical, contiguous layout; the runner pages them), the mask, the scale, and how K/V
// are paged. docs/semantics.md §9.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "osvs/api/attention_kernel.h"

namespace osvs {

struct AttentionSequence {
  std::int64_t q_len = 1;
  std::int64_t k_len = 1;
  bool operator==(const AttentionSequence& o) const { return q_len == o.q_len && k_len == o.k_len; }
};

/// The per-tensor scales of fp8 K/V generated cases draw (k's and v's each), each for a reason:
///   1            the scale a kernel that ignores it gets right: the control;
///   0.5, 2^-4    powers of two: the dequantised values are the stored ones moved by whole
///                binades (exact in any float type), the scales' most common kind (per-tensor
///                powers of two);
///   2^-7         a power of two that takes e4m3's subnormals (2^-9 ... 2^-7) to 2^-16 ... 2^-14
///                and e5m2's to 2^-23: true values far below the stored format's normals;
///   1.5          two significant bits: scale x has up to 6 (e4m3) or 5 (e5m2), a float, bf16 and
///                (in range) f16 value, but no mere shift: a scale that is ignored, or applied to
///                the other tensor, moves every score and value off the exact one;
///   1/448        the amax scaling that maps |x| <= 1 onto e4m3's range, rounded to a float
///                (0x1.24924ap-9, 24 significant bits): scale x has up to 28 bits and is no float,
///                so a kernel that dequantises in binary32 rounds it (its contract must say so).
inline const std::vector<float> kKvScales{1.0f, 0.5f, 0x1p-4f, 0x1p-7f, 1.5f, 0x1.24924ap-9f};

/// The range of a case's k_scale and v_scale: positive floats in [2^-64, 2^64], so that scale x
/// is a normal binary32 (or zero) for every finite fp8 value x (2^-16 2^-64 >= 2^-126, 57344
/// 2^64 < 2^128): a kernel that dequantises in binary32 rounds it at most once, relatively.
inline constexpr float kMinKvScale = 0x1p-64f, kMaxKvScale = 0x1p64f;

/// The ALiBi slopes generated cases draw (one a query head): ALiBi's own 2^(-8h/H) for H = 8 and
/// 16, and slopes with every bit of a float set, whose biases round.
inline const std::vector<float> kAlibiSlopes{1.0f,    0.5f,           0.25f, 0x1p-4f,
                                             0x1p-8f, 0x1.6a09e6p-1f, 0.3f};

struct AttentionCase {
  std::vector<AttentionSequence> seqs{AttentionSequence{}};
  int heads_q = 1;
  int heads_kv = 1;
  int head_dim_qk = 1;
  int head_dim_v = 1;
  DType in_type = DType::F32;
  float scale = 1;
  float softcap = 0;         ///< > 0: scores softcap * tanh(score / softcap)
  std::vector<float> sinks;  ///< one logit a query head, or empty: no sinks
  /// One ALiBi slope a query head, or empty: no bias (key_kept's alignment, alibi_distance).
  std::vector<float> alibi_slopes;
  AttentionMask mask;
  LseBase base = LseBase::E;
  /// 0: contiguous K/V. Otherwise the size of a page, and page_order[p] the physical page of
  /// the batch's logical page p (sequence after sequence, each from a fresh page); physical
  /// pages no logical page uses (spare) are there too, and hold poison.
  int page_size = 0;
  std::vector<std::int64_t> page_order;
  /// The split parameter the launch asks for (AttentionProblem::kv_splits; 0: the kernel's own
  /// choice, the only value for a kernel that declares no kv_splits).
  int kv_splits = 0;
  /// fp8 K/V (docs/semantics.md §9, "fp8 K/V"): the fp8 type (E4M3, E5M2) k and v are stored
  /// in, k and v then holding the stored values (exact in it), and the keys and values attended
  /// to are k_scale k and v_scale v (exact products); none: k and v in in_type, both scales 1.
  std::optional<DType> kv_type;
  float k_scale = 1;
  float v_scale = 1;
  /// q [total_q, heads_q, head_dim_qk]; k [total_k, heads_kv, head_dim_qk]; v [total_k,
  /// heads_kv, head_dim_v] (logical: sequence after sequence).
  std::vector<float> q, k, v;
  /// For a backward kernel: the gradient of o, [total_q, heads_q, head_dim_v] (like o); empty
  /// for a forward kernel (fit_to gives a backward kernel's case without one a fixed one).
  std::vector<float> dout;

  /// The type k and v are stored in: kv_type, or in_type.
  DType kv_storage() const { return kv_type.value_or(in_type); }
  std::int64_t total_q() const;
  std::int64_t total_k() const;
  /// The first query / key token of sequence s.
  std::int64_t q_start(std::size_t s) const;
  std::int64_t k_start(std::size_t s) const;
  /// Pages sequence s spans (0 when contiguous).
  std::int64_t pages_of(std::size_t s) const;
  /// Logical pages of the batch (sum of pages_of) and physical ones (page_order's size).
  std::int64_t logical_pages() const;
  /// This case with no sequence, no q, k, v or dout values and no page order: its heads,
  /// head_dims, types, mask, modifiers and paging kept, for a case of other sequences (a derived
  /// call's, a smaller one's) to be filled in.
  AttentionCase without_sequences() const;
};

/// Why c is not a well-formed case (sizes that disagree, heads_kv not dividing heads_q, a page
/// order that is not a permutation covering the logical pages, values not exact in in_type, an
/// in_type that is no value type, a kv_type that is not fp8, scales outside [2^-64, 2^64] or
/// other than 1 without a kv_type, k or v not exact in kv_type), or "".
std::string attention_case_problem(const AttentionCase& c);

/// The kernel's outputs, read back as floats: o [total_q, heads_q, head_dim_v] and, when it
/// writes one, lse [total_q * heads_q] in (token, head) order, in the case's base. A backward
/// kernel's instead: dq like q, dk like k, dv like v, when it writes it, delta [total_q *
/// heads_q] in (token, head) order, and, for a case with sinks, dsinks [heads_q] (o and lse stay
/// empty).
struct AttentionOutputs {
  std::vector<float> o;
  std::vector<float> lse;
  std::vector<float> dq, dk, dv, delta, dsinks;
};

}  // namespace osvs
