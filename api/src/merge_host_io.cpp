#include "osvs/api/merge_host_io.h"

#include <algorithm>

namespace osvs {
namespace {

AttnStates operand(const MergeProblem& p, const void* o, const float* lse) {
  const std::int64_t n = p.rows * p.head_dim;
  AttnStates s{p.rows, p.head_dim, p.o_type, std::vector<float>(lse, lse + p.rows),
               std::vector<float>(static_cast<std::size_t>(n))};
  load_from(p.o_type, o, s.o.data(), n);
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
  std::copy(out.lse.begin(), out.lse.end(), p.lse_out);
  store_as(p.o_type, out.o.data(), p.o_out_ptr, static_cast<std::int64_t>(out.o.size()));
}

}  // namespace osvs
