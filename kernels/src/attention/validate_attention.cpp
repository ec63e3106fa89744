// Launch validation of the attention kernels: shapes, types and split plans.
#include <string>

#include "osvs/kernels/attention/attention_cases.h"
#include "osvs/kernels/validate.h"

namespace osvs {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw InvalidLaunch(what);
}

void validate_states(const AttnStates& s) {
  require(s.rows >= 0, "attention states: negative row count");
  require(s.head_dim >= 1 && s.head_dim <= kAttnMaxHeadDim,
          "attention states: head_dim " + std::to_string(s.head_dim) + " outside 1.." +
              std::to_string(kAttnMaxHeadDim));
  require(s.lse.size() == static_cast<std::size_t>(s.rows), "attention states: lse size");
  require(s.o.size() == static_cast<std::size_t>(s.rows * s.head_dim), "attention states: o size");
}

}  // namespace

void validate(const AttnStates& a, const AttnStates& b) {
  validate_states(a);
  validate_states(b);
  require(a.rows == b.rows && a.head_dim == b.head_dim && a.o_type == b.o_type,
          "merge_states: operands differ in rows, head_dim or o type");
}

void validate(const DecodeProblem& p, const SplitPlan& plan) {
  require(p.batch >= 1 && p.heads >= 1, "split_decode: batch and heads must be positive");
  require(p.head_dim >= 1 && p.head_dim <= kAttnMaxHeadDim,
          "split_decode: head_dim " + std::to_string(p.head_dim) + " outside 1.." +
              std::to_string(kAttnMaxHeadDim));
  require(p.kv_len >= 0, "split_decode: negative kv_len");
  const auto rows = static_cast<std::size_t>(p.rows());
  const auto kv = static_cast<std::size_t>(p.kv_len);
  const auto dim = static_cast<std::size_t>(p.head_dim);
  require(p.q.size() == rows * dim, "split_decode: q size");
  require(p.k.size() == rows * kv * dim && p.v.size() == rows * kv * dim,
          "split_decode: k or v size");
  require(p.masked.empty() || p.masked.size() == static_cast<std::size_t>(p.batch) * kv,
          "split_decode: mask size");
  const int splits = plan.splits();
  require(splits >= 1, "split_decode: a plan needs at least one split");
  // The decode kernel's grid is rows x splits: gridDim.y is at most 65535, gridDim.x 2^31 - 1.
  require(splits <= 65535, "split_decode: more than 65535 splits");
  require(p.rows() <= std::int64_t{2147483647}, "split_decode: more than 2^31 - 1 query rows");
  require(plan.offsets.front() == 0 && plan.offsets.back() == p.kv_len,
          "split_decode: offsets must run from 0 to kv_len");
  for (int s = 0; s < splits; ++s)
    require(
        plan.offsets[static_cast<std::size_t>(s)] <= plan.offsets[static_cast<std::size_t>(s) + 1],
        "split_decode: offsets must not decrease");
  // The merges must form a tree into slot 0: each merges a live slot into another live one.
  std::vector<bool> live(static_cast<std::size_t>(splits), true);
  for (const Merge& m : plan.merges) {
    require(m.dst >= 0 && m.dst < splits && m.src >= 0 && m.src < splits && m.dst != m.src,
            "split_decode: merge slot out of range");
    require(live[static_cast<std::size_t>(m.dst)] && live[static_cast<std::size_t>(m.src)],
            "split_decode: merge of a slot already merged away");
    live[static_cast<std::size_t>(m.src)] = false;
  }
  require(static_cast<int>(plan.merges.size()) == splits - 1 && live[0],
          "split_decode: the merges must reduce every split into slot 0");
}

}  // namespace osvs
