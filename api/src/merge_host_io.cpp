#include "osvs/api/merge_host_io.h"

#include <algorithm>

namespace osvs {
namespace {

/// The operand in row order, read through the launch's strides and lse layout.
AttnStates operand(const MergeProblem& p, const void* o, const float* lse) {
  AttnStates s{p.rows, p.head_dim, p.o_type, std::vector<float>(static_cast<std::size_t>(p.rows)),
               std::vector<float>(static_cast<std::size_t>(p.rows * p.head_dim))};
  const auto* bytes = static_cast<const unsigned char*>(o);
  for (std::int64_t r = 0; r < p.rows; ++r) {
    const std::int64_t t = r / p.heads, h = r % p.heads;
    s.lse[static_cast<std::size_t>(r)] = lse[p.lse_offset(t, h)];
    load_from(p.o_type, bytes + static_cast<std::size_t>(p.o_offset(t, h)) * size_of(p.o_type),
              s.o.data() + r * p.head_dim, p.head_dim);
  }
  return s;
}

}  // namespace

AttnStates operand_a(const MergeProblem& p) {
  return operand(p, p.o_a_ptr, p.lse_a);
}

AttnStates operand_b(const MergeProblem& p) {
  return operand(p, p.o_b_ptr, p.lse_b);
}

void store_result(const MergeProblem& p, const AttnStates& out) {
  auto* bytes = static_cast<unsigned char*>(p.o_out_ptr);
  for (std::int64_t r = 0; r < p.rows; ++r) {
    const std::int64_t t = r / p.heads, h = r % p.heads;
    p.lse_out[p.lse_offset(t, h)] = out.lse[static_cast<std::size_t>(r)];
    store_as(p.o_type, out.o.data() + r * p.head_dim,
             bytes + static_cast<std::size_t>(p.o_offset(t, h)) * size_of(p.o_type), p.head_dim);
  }
}

}  // namespace osvs
