// The merge laws judge a merge as a black box: merges with the defects engines have shipped
// must be rejected by the law that targets each defect (and a law that can never fail would pass
// them). Each is a host function with the engines' signature, wrapped in a MergeUnderTest.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <string>

#include "osvs/properties/gen/attention.h"

namespace osvs::test {
namespace {

using RowMerge = void (*)(float la, const float* oa, float lb, const float* ob, int dim,
                          LseBase base, float& lse, float* o);

MergeUnderTest host_merge(const char* name, RowMerge row_merge) {
  return MergeUnderTest{name,
                        [row_merge](const AttnStates& a, const AttnStates& b, LseBase base) {
                          AttnStates out = a;
                          for (std::int64_t r = 0; r < a.rows; ++r) {
                            const auto first = static_cast<std::size_t>(r * a.head_dim);
                            row_merge(a.lse[static_cast<std::size_t>(r)], &a.o[first],
                                      b.lse[static_cast<std::size_t>(r)], &b.o[first], a.head_dim,
                                      base, out.lse[static_cast<std::size_t>(r)], &out.o[first]);
                            for (int c = 0; c < a.head_dim; ++c)
                              out.o[first + static_cast<std::size_t>(c)] =
                                  round_to(a.o_type, out.o[first + static_cast<std::size_t>(c)]);
                          }
                          return out;
                        },
                        false, ValueConventions{}};
}

float exp_b(LseBase base, float x) {
  return base == LseBase::E ? std::exp(x) : std::exp2(x);
}

float log_b(LseBase base, float x) {
  return base == LseBase::E ? std::log(x) : std::log2(x);
}

/// The textbook merge: both exps, no guard. Two empty partials give exp(-inf - -inf) = NaN.
void unguarded(float la, const float* oa, float lb, const float* ob, int dim, LseBase base,
               float& lse, float* o) {
  const float top = std::fmax(la, lb);
  const float ea = exp_b(base, la - top), eb = exp_b(base, lb - top), s = ea + eb;
  lse = top + log_b(base, s);
  for (int c = 0; c < dim; ++c) o[c] = oa[c] * (ea / s) + ob[c] * (eb / s);
}

/// Empty partials as documented, but base e whatever the flag says: a base-2 lse is merged as if
/// it were base e.
void base_e_always(float la, const float* oa, float lb, const float* ob, int dim, LseBase,
                   float& lse, float* o) {
  if (la == -INFINITY || lb == -INFINITY) {  // empty partials as documented
    const bool a_empty = la == -INFINITY, both = a_empty && lb == -INFINITY;
    lse = a_empty ? lb : la;
    for (int c = 0; c < dim; ++c) o[c] = both ? 0.0f : (a_empty ? ob[c] : oa[c]);
    return;
  }
  unguarded(la, oa, lb, ob, dim, LseBase::E, lse, o);
}

/// Empty partials as documented, but the fused left product and rounded right one nvcc makes of
/// a*b + c*d: not commutative.
void fused_left(float la, const float* oa, float lb, const float* ob, int dim, LseBase base,
                float& lse, float* o) {
  base_e_always(la, oa, lb, ob, dim, LseBase::E, lse, o);
  if (la == -INFINITY || lb == -INFINITY) return;
  const float top = std::fmax(la, lb);
  const float ea = exp_b(base, la - top), eb = exp_b(base, lb - top), s = ea + eb;
  lse = top + log_b(base, s);
  for (int c = 0; c < dim; ++c) o[c] = std::fma(oa[c], ea / s, ob[c] * (eb / s));
}

/// The law's first counterexample over `cases` generated merge cases (sizes 0 .. cases - 1,
/// fixed seeds), or "" when it holds on all of them.
std::string counterexample(Verdict (*law)(const MergeCase&, const MergeUnderTest&),
                           const MergeUnderTest& m, int cases = 200) {
  for (int i = 0; i < cases; ++i) {
    const MergeCase c = gen::merge_case()(rc::Random(7000 + i), i % 100).value();
    const Verdict v = law(c, m);
    if (v.fails()) return v.explanation;
  }
  return "";
}

TEST(AttentionKnownDefects, UnguardedMergeFailsTheIdentityLaw) {
  const std::string why = counterexample(check_merge_identity, host_merge("unguarded", unguarded));
  EXPECT_NE(why, "");
  std::cout << "[ osvs     ] unguarded merge: " << why.substr(0, 200) << "\n";
}

TEST(AttentionKnownDefects, BaseConfusionFailsTheAccuracyLaw) {
  const std::string why =
      counterexample(check_merge_accuracy, host_merge("base e always", base_e_always));
  EXPECT_NE(why, "");
  std::cout << "[ osvs     ] base e always: " << why.substr(0, 200) << "\n";
}

TEST(AttentionKnownDefects, FusedLeftProductFailsBitwiseCommutativity) {
  const std::string why =
      counterexample(check_merge_commutativity, host_merge("fused left", fused_left));
  EXPECT_NE(why, "");
  std::cout << "[ osvs     ] fused left product: " << why.substr(0, 200) << "\n";
}

TEST(AttentionKnownDefects, TheCpuModelMergePassesTheSameChecks) {
  // The control: the CPU model's merge passes all three on the same cases.
  const std::unique_ptr<AttentionExecutor> cpu = make_cpu_attention_executor();
  const MergeUnderTest m = merge_under_test(*cpu);
  EXPECT_EQ(counterexample(check_merge_identity, m), "");
  EXPECT_EQ(counterexample(check_merge_accuracy, m), "");
  EXPECT_EQ(counterexample(check_merge_commutativity, m), "");
}

}  // namespace
}  // namespace osvs::test
