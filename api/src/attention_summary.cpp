// The attention kind's lines in messages and listings (osvs/api/kind.h).
#include <sstream>

#include "osvs/api/kind.h"
#include "osvs/kernels/hex.h"

namespace osvs {

std::string case_summary(const AttentionCase& c) {
  std::ostringstream s;
  s << c.seqs.size() << " sequence(s) (q x k:";
  for (const AttentionSequence& q : c.seqs) s << " " << q.q_len << "x" << q.k_len;
  s << "), " << c.heads_q << " q heads / " << c.heads_kv << " kv heads, head_dim " << c.head_dim_qk;
  if (c.head_dim_v != c.head_dim_qk) s << "/" << c.head_dim_v;
  s << ", " << to_string(c.in_type);
  if (c.kv_type)
    s << ", K/V " << to_string(*c.kv_type) << " (k_scale " << digits9(c.k_scale) << ", v_scale "
      << digits9(c.v_scale) << ")";
  s << ", mask " << to_string(c.mask.kind);
  if (c.mask.kind == MaskKind::Window)
    s << " (" << c.mask.window_left << ", " << c.mask.window_right << ")";
  if (c.mask.kind != MaskKind::None) s << " " << to_string(c.mask.align);
  if (c.softcap > 0) s << ", softcap " << digits9(c.softcap);
  if (!c.sinks.empty()) s << ", sinks";
  if (!c.alibi_slopes.empty()) s << ", alibi";
  if (c.page_size > 0) s << ", pages of " << c.page_size << " (" << c.page_order.size() << ")";
  if (c.kv_splits > 0) s << ", kv_splits " << c.kv_splits;
  return s.str();
}

std::string kernel_summary(const AttentionKernel& k) {
  std::ostringstream s;
  s << "attention kernel on " << to_string(k.where()) << ", in";
  for (DType t : k.in_types()) s << " " << to_string(t);
  if (!k.kv_types().empty()) {
    s << ", K/V in";
    for (DType t : k.kv_types()) s << " " << to_string(t);
    s << (k.kv_types_only() ? " only" : " or the in type");
  }
  s << ", masks";
  for (MaskKind m : k.masks()) s << " " << to_string(m);
  s << " (" << to_string(k.mask_align()) << ")" << (k.gqa() ? ", gqa" : "")
    << (k.varlen() ? ", varlen" : "");
  if (!k.page_sizes().empty()) {
    s << ", pages of";
    for (int p : k.page_sizes()) s << " " << p;
  }
  if (!k.tile_sizes().empty()) {
    s << ", tiles of";
    for (int t : k.tile_sizes()) s << " " << t;
  }
  if (k.splits()) {
    s << ", kv splits by " << to_string(k.split_by());
    for (int v : k.split_values()) s << " " << v;
  }
  s << (k.softcap() ? ", softcap" : "") << (k.sinks() ? ", sinks" : "")
    << (k.alibi() ? ", alibi" : "");
  if (k.backward()) {  // (its o columns in the audit count its gradient elements)
    s << ", backward: dq, dk, dv" << (k.writes_delta() ? " and delta" : "")
      << (k.writes_lse() ? " from the forward's o and lse" : " from the forward's o")
      << ", gradient contract " << describe(k.grad_accuracy());
    return s.str();
  }
  s << (k.writes_lse() ? ", writes lse" : ", no lse") << ", contract " << describe(k.accuracy());
  return s.str();
}

}  // namespace osvs
