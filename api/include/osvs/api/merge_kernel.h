// MergeKernel: a black-box merge of attention partials under test, the engines'
// `merge_attn_states`: (o_a, lse_a, o_b, lse_b) -> (o, lse) over rows = tokens x heads, each row
// head_dim components of o and one f32 lse (docs/semantics.md §8). Declared like a RowKernel: a
// name, where it runs, the callable, the o types it takes, the base of its lse, how it represents
// an empty partial, and the laws it is known to break or leaves out.
//
//   osvs::MergeKernel("my.merge", osvs::Where::Device)
//       .run([](const osvs::MergeProblem& p) {
//         my_merge(p.o_out<float>(), p.lse_out, p.o_a<float>(), p.lse_a, p.o_b<float>(), p.lse_b,
//                  p.rows, p.head_dim, p.cuda_stream<cudaStream_t>());
//       })
//       .lse_bases({osvs::LseBase::E})
//       .empty_partial(osvs::EmptyPartial::NegInfLse);
//
// Every merge law (api/README.md) runs on it: bitwise commutativity, identity and special values,
// and accuracy, associativity and tree invariance within the derived merge bound, whose exp and
// log accuracies are CUDA's (Where::Device) or glibc's (Where::Host).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "osvs/api/dtype.h"
#include "osvs/api/kernel_declaration.h"
#include "osvs/api/lse_layout.h"
#include "osvs/kernels/attention/attention_cases.h"
#include "osvs/kernels/attention/lse_math.h"
#include "osvs/kernels/attention/value_conventions.h"

namespace osvs {

/// One launch: rows = tokens x heads partials of each operand (row r is token r / heads, head
/// r % heads); the o of (t, h) at o + o_offset(t, h) (o_type values, head_dim of them), its lse
/// at lse[lse_offset(t, h)] (f32). Every o (a, b, out) has the same strides; a kernel that does
/// not declare o_strided always gets dense ones (o_head_stride = head_dim, o_token_stride =
/// heads * head_dim), and one that keeps the default lse layout gets lse[r]: row r's o at
/// o + r * head_dim, its lse at lse[r], whatever heads is. The kernel writes o_out and lse_out
/// (not their padding) and nothing else. base says in which base every lse is (one of the
/// declared lse_bases); stream is the cudaStream_t to launch on (Where::Device) or null.
struct MergeProblem : Launch {
  const void* o_a_ptr = nullptr;
  const float* lse_a = nullptr;
  const void* o_b_ptr = nullptr;
  const float* lse_b = nullptr;
  void* o_out_ptr = nullptr;
  float* lse_out = nullptr;
  std::int64_t rows = 0;
  int head_dim = 1;
  DType o_type = DType::F32;
  LseBase base = LseBase::E;
  std::int64_t heads = 1;
  std::int64_t o_head_stride = 1;   ///< elements between the o of two heads of a token
  std::int64_t o_token_stride = 1;  ///< elements between the o of two tokens
  LseLayout lse_layout = LseLayout::TokensHeads;

  std::int64_t tokens() const { return heads > 0 ? rows / heads : 0; }
  /// Where the o of (token t, head h) starts, in elements.
  std::int64_t o_offset(std::int64_t t, std::int64_t h) const {
    return t * o_token_stride + h * o_head_stride;
  }
  /// Where the lse of (token t, head h) is.
  std::int64_t lse_offset(std::int64_t t, std::int64_t h) const {
    return lse_layout == LseLayout::TokensHeads ? t * heads + h : h * tokens() + t;
  }

  OSVS_DETAIL_TYPED_VIEW(o_a)
  OSVS_DETAIL_TYPED_VIEW(o_b)
  OSVS_DETAIL_TYPED_VIEW(o_out)
};

/// How the kernel represents an empty partial (a split with no key, or only masked ones); its o
/// is never read. NegInfLse: lse = -inf (osvs's convention, vLLM's and FlashInfer's merges);
/// PosInfLse: lse = +inf (what some attention kernels write for an empty split, and what vLLM's
/// merge also accepts). The laws speak -inf; the testbed translates to and from the kernel's
/// representation, so a PosInfLse kernel cannot be asked about a +inf lse as a value
/// (special_values, which asks, is left out for it with that reason).
enum class EmptyPartial { NegInfLse, PosInfLse };

const char* to_string(EmptyPartial e);

using MergeKernelFn = std::function<void(const MergeProblem&)>;

class MergeKernel : public KernelDeclaration<MergeKernel, MergeProblem> {
 public:
  MergeKernel() = default;
  MergeKernel(std::string name, Where where) : KernelDeclaration(std::move(name), where) {}

  // --- declaration (each returns *this)
  /// The o types it accepts (default f32 only); cases of other types are converted to these.
  MergeKernel& o_types(std::vector<DType> t) { return (o_types_ = std::move(t), *this); }
  /// The lse bases it computes in (default e only); cases use only these.
  MergeKernel& lse_bases(std::vector<LseBase> b) { return (bases_ = std::move(b), *this); }
  MergeKernel& empty_partial(EmptyPartial e) { return (empty_ = e, *this); }
  /// What it documents about NaN bits, zero signs and the o of an empty result
  /// (value_conventions.h; default: the canonical NaN, exact signs, an empty result's o +0).
  MergeKernel& value_conventions(ValueConventions c) { return (conventions_ = c, *this); }
  /// Where its lse rows live (default TokensHeads: lse[r]).
  MergeKernel& lse_layout(LseLayout l) { return (lse_layout_ = l, *this); }
  /// It reads and writes every o through o_head_stride and o_token_stride: cases pad heads and
  /// tokens (default: dense o, row r at r * head_dim).
  MergeKernel& o_strided(bool s = true) { return (o_strided_ = s, *this); }
  /// The head_dims it takes (default: any of 1 ... kAttnMaxHeadDim); cases draw only these.
  MergeKernel& head_dims(std::vector<int> d) { return (head_dims_ = std::move(d), *this); }
  /// Or every multiple of m up to kAttnMaxHeadDim (vectorised loads of m components).
  MergeKernel& head_dim_multiple(int m) { return (head_dim_multiple_ = m, *this); }

  // --- reading the declaration
  const std::vector<DType>& o_types() const { return o_types_; }
  const std::vector<LseBase>& lse_bases() const { return bases_; }
  EmptyPartial empty_partial() const { return empty_; }
  const ValueConventions& value_conventions() const { return conventions_; }
  LseLayout lse_layout() const { return lse_layout_; }
  bool o_strided() const { return o_strided_; }
  /// Every head_dim of 1 ... kAttnMaxHeadDim it takes, ascending.
  std::vector<int> supported_head_dims() const;
  bool takes_head_dim(int d) const;

 private:
  std::vector<DType> o_types_{DType::F32};
  std::vector<LseBase> bases_{LseBase::E};
  EmptyPartial empty_ = EmptyPartial::NegInfLse;
  ValueConventions conventions_;
  LseLayout lse_layout_ = LseLayout::TokensHeads;
  bool o_strided_ = false;
  std::vector<int> head_dims_;  ///< empty: any
  int head_dim_multiple_ = 1;
};

}  // namespace osvs
