#include "large_batch_law.h"

#include <algorithm>

#include "osvs/api/row_judge.h"
#include "osvs/kernels/dtype.h"
#include "osvs/kernels/stable_hash.h"

namespace osvs::api {
namespace {

constexpr std::int64_t kRowLength = 4099;

}  // namespace

std::string large_batch_excluded(const RowKernel& k) {
  return large_law_excluded("M * N >= 2^31: 8.6 GB of input and about 35 GB of host memory for " +
                            k.name());
}

RowCase large_batch_case(const RowKernel& k) {
  const std::int64_t n = std::min(kRowLength, k.traits().max_cols);
  const std::uint64_t seed = fnv1a64("large_batch/" + k.name());
  std::vector<float> row(static_cast<std::size_t>(n));
  for (std::size_t j = 0; j < row.size(); ++j) {  // uniform in [-8, 8), exact in the input type
    const double u = static_cast<double>(splitmix64_mix(seed + j) >> 11) * 0x1p-53;
    row[j] = round_to(k.in_type(), static_cast<float>(-8 + 16 * u));
  }
  return RowCase::of({row});
}

Verdict check_large_batch(const RowKernel& k, const RowCase& c) {
  const std::vector<float>& subject = c.rows.at(0);
  const auto n = static_cast<std::int64_t>(subject.size());
  if (n == 0) return Verdict::vacuous("an empty row cannot reach 2^31 elements");
  const std::int64_t target = int32_wrap_elements();
  const std::int64_t m = (target + n - 1) / n + 1;
  Rows rows(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < m; ++i) {
    auto& row = rows[static_cast<std::size_t>(i)];
    row.resize(static_cast<std::size_t>(n));
    std::rotate_copy(subject.begin(), subject.begin() + i % n, subject.end(), row.begin());
  }
  RowOutputs out;
  try {
    out = run_row_kernel(k, rows, c.layout);
  } catch (const KernelFailure& e) {
    throw KernelFailure(with_likely_cause(e.what(), m * n));
  }
  Verdict all;
  for (const std::int64_t i : rows_around({target}, n, m)) {
    const std::string where = judged_row_name(i, m, n, "N");
    Verdict v =
        judge_row(k, rows[static_cast<std::size_t>(i)].data(), n, out.row(i), where).verdict;
    if (!v.holds() && v.judged()) return v;
    all.evidence.insert(all.evidence.end(), v.evidence.begin(), v.evidence.end());
  }
  return all;
}

}  // namespace osvs::api
