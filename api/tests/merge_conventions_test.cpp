// A merge kernel of the kind a fast-math engine ships: its NaNs are 0x7fffffff, the o of an empty
// result is garbage, and, its real defect, a partial whose lse is +inf (an overflow) is dropped
// as if it were empty instead of making the row NaN. Judged on the canonical conventions, the
// NaN bits are reported first and hide the dropped partial; declared (value_conventions), the
// dropped partial is the finding, with a small case, and the laws it keeps hold.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "law_run.h"
#include "osvs/api/kind.h"
#include "osvs/api/merge_host_io.h"
#include "osvs/kernels/attention/merge_model.h"

namespace osvs::test {
namespace {

void fast_math_merge(const MergeProblem& p) {
  AttnStates a = operand_a(p), b = operand_b(p);
  for (AttnStates* s : {&a, &b})
    for (float& lse : s->lse)
      if (lse == INFINITY) lse = -INFINITY;  // the defect: an overflowed partial read as empty
  AttnStates out = merge_states_model(a, b, p.base);
  const float engine_nan = std::bit_cast<float>(0x7fffffffu);
  for (std::int64_t r = 0; r < out.rows; ++r) {
    const bool empty = out.lse[static_cast<std::size_t>(r)] == -INFINITY;
    for (int c = 0; c < out.head_dim; ++c) {
      float& o = out.o[static_cast<std::size_t>(r * out.head_dim + c)];
      if (empty) o = engine_nan;  // garbage in an empty result's o
      if (std::isnan(o)) o = engine_nan;
    }
    float& lse = out.lse[static_cast<std::size_t>(r)];
    if (std::isnan(lse)) lse = engine_nan;
  }
  store_result(p, out);
}

MergeKernel fast_math_kernel(bool declared) {
  MergeKernel k("test.fast_math_merge", Where::Host);
  k.run(fast_math_merge);
  if (declared) k.value_conventions({.any_nan_bits = true, .empty_o_unspecified = true});
  return k;
}

testbed::RcParams fixed_seed() {
  rc::detail::TestParams p;
  p.seed = 20261201;
  return p;
}

testbed::LawRun<MergeCase> run(const MergeKernel& k, const std::string& law, int max_findings = 1) {
  return testbed::run_law<MergeKind>(
      *MergeKind::find_law(law), k, 20, [](const Verdict&, const MergeCase&) {}, fixed_seed(),
      max_findings);
}

TEST(MergeConventions, UndeclaredNanBitsHideTheDroppedPartial) {
  const auto r = run(fast_math_kernel(false), "special_values");
  ASSERT_TRUE(r.failed());
  const std::string& why = r.smallest_verdict.explanation;
  EXPECT_NE(why.find("0x7fffffff"), std::string::npos) << why;
  EXPECT_NE(why.find("expected the canonical NaN"), std::string::npos) << why;
  // The identity law trips over the garbage o of the empty result as well.
  EXPECT_TRUE(run(fast_math_kernel(false), "identity").failed());
}

/// Undeclared, the same run reports every distinct failure, each shrunk on its own: the NaN bits
/// of the NaN-lse row and, as a finding of its own, the dropped +inf partial.
TEST(MergeConventions, EveryDistinctFailureIsReportedInOneRun) {
  const auto r = run(fast_math_kernel(false), "special_values", 4);
  ASSERT_TRUE(r.failed());
  std::vector<std::pair<std::string, std::string>> found = {
      {r.smallest_verdict.failure_kind(), r.smallest_verdict.explanation}};
  // Each class shrunk on its own to the rows it needs: the law's NaN lse is in row 0, its +inf
  // lse in row 1, so no finding needs more than two rows.
  for (const auto& other : r.other_findings) {
    found.emplace_back(other.kind, other.verdict.explanation);
    EXPECT_LE(other.smallest.parts[0].rows, 2) << MergeKind::summary(other.smallest);
  }
  std::string kinds;
  for (const auto& [kind, why] : found) kinds += "[" + kind + "] " + why + "\n";
  const auto has = [&](const std::string& kind) {
    for (const auto& f : found)
      if (f.first == kind) return true;
    return false;
  };
  EXPECT_TRUE(has("lse: a NaN lse, NaN bits")) << kinds;
  EXPECT_TRUE(has("lse: a +inf lse, not NaN")) << kinds;
  // --osvs-first-failure: the first alone.
  EXPECT_TRUE(run(fast_math_kernel(false), "special_values", 1).other_findings.empty());
}

TEST(MergeConventions, DeclaredConventionsShowTheDroppedPartialAsTheFinding) {
  const MergeKernel k = fast_math_kernel(true);
  const auto r = run(k, "special_values");
  ASSERT_TRUE(r.failed());
  const std::string& why = r.smallest_verdict.explanation;
  // Row 1 of the law's case carries the +inf lse: the row came back as the other partial.
  EXPECT_NE(why.find("with a +inf lse: lse of row 1"), std::string::npos) << why;
  EXPECT_EQ(why.find("lse of row 0"), std::string::npos) << why;  // the NaN row holds now
  // Shrunk to the smallest case that shows it: the law puts a +inf lse in row r % 3 == 1, so two
  // rows (row 0, the NaN row, holds now), and head_dim 1 (the failure is in the lse alone).
  EXPECT_EQ(r.smallest->parts[0].rows, 2) << MergeKind::summary(*r.smallest);
  EXPECT_EQ(r.smallest->parts[0].head_dim, 1) << MergeKind::summary(*r.smallest);
  for (const char* holds : {"identity", "commutativity"}) {
    const auto h = run(k, holds);
    EXPECT_FALSE(h.failed()) << holds << ": " << h.smallest_verdict.explanation;
    EXPECT_GT(h.judged, 0) << holds;
  }
}

}  // namespace
}  // namespace osvs::test
