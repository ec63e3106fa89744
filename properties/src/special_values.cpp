// The spec's special rows (docs/semantics.md §3) with each kernel's documented choices.
#include <cmath>
#include <limits>

#include "osvs/kernels/documented.h"
#include "osvs/oracle/matcher.h"
#include "osvs/properties/checks.h"
#include "row_oracle.h"
#include "support.h"

namespace osvs {
namespace {

Verdict all_outputs_are(const float* y, std::int64_t n, float expected, const char* rule) {
  for (std::int64_t j = 0; j < n; ++j) {
    const bool ok =
        std::isnan(expected) ? std::isnan(y[j]) : props::bits(y[j]) == props::bits(expected);
    if (!ok)
      return Verdict::fail(std::string(rule) + ": y[" + std::to_string(j) +
                               "] = " + props::hex(y[j]) + ", expected " + props::hex(expected),
                           {{"y[" + std::to_string(j) + "]", y[j], expected, 0, 0}});
  }
  return Verdict::pass();
}

}  // namespace

Verdict check_special_values(const Case& c, Executor& ex) {
  const SoftmaxBatch b = props::batch_of(c, c.rows);
  const SoftmaxResult r = ex.softmax(b);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (std::int64_t i = 0; i < b.rows; ++i) {
    const auto& row = c.rows[static_cast<std::size_t>(i)];
    const float* y = props::row_out(r, b.cols, i);
    const props::RowOracle o = props::row_oracle(c, row, props::exp_ulp(ex));
    Verdict v;
    switch (o.ref.kind) {
      case oracle::RowKind::NaN:
        v = all_outputs_are(y, b.cols, nan, "NaN in the row");
        break;
      case oracle::RowKind::PosInf:
        v = all_outputs_are(y, b.cols, nan, "+inf in the row");
        break;
      case oracle::RowKind::AllMasked:
        v = all_outputs_are(y, b.cols, documented_masked_output(c.kernel, c.combine),
                            "fully masked row");
        break;
      case oracle::RowKind::Empty:
        if (!bitwise_equal(r.row_state[static_cast<std::size_t>(i)],
                           documented_empty_state(c.kernel, c.combine)))
          v = Verdict::fail("N = 0: state " + props::hex(r.row_state[static_cast<std::size_t>(i)]) +
                            ", expected " +
                            props::hex(documented_empty_state(c.kernel, c.combine)));
        break;
      case oracle::RowKind::Finite: {
        const oracle::MatchResult m =
            oracle::match_softmax(row.data(), b.cols, y, o.ref, o.bound.y_ulp);
        if (!m.ok) v = Verdict::fail(m.explanation);
        break;
      }
    }
    if (!v.holds()) {
      v.explanation =
          "row " + std::to_string(i) + " (" + oracle::to_string(o.ref.kind) + "): " + v.explanation;
      return v;
    }
  }
  if (b.cols == 0 && !r.y.empty()) return Verdict::fail("N = 0 but the kernel wrote outputs");
  return Verdict::pass();
}

}  // namespace osvs
