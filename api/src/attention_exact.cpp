// The attention kind's oracle (osvs/api/attention_laws.h): every (query token, head) of a case
// is one query of oracle::attention_reference (exact scores, exact softmax, each o component and
// the lse correctly rounded; its error analysis is beside its code), its keys those of its
// sequence that key_kept keeps, read from its kv head h / (heads_q / heads_kv).
#include "osvs/api/attention_laws.h"
#include "osvs/oracle/attention_reference.h"

namespace osvs {

AttentionExact exact_attention(const AttentionCase& c, DType out) {
  const std::size_t hq = static_cast<std::size_t>(c.heads_q),
                    hk = static_cast<std::size_t>(c.heads_kv);
  const std::size_t dqk = static_cast<std::size_t>(c.head_dim_qk),
                    dv = static_cast<std::size_t>(c.head_dim_v);
  const std::size_t group = hq / hk;
  const auto tq = static_cast<std::size_t>(c.total_q());
  AttentionExact e;
  e.o_rounded.resize(tq * hq * dv);
  e.o.resize(tq * hq * dv);
  e.magnitude.resize(tq * hq * dv);
  e.lse_rounded.resize(tq * hq);
  e.lse.resize(tq * hq);
  e.kept.resize(tq * hq);
  for (std::size_t s = 0; s < c.seqs.size(); ++s) {
    const std::int64_t lq = c.seqs[s].q_len, lk = c.seqs[s].k_len;
    const auto k0 = static_cast<std::size_t>(c.k_start(s)),
               q0 = static_cast<std::size_t>(c.q_start(s));
    for (std::size_t g = 0; g < hk; ++g) {
      // The sequence's keys and values of kv head g, key after key.
      std::vector<float> k(static_cast<std::size_t>(lk) * dqk),
          v(static_cast<std::size_t>(lk) * dv);
      for (std::size_t j = 0; j < static_cast<std::size_t>(lk); ++j) {
        std::copy_n(c.k.begin() + static_cast<std::ptrdiff_t>(((k0 + j) * hk + g) * dqk), dqk,
                    k.begin() + static_cast<std::ptrdiff_t>(j * dqk));
        std::copy_n(c.v.begin() + static_cast<std::ptrdiff_t>(((k0 + j) * hk + g) * dv), dv,
                    v.begin() + static_cast<std::ptrdiff_t>(j * dv));
      }
      std::vector<std::uint8_t> masked(static_cast<std::size_t>(lk));
      for (std::int64_t i = 0; i < lq; ++i) {
        for (std::int64_t j = 0; j < lk; ++j)
          masked[static_cast<std::size_t>(j)] = key_kept(c.mask, i, j, lq, lk) ? 0 : 1;
        for (std::size_t h = g * group; h < (g + 1) * group; ++h) {
          const std::size_t row = (q0 + static_cast<std::size_t>(i)) * hq + h;
          oracle::AttentionQuery a;
          a.q = c.q.data() + row * dqk;
          a.k = k.data();
          a.v = v.data();
          a.masked = masked.data();
          a.kv_len = lk;
          a.head_dim = c.head_dim_qk;
          a.v_dim = c.head_dim_v;
          a.scale = c.scale;
          a.base = c.base;
          a.out = out;
          a.softcap = c.softcap;
          a.has_sink = !c.sinks.empty();
          a.sink = a.has_sink ? c.sinks[h] : 0.0f;
          const oracle::AttentionReference r = oracle::attention_reference(a);
          std::copy(r.o_rounded.begin(), r.o_rounded.end(), e.o_rounded.begin() + row * dv);
          std::copy(r.o.begin(), r.o.end(), e.o.begin() + row * dv);
          std::copy(r.magnitude.begin(), r.magnitude.end(), e.magnitude.begin() + row * dv);
          e.lse_rounded[row] = r.lse_rounded;
          e.lse[row] = r.lse;
          e.kept[row] = r.unmasked;
        }
      }
    }
  }
  return e;
}

}  // namespace osvs
