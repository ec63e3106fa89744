// The attention kind's declaration: the mask's one definition, names, and the registry's checks
// of a declaration (osvs/api/registry.h).
#include <algorithm>

#include "declaration.h"
#include "entry_registry.h"
#include "osvs/api/law_names.h"
#include "osvs/api/registry.h"
#include "osvs/kernels/enum_names.h"
#include "osvs/kernels/hex.h"

namespace osvs {

bool key_kept(const AttentionMask& m, std::int64_t i, std::int64_t j, std::int64_t q_len,
              std::int64_t k_len) {
  if (j < 0 || j >= k_len || i < 0 || i >= q_len) return false;
  if (m.kind == MaskKind::None) return true;
  const std::int64_t diagonal = i + (m.align == MaskAlign::BottomRight ? k_len - q_len : 0);
  const std::int64_t right = m.kind == MaskKind::Causal ? 0 : m.window_right;
  const std::int64_t left = m.kind == MaskKind::Causal ? -1 : m.window_left;
  if (right >= 0 && j > diagonal + right) return false;
  if (left >= 0 && j < diagonal - left) return false;
  return true;
}

std::int64_t alibi_distance(const AttentionMask& m, std::int64_t i, std::int64_t j,
                            std::int64_t q_len, std::int64_t k_len) {
  const std::int64_t d = i + (m.align == MaskAlign::BottomRight ? k_len - q_len : 0) - j;
  return d < 0 ? -d : d;
}

namespace {

constexpr EnumName<MaskKind> kMaskKindNames[] = {
    {MaskKind::None, "none"}, {MaskKind::Causal, "causal"}, {MaskKind::Window, "window"}};
constexpr EnumName<MaskAlign> kMaskAlignNames[] = {{MaskAlign::BottomRight, "bottom-right"},
                                                   {MaskAlign::TopLeft, "top-left"}};
constexpr EnumName<KvSplit> kKvSplitNames[] = {{KvSplit::Count, "count"}, {KvSplit::Size, "size"}};

}  // namespace

const char* to_string(MaskKind m) {
  return name_in(kMaskKindNames, m);
}

const char* to_string(MaskAlign a) {
  return name_in(kMaskAlignNames, a);
}

const char* to_string(KvSplit s) {
  return name_in(kKvSplitNames, s);
}

std::optional<KvSplit> parse_kv_split(std::string_view s) {
  return value_in(kKvSplitNames, s);
}

std::optional<MaskKind> parse_mask_kind(std::string_view s) {
  return value_in(kMaskKindNames, s);
}

std::optional<MaskAlign> parse_mask_align(std::string_view s) {
  return value_in(kMaskAlignNames, s);
}

std::string describe(const AttentionAccuracy& a) {
  return "o within " + digits9(a.o_ulps) + " + " + digits9(a.o_ulps_per_key) + " n ulp + " +
         digits9(a.o_per_score) + " (d + 1) S 2^-24 M, lse within " + digits9(a.lse_ulps) + " + " +
         digits9(a.lse_ulps_per_key) + " n ulp + " + digits9(a.lse_per_score) + " (d + 1) S 2^-24" +
         (a.o_underflow > 0 ? ", o underflow " + digits9(a.o_underflow) + " n (V + 1) 2^-149" : "");
}

std::string describe(const AttentionGradAccuracy& a) {
  return "dq, dk, dv, delta and dsinks within " + digits9(a.ulps) + " + " +
         digits9(a.ulps_per_term) + " n ulp + " + digits9(a.per_score) + " (d + 1) S 2^-24 M" +
         (a.underflow > 0 ? " + " + digits9(a.underflow) + " n (R + 1) 2^-149" : "");
}

bool AttentionKernel::supports(MaskKind m) const {
  return std::find(masks_.begin(), masks_.end(), m) != masks_.end();
}

bool AttentionKernel::takes_kv_type(DType t) const {
  return std::find(kv_types_.begin(), kv_types_.end(), t) != kv_types_.end();
}

std::string declaration_problem(const AttentionKernel& k) {
  const std::string who = "attention kernel '" + k.name() + "'";
  if (const std::string why = api::name_problem(k.name()); !why.empty()) return why;
  if (!k.has_callable()) return who + " has no callable (.run(...))";
  if (k.in_types().empty() || k.masks().empty()) return who + " declares no in type or no mask";
  if (const std::string why = api::value_types_problem(who, k.in_types()); !why.empty()) return why;
  for (DType t : k.kv_types())
    if (!is_fp8(t))
      return who + " declares the kv type " + to_string(t) +
             ": kv_types lists fp8 types (e4m3, e5m2); K/V in the in type need no declaration";
  if (k.kv_types_only() && k.kv_types().empty())
    return who + " takes fp8 K/V only but declares no kv type";
  if (k.backward() && !k.kv_types().empty())
    return who +
           " computes gradients (backward) but declares fp8 K/V: a backward kernel reads "
           "K/V in its in type";
  if (k.paged_only() && k.page_sizes().empty())
    return who + " is paged only but declares no page size";
  for (int p : k.page_sizes())
    if (p < 1) return who + " declares a page size below 1";
  for (int t : k.tile_sizes())
    if (t < 1 || t > 1024) return who + " declares a tile size outside 1 ... 1024";
  for (int v : k.split_values())
    if (v < 1) return who + " declares a split " + to_string(k.split_by()) + " below 1";
  std::vector<int> dims = k.head_dims();
  dims.insert(dims.end(), k.v_head_dims().begin(), k.v_head_dims().end());
  for (int d : dims)
    if (d < 1 || d > kAttnMaxHeadDim)
      return who + " declares head_dim " + std::to_string(d) + " outside 1 ... " +
             std::to_string(kAttnMaxHeadDim);
  if (!k.cascade_merge().empty() && !k.writes_lse())
    return who + " names a cascade merge (" + k.cascade_merge() +
           ") but writes no lse: a merge reads the partials' lse";
  if (k.backward()) {  // docs/semantics.md §9.4: what a backward kernel takes
    if (!k.page_sizes().empty() || k.splits() || !k.cascade_merge().empty())
      return who +
             " computes gradients (backward) but declares pages, KV splits or a cascade merge: a "
             "backward kernel reads contiguous K/V, in one call";
    const AttentionGradAccuracy& g = k.grad_accuracy();
    if (!(g.ulps >= 0 && g.ulps_per_term >= 0 && g.per_score >= 0 && g.underflow >= 0))
      return who + " declares a gradient contract that is not a number of ulps >= 0";
  }
  const AttentionAccuracy& a = k.accuracy();
  if (!(a.o_ulps >= 0 && a.o_ulps_per_key >= 0 && a.o_per_score >= 0 && a.lse_ulps >= 0 &&
        a.lse_ulps_per_key >= 0 && a.lse_per_score >= 0 && a.o_underflow >= 0))
    return who + " declares an accuracy contract that is not a number of ulps >= 0";
  return api::declared_law_problem(who, k, kAttentionLawNames, "attention law");
}

OSVS_INSTANTIATE_REGISTRY(AttentionKernel);

}  // namespace osvs
