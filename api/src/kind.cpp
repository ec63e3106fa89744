// The kinds' case summaries (osvs/api/kind.h).
#include "osvs/api/kind.h"

#include <sstream>

#include "osvs/api/row_layouts.h"

namespace osvs {

std::string case_summary(const RowCase& c) {
  std::ostringstream s;
  s << c.rows.size() << " row(s) of " << (c.rows.empty() ? 0 : c.rows[0].size()) << " elements";
  if (c.layout.x_pad || c.layout.y_pad)
    s << ", padding " << c.layout.x_pad << "/" << c.layout.y_pad;
  if (c.batch_rows > 1) s << ", at row " << c.batch_position << " of " << c.batch_rows;
  return s.str();
}

std::string case_summary(const MergeCase& c) {
  const AttnStates& p = c.parts.front();
  std::string s = std::to_string(c.parts.size()) + " partials of " + std::to_string(p.rows) +
                  " row(s) x head_dim " + std::to_string(p.head_dim) + ", " + to_string(p.o_type) +
                  ", base " + to_string(c.base);
  if (c.shape.heads > 1) s += ", " + std::to_string(c.shape.heads) + " heads a token";
  if (c.shape.head_pad || c.shape.token_pad)
    s += ", o padding " + std::to_string(c.shape.head_pad) + " a head, " +
         std::to_string(c.shape.token_pad) + " a token";
  return s;
}

std::string kernel_summary(const RowKernel& k) {
  std::ostringstream s;
  s << to_string(k.op()) << " " << to_string(k.in_type()) << "->" << to_string(k.out_type())
    << " on " << to_string(k.where()) << ", contract " << k.accuracy().describe();
  for (const LayoutLength& l : layout_lengths(k))
    s << "\n  layout " << l.layout << ": N = " << l.cols << " (" << l.why << ")";
  return s.str();
}

std::string kernel_summary(const MergeKernel& k) {
  std::ostringstream s;
  s << "merge kernel on " << to_string(k.where()) << ", o";
  for (DType t : k.o_types()) s << " " << to_string(t);
  s << ", lse base";
  for (LseBase b : k.lse_bases()) s << " " << to_string(b);
  s << ", empty partial " << to_string(k.empty_partial()) << ", lse " << to_string(k.lse_layout())
    << (k.o_strided() ? ", o strided" : ", o dense") << ", " << k.supported_head_dims().size()
    << " head_dims";
  return s.str();
}

std::string shape_class(const AttentionCase& c) {
  bool decode = true, empty_kv = false;
  for (const AttentionSequence& s : c.seqs) {
    decode = decode && s.q_len == 1;
    empty_kv = empty_kv || s.k_len == 0;
  }
  const char* heads = c.heads_q == c.heads_kv ? "MHA" : c.heads_kv == 1 ? "MQA" : "GQA";
  std::ostringstream o;
  o << (c.seqs.size() == 1 ? "1 sequence, " : "several sequences, ")
    << (decode ? "decode" : "prefill") << (empty_kv ? " with an empty KV" : "") << ", " << heads
    << (c.head_dim_v != c.head_dim_qk ? ", head_dim v != q/k" : "") << ", " << to_string(c.in_type)
    << ", " << to_string(c.mask.kind);
  if (c.mask.kind != MaskKind::None) o << " " << to_string(c.mask.align);
  if (c.page_size > 0) o << ", paged";
  if (c.softcap > 0) o << ", softcap";
  if (!c.sinks.empty()) o << ", sinks";
  if (!c.alibi_slopes.empty()) o << ", alibi";
  if (c.base == LseBase::Two) o << ", lse base 2";
  return o.str();
}

}  // namespace osvs
