// AttentionCase's shape and its well-formedness (osvs/api/attention_case.h).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>

#include "osvs/api/attention_case.h"
#include "osvs/kernels/hex.h"

namespace osvs {

std::int64_t AttentionCase::total_q() const {
  std::int64_t n = 0;
  for (const AttentionSequence& s : seqs) n += s.q_len;
  return n;
}

std::int64_t AttentionCase::total_k() const {
  std::int64_t n = 0;
  for (const AttentionSequence& s : seqs) n += s.k_len;
  return n;
}

std::int64_t AttentionCase::q_start(std::size_t s) const {
  std::int64_t n = 0;
  for (std::size_t i = 0; i < s; ++i) n += seqs[i].q_len;
  return n;
}

std::int64_t AttentionCase::k_start(std::size_t s) const {
  std::int64_t n = 0;
  for (std::size_t i = 0; i < s; ++i) n += seqs[i].k_len;
  return n;
}

std::int64_t AttentionCase::pages_of(std::size_t s) const {
  return page_size > 0 ? (seqs[s].k_len + page_size - 1) / page_size : 0;
}

std::int64_t AttentionCase::logical_pages() const {
  std::int64_t n = 0;
  for (std::size_t s = 0; s < seqs.size(); ++s) n += pages_of(s);
  return n;
}

AttentionCase AttentionCase::without_sequences() const {
  AttentionCase out = *this;
  out.seqs.clear();
  out.q.clear();
  out.k.clear();
  out.v.clear();
  out.dout.clear();
  out.page_order.clear();
  return out;
}

namespace {

std::string values_problem(const std::vector<float>& x, std::size_t expected, DType t,
                           const char* what) {
  if (x.size() != expected)
    return std::string(what) + " has " + std::to_string(x.size()) + " values, the shape needs " +
           std::to_string(expected);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float r = round_to(t, x[i]);
    if (std::memcmp(&r, &x[i], sizeof r) != 0 && !(std::isnan(r) && std::isnan(x[i])))
      return std::string(what) + "[" + std::to_string(i) + "] is not exactly a " + to_string(t) +
             " value";
  }
  return "";
}

/// Why c's fp8 K/V are malformed: a kv_type that is not fp8, a scale outside [2^-64, 2^64] (NaN
/// included), or a scale other than 1 for K/V in the in type; or "".
std::string kv_problem(const AttentionCase& c) {
  if (!c.kv_type) {
    if (c.k_scale != 1 || c.v_scale != 1)
      return "k_scale and v_scale other than 1 for K/V in the in type (they scale fp8 K/V: "
             "kv_type)";
    return "";
  }
  if (!is_fp8(*c.kv_type))
    return std::string("kv_type ") + to_string(*c.kv_type) +
           ": K/V are in the in type or an fp8 type (e4m3, e5m2)";
  for (const auto& [name, s] : {std::pair{"k_scale", c.k_scale}, std::pair{"v_scale", c.v_scale}})
    if (!(s >= kMinKvScale && s <= kMaxKvScale))
      return std::string(name) + " " + hex(s) + " outside [2^-64, 2^64]";
  return "";
}

}  // namespace

std::string attention_case_problem(const AttentionCase& c) {
  if (c.seqs.empty()) return "an attention case needs at least one sequence";
  for (const AttentionSequence& s : c.seqs)
    if (s.q_len < 0 || s.k_len < 0) return "a sequence length is negative";
  if (c.heads_q < 1 || c.heads_kv < 1 || c.heads_q % c.heads_kv != 0)
    return "heads_kv (" + std::to_string(c.heads_kv) + ") must divide heads_q (" +
           std::to_string(c.heads_q) + ")";
  if (c.head_dim_qk < 1 || c.head_dim_v < 1 || c.head_dim_qk > kAttnMaxHeadDim ||
      c.head_dim_v > kAttnMaxHeadDim)
    return "head_dim outside 1 ... " + std::to_string(kAttnMaxHeadDim);
  if (is_integer(c.in_type) || is_fp8(c.in_type))
    return std::string("in_type ") + to_string(c.in_type) +
           ": q and o take f32, bf16 or f16 (fp8 is for K/V: kv_type)";
  if (std::string why = kv_problem(c); !why.empty()) return why;
  if (!std::isfinite(c.scale)) return "the scale is not finite";
  if (!(c.softcap >= 0) || !std::isfinite(c.softcap))
    return "the softcap is not a finite number >= 0";
  if (!c.sinks.empty() && c.sinks.size() != static_cast<std::size_t>(c.heads_q))
    return "sinks has " + std::to_string(c.sinks.size()) + " values, not one a query head";
  for (float z : c.sinks)
    if (!std::isfinite(z)) return "a sink is not finite";
  if (!c.alibi_slopes.empty() && c.alibi_slopes.size() != static_cast<std::size_t>(c.heads_q))
    return "alibi_slopes has " + std::to_string(c.alibi_slopes.size()) +
           " values, not one a query head";
  for (float a : c.alibi_slopes)
    if (!std::isfinite(a)) return "an ALiBi slope is not finite";
  if (c.total_q() > (std::int64_t{1} << 30) || c.total_k() > (std::int64_t{1} << 30))
    return "more than 2^30 query or key tokens";
  if (c.page_size < 0) return "a negative page size";
  if (c.kv_splits < 0) return "a negative split parameter";
  if (c.page_size > 0) {
    std::vector<std::int64_t> sorted = c.page_order;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i)
      if (sorted[i] != static_cast<std::int64_t>(i))
        return "page_order is not a permutation of 0 ... " + std::to_string(sorted.size() - 1);
    if (static_cast<std::int64_t>(c.page_order.size()) < c.logical_pages())
      return "page_order has fewer pages than the sequences need";
  } else if (!c.page_order.empty()) {
    return "page_order given for contiguous K/V";
  }
  const auto tq = static_cast<std::size_t>(c.total_q()), tk = static_cast<std::size_t>(c.total_k());
  const auto hq = static_cast<std::size_t>(c.heads_q), hk = static_cast<std::size_t>(c.heads_kv);
  if (std::string why = values_problem(c.q, tq * hq * c.head_dim_qk, c.in_type, "q"); !why.empty())
    return why;
  const DType kv = c.kv_storage();
  if (std::string why = values_problem(c.k, tk * hk * c.head_dim_qk, kv, "k"); !why.empty())
    return why;
  if (std::string why = values_problem(c.v, tk * hk * c.head_dim_v, kv, "v"); !why.empty())
    return why;
  if (c.dout.empty()) return "";  // a forward's case
  return values_problem(c.dout, tq * hq * c.head_dim_v, c.in_type, "dout");
}

}  // namespace osvs
