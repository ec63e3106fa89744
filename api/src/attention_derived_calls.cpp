// The derived calls of the attention laws across calls (attention_derived_calls.h).
#include "attention_derived_calls.h"

namespace osvs::attention_derived_calls {

std::vector<SequencePart> whole(const AttentionCase& c, const std::vector<std::size_t>& order) {
  std::vector<SequencePart> parts;
  for (std::size_t s : order) parts.push_back({s, 0, c.seqs[s].q_len, c.seqs[s].k_len});
  return parts;
}

AttentionCase with_parts(const AttentionCase& c, const std::vector<SequencePart>& parts) {
  AttentionCase out = c.without_sequences();
  const auto q_row = static_cast<std::size_t>(c.heads_q * c.head_dim_qk),
             k_row = static_cast<std::size_t>(c.heads_kv * c.head_dim_qk),
             v_row = static_cast<std::size_t>(c.heads_kv * c.head_dim_v);
  const auto append = [](std::vector<float>& to, const std::vector<float>& from, std::int64_t token,
                         std::int64_t count, std::size_t row) {
    const auto begin =
        from.begin() + static_cast<std::ptrdiff_t>(token * static_cast<std::int64_t>(row));
    to.insert(to.end(), begin,
              begin + static_cast<std::ptrdiff_t>(count * static_cast<std::int64_t>(row)));
  };
  for (const SequencePart& p : parts) {
    out.seqs.push_back({p.q_end - p.q_begin, p.k_len});
    append(out.q, c.q, c.q_start(p.seq) + p.q_begin, p.q_end - p.q_begin, q_row);
    append(out.k, c.k, c.k_start(p.seq) + p.k_begin, p.k_len, k_row);
    append(out.v, c.v, c.k_start(p.seq) + p.k_begin, p.k_len, v_row);
    if (!c.dout.empty())
      append(out.dout, c.dout, c.q_start(p.seq) + p.q_begin, p.q_end - p.q_begin,
             static_cast<std::size_t>(c.heads_q * c.head_dim_v));
  }
  for (std::int64_t p = 0; c.page_size > 0 && p < out.logical_pages(); ++p)
    out.page_order.push_back(p);
  return out;
}

std::vector<std::int64_t> rows_in(const AttentionCase& c, const std::vector<SequencePart>& parts) {
  std::vector<std::int64_t> rows(static_cast<std::size_t>(c.total_q() * c.heads_q), -1);
  std::int64_t token = 0;
  for (const SequencePart& p : parts)
    for (std::int64_t i = p.q_begin; i < p.q_end; ++i, ++token)
      for (int h = 0; h < c.heads_q; ++h)
        rows[static_cast<std::size_t>((c.q_start(p.seq) + i) * c.heads_q + h)] =
            token * c.heads_q + h;
  return rows;
}

std::vector<std::int64_t> key_rows_in(const AttentionCase& c,
                                      const std::vector<SequencePart>& parts) {
  std::vector<std::int64_t> rows(static_cast<std::size_t>(c.total_k() * c.heads_kv), -1);
  std::int64_t token = 0;
  for (const SequencePart& p : parts)
    for (std::int64_t j = p.k_begin; j < p.k_begin + p.k_len; ++j, ++token)
      for (int g = 0; g < c.heads_kv; ++g)
        rows[static_cast<std::size_t>((c.k_start(p.seq) + j) * c.heads_kv + g)] =
            token * c.heads_kv + g;
  return rows;
}

std::vector<std::int64_t> same_positions(const AttentionCase& c) {
  std::vector<std::int64_t> rows(static_cast<std::size_t>(c.total_q() * c.heads_q));
  for (std::size_t r = 0; r < rows.size(); ++r) rows[r] = static_cast<std::int64_t>(r);
  return rows;
}

}  // namespace osvs::attention_derived_calls
