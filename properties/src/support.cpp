#include "support.h"

#include <cstring>
#include <string_view>

#include "osvs/kernels/exp.h"

namespace osvs::props {

std::string hex(State s) {
  return "(" + hex(s.m) + ", " + hex(s.d) + ")";
}

std::uint32_t bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

SoftmaxBatch batch_of(const Case& c, const std::vector<std::vector<float>>& rows) {
  SoftmaxBatch b;
  b.kernel = c.kernel;
  b.combine = c.combine;
  b.block = c.block;
  b.rows = static_cast<std::int64_t>(rows.size());
  b.cols = rows.empty() ? 0 : static_cast<std::int64_t>(rows.front().size());
  for (const auto& r : rows) {
    if (static_cast<std::int64_t>(r.size()) != b.cols)
      throw InvalidLaunch("case rows have different lengths (" + std::to_string(r.size()) + " vs " +
                          std::to_string(b.cols) + ")");
    b.x.insert(b.x.end(), r.begin(), r.end());
  }
  return b;
}

double exp_ulp(const Executor& ex) {
  return kexp_max_ulp(ex.is_gpu());
}

Verdict compare_bitwise(const SoftmaxResult& a, const SoftmaxResult& b, std::int64_t cols,
                        const std::string& what, NanBits nan_bits) {
  // Two NaNs match when the comparison is across executors: IEEE 754 leaves the sign and payload
  // of a generated NaN open (x86 gives 0xffc00000, CUDA 0x7fffffff), and the spec asks only for
  // NaN.
  const auto same = [nan_bits](float x, float y) {
    return bits(x) == bits(y) || (nan_bits == NanBits::AnyNan && x != x && y != y);
  };
  const auto same_state = [&](State x, State y) { return same(x.m, y.m) && same(x.d, y.d); };
  if (a.y.size() != b.y.size() || a.row_state.size() != b.row_state.size())
    return Verdict::fail(what + ": result sizes differ");
  for (std::size_t i = 0; i < a.row_state.size(); ++i)
    if (!same_state(a.row_state[i], b.row_state[i]))
      return Verdict::fail(what + ": row " + std::to_string(i) + " state " + hex(a.row_state[i]) +
                               " vs " + hex(b.row_state[i]),
                           {{"state d", a.row_state[i].d, b.row_state[i].d, 0, 0}});
  for (std::size_t k = 0; k < a.y.size(); ++k)
    if (!same(a.y[k], b.y[k])) {
      const auto row = cols ? static_cast<std::int64_t>(k) / cols : 0;
      const auto col = cols ? static_cast<std::int64_t>(k) % cols : 0;
      return Verdict::fail(what + ": y[" + std::to_string(row) + "][" + std::to_string(col) +
                               "] = " + hex(a.y[k]) + " vs " + hex(b.y[k]),
                           {{"y", a.y[k], b.y[k], 0, 0}});
    }
  return Verdict::pass();
}

bool is_cpu_model(const Executor& ex) {
  return std::string_view(ex.name()) == "cpu";
}

Verdict needs_second_party(const std::string& law) {
  return Verdict::not_run(law +
                          " needs a second party: on the CPU model it would compare the model "
                          "with itself, which holds by construction");
}

}  // namespace osvs::props
