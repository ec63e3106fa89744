// The attention kind's oracle (osvs/api/attention_laws.h): every (query token, head) of a case
// is one query of oracle::attention_reference (exact scores, exact softmax, each o component and
// the lse correctly rounded; its error analysis is beside its code), its keys those of its
// sequence that key_kept keeps, read from its kv head h / (heads_q / heads_kv). Each query token
// writes only its own slots, so a large case runs on every core with the same result.
#include <atomic>

#include "osvs/api/attention_laws.h"
#include "osvs/kernels/parallel_for.h"
#include "osvs/oracle/attention_reference.h"

namespace osvs {
namespace {

/// Multiply-adds of the scores and weighted sums (over every kept and masked key) from which a
/// case is judged on every core: below, thread start-up would cost more than it saves.
constexpr double kParallelWork = 1 << 22;

}  // namespace

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
  // Each sequence's keys and values of each kv head, key after key ([s * hk + g]).
  std::vector<std::vector<float>> keys(c.seqs.size() * hk), values(c.seqs.size() * hk);
  std::vector<std::pair<std::size_t, std::int64_t>> tokens;  // (sequence, query index)
  double work = 0;
  for (std::size_t s = 0; s < c.seqs.size(); ++s) {
    const std::int64_t lq = c.seqs[s].q_len, lk = c.seqs[s].k_len;
    const auto k0 = static_cast<std::size_t>(c.k_start(s));
    for (std::size_t g = 0; g < hk; ++g) {
      std::vector<float>& k = keys[s * hk + g];
      std::vector<float>& v = values[s * hk + g];
      k.resize(static_cast<std::size_t>(lk) * dqk);
      v.resize(static_cast<std::size_t>(lk) * dv);
      for (std::size_t j = 0; j < static_cast<std::size_t>(lk); ++j) {
        std::copy_n(c.k.begin() + static_cast<std::ptrdiff_t>(((k0 + j) * hk + g) * dqk), dqk,
                    k.begin() + static_cast<std::ptrdiff_t>(j * dqk));
        std::copy_n(c.v.begin() + static_cast<std::ptrdiff_t>(((k0 + j) * hk + g) * dv), dv,
                    v.begin() + static_cast<std::ptrdiff_t>(j * dv));
      }
    }
    for (std::int64_t i = 0; i < lq; ++i) tokens.emplace_back(s, i);
    work +=
        static_cast<double>(lq) * static_cast<double>(lk) * static_cast<double>(hq * (dqk + dv));
  }
  std::atomic<std::int64_t> mpfr_queries{0};
  const auto judge_token = [&](std::int64_t index) {
    const auto [s, i] = tokens[static_cast<std::size_t>(index)];
    const std::int64_t lq = c.seqs[s].q_len, lk = c.seqs[s].k_len;
    const auto q0 = static_cast<std::size_t>(c.q_start(s));
    std::vector<std::uint8_t> masked(static_cast<std::size_t>(lk));
    for (std::int64_t j = 0; j < lk; ++j)
      masked[static_cast<std::size_t>(j)] = key_kept(c.mask, i, j, lq, lk) ? 0 : 1;
    std::int64_t by_mpfr = 0;
    for (std::size_t g = 0; g < hk; ++g)
      for (std::size_t h = g * group; h < (g + 1) * group; ++h) {
        const std::size_t row = (q0 + static_cast<std::size_t>(i)) * hq + h;
        oracle::AttentionQuery a;
        a.q = c.q.data() + row * dqk;
        a.k = keys[s * hk + g].data();
        a.v = values[s * hk + g].data();
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
        a.k_scale = c.k_scale;  // (1 and 1 unless the case has fp8 K/V)
        a.v_scale = c.v_scale;
        if (!c.alibi_slopes.empty()) {
          a.alibi_slope = c.alibi_slopes[h];
          a.alibi_position = i + (c.mask.align == MaskAlign::BottomRight ? lk - lq : 0);
        }
        const oracle::AttentionReference r = oracle::attention_reference(a);
        std::copy(r.o_rounded.begin(), r.o_rounded.end(), e.o_rounded.begin() + row * dv);
        std::copy(r.o.begin(), r.o.end(), e.o.begin() + row * dv);
        std::copy(r.magnitude.begin(), r.magnitude.end(), e.magnitude.begin() + row * dv);
        e.lse_rounded[row] = r.lse_rounded;
        e.lse[row] = r.lse;
        e.kept[row] = r.unmasked;
        by_mpfr += r.mpfr ? 1 : 0;
      }
    mpfr_queries += by_mpfr;
  };
  const auto count = static_cast<std::int64_t>(tokens.size());
  const int workers = work >= kParallelWork ? worker_count() : 1;
  parallel_for(count, workers, 1, [&](int, std::int64_t begin, std::int64_t end) {
    for (std::int64_t t = begin; t < end; ++t) judge_token(t);
  });
  e.mpfr_queries = mpfr_queries;
  return e;
}

}  // namespace osvs
