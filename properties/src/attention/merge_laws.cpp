// The merge laws (attention_laws.h). The merge under test is a black box; the exact laws compare
// bits, the bounded ones compare with the exact merge (oracle/attention_reference.h) within the
// derived merge bound (oracle/attention_bounds.h, docs/semantics.md §8).
#include <algorithm>
#include <bit>
#include <cmath>

#include "attention_judge.h"
#include "osvs/kernels/hex.h"
#include "osvs/kernels/merge_trees.h"
#include "osvs/properties/attention/attention_laws.h"

namespace osvs {
namespace {

using attention_judge::Findings;

/// Row r of `s` as its own single-row states.
AttnStates row_of(const AttnStates& s, std::int64_t r) {
  AttnStates x{1, s.head_dim, s.o_type, {s.lse[static_cast<std::size_t>(r)]}, {}};
  const auto first = s.o.begin() + static_cast<std::ptrdiff_t>(r * s.head_dim);
  x.o.assign(first, first + s.head_dim);
  return x;
}

/// Every lse finite or -inf and every o of a non-empty row finite and at most half the type's
/// largest value: the domain of the bounded laws.
bool in_domain(const MergeCase& c) {
  for (const AttnStates& p : c.parts)
    for (std::int64_t r = 0; r < p.rows; ++r) {
      const float lse = p.lse[static_cast<std::size_t>(r)];
      if (std::isnan(lse) || lse == INFINITY) return false;
      if (lse == -INFINITY) continue;
      for (int k = 0; k < p.head_dim; ++k) {
        const float o = p.o[static_cast<std::size_t>(r * p.head_dim + k)];
        if (!(std::fabs(o) <= max_finite_of(p.o_type) / 2)) return false;
      }
    }
  return true;
}

/// Merges parts[slot] along `merges` (dst = merge(dst, src)) into slot 0.
AttnStates merge_along(const MergeCase& c, const std::vector<Merge>& merges,
                       const MergeUnderTest& m) {
  std::vector<AttnStates> slots = c.parts;
  for (const Merge& e : merges)
    slots[static_cast<std::size_t>(e.dst)] = m.merge(
        slots[static_cast<std::size_t>(e.dst)], slots[static_cast<std::size_t>(e.src)], c.base);
  return slots[0];
}

/// Compares every row of `got` (the parts merged along `merges`) with their exact merge.
void judge_tree(const MergeCase& c, const std::vector<Merge>& merges, const AttnStates& got,
                const MergeUnderTest& m, const std::string& what, Findings& f) {
  const AttnStates& first = c.parts[0];
  for (std::int64_t r = 0; r < first.rows; ++r) {
    std::vector<float> lse;
    std::vector<std::vector<float>> o;
    oracle::AttnBoundContext ctx{first.head_dim, c.base, first.o_type, m.gpu, 0, 0};
    std::vector<oracle::AttnBound> leaves;
    for (const AttnStates& p : c.parts) {
      const AttnStates row = row_of(p, r);
      lse.push_back(row.lse[0]);
      o.push_back(row.o);
      oracle::AttnBound leaf;  // an input is exact by definition
      leaf.empty = row.lse[0] == -INFINITY;
      leaves.push_back(leaf);
      if (leaf.empty) continue;
      ctx.lse_magnitude = std::max(ctx.lse_magnitude, std::fabs(double{row.lse[0]}));
      for (float v : row.o) ctx.v_max = std::max(ctx.v_max, std::fabs(double{v}));
    }
    ctx.lse_magnitude += std::log(static_cast<double>(c.parts.size())) + 1;
    const oracle::MergeReference exact = oracle::merge_reference(lse, o, first.head_dim, c.base);
    if (exact.outcome == oracle::AttnOutcome::Empty) {
      attention_judge::expect_empty_row(got, r, what, f);
      continue;
    }
    const oracle::AttnBound bound = oracle::tree_bound(leaves, merges, ctx);
    attention_judge::expect_within(got, r, exact.lse, exact.o, exact.magnitude, bound, what, f);
  }
}

std::vector<Merge> tree_from(const std::vector<std::int64_t>& choices, int slots) {
  std::size_t next = 0;
  return random_tree(slots, [&](std::int64_t k) {
    const std::int64_t raw = next < choices.size() ? choices[next++] : 0;
    return ((raw % k) + k) % k;
  });
}

}  // namespace

MergeUnderTest merge_under_test(AttentionExecutor& executor) {
  return MergeUnderTest{std::string(executor.name()) + " merge_states",
                        [&executor](const AttnStates& a, const AttnStates& b, LseBase base) {
                          return executor.merge_states(a, b, base);
                        },
                        executor.is_gpu(), ValueConventions{}};
}

Verdict check_merge_commutativity(const MergeCase& c, const MergeUnderTest& m) {
  Findings f{m.conventions};
  attention_judge::expect_bitwise(m.merge(c.parts[0], c.parts[1], c.base),
                                  m.merge(c.parts[1], c.parts[0], c.base),
                                  "merge(a, b) vs merge(b, a)", f);
  return f.verdict("merge_commutativity");
}

Verdict check_merge_identity(const MergeCase& c, const MergeUnderTest& m) {
  // An all-empty operand whose o holds garbage (the convention: an empty partial's o is never
  // read): part 1's o with every lse -inf.
  const AttnStates& a = c.parts[0];
  AttnStates empty = c.parts[1];
  std::fill(empty.lse.begin(), empty.lse.end(), -INFINITY);
  for (std::size_t i = 0; i < empty.o.size(); i += 3) empty.o[i] = NAN;
  Findings f{m.conventions};
  const AttnStates left = m.merge(empty, a, c.base), right = m.merge(a, empty, c.base);
  const AttnStates both = m.merge(empty, empty, c.base);
  for (std::int64_t r = 0; r < a.rows; ++r) {
    if (a.lse[static_cast<std::size_t>(r)] == -INFINITY) {  // empty (+) empty
      attention_judge::expect_empty_row(left, r, "merge(empty, empty row of a)", f);
      attention_judge::expect_empty_row(right, r, "merge(empty row of a, empty)", f);
    } else {
      attention_judge::expect_bitwise_row(left, r, a, r, "merge(empty, a) vs a", f);
      attention_judge::expect_bitwise_row(right, r, a, r, "merge(a, empty) vs a", f);
    }
    attention_judge::expect_empty_row(both, r, "merge(empty, empty)", f);
  }
  return f.verdict("merge_identity");
}

Verdict check_merge_special_values(const MergeCase& c, const MergeUnderTest& m) {
  // Row r % 3 == 0: a NaN lse in a; == 1: +inf lse in b; == 2: a NaN in one o component of a
  // (both operands non-empty there), which must give the canonical NaN in that component only.
  AttnStates a = c.parts[0], b = c.parts[1];
  for (std::int64_t r = 0; r < a.rows; ++r) {
    const auto row = static_cast<std::size_t>(r);
    if (r % 3 == 0) a.lse[row] = std::bit_cast<float>(0x7fa00001u);  // a signalling payload
    if (r % 3 == 1) b.lse[row] = INFINITY;
    if (r % 3 == 2) {
      if (a.lse[row] == -INFINITY) a.lse[row] = 0.0f;
      if (b.lse[row] == -INFINITY) b.lse[row] = 0.0f;
      a.o[row * static_cast<std::size_t>(a.head_dim)] = std::bit_cast<float>(0xffc01234u);
    }
  }
  Findings f{m.conventions};
  for (const bool swap : {false, true}) {
    const AttnStates got = swap ? m.merge(b, a, c.base) : m.merge(a, b, c.base);
    const std::string what = swap ? "merge(b, a)" : "merge(a, b)";
    for (std::int64_t r = 0; r < a.rows; ++r) {
      if (r % 3 != 2) {
        const char* input = r % 3 == 0 ? "a NaN lse" : "a +inf lse";
        attention_judge::expect_nan_row(got, r, what + " with " + input, f, input);
        continue;
      }
      const auto first = static_cast<std::size_t>(r * a.head_dim);
      if (!attention_judge::is_the_nan(got.o[first], f.conventions()))
        f.fail(what + ": a NaN in o[0] of row " + std::to_string(r) +
                   " must give the canonical NaN, got " + readable(got.o[first]),
               Evidence{"o[0]", got.o[first], NAN, 0, 0}, "a NaN in o: not the canonical NaN");
      for (int k = 1; k < a.head_dim; ++k)
        if (std::isnan(got.o[first + static_cast<std::size_t>(k)]))
          f.fail(what + ": a NaN in o[0] spread to o[" + std::to_string(k) + "] of row " +
                     std::to_string(r),
                 Evidence{"o[" + std::to_string(k) + "]", NAN, 0, 0, 0}, "a NaN in o: spread");
      if (std::isnan(got.lse[static_cast<std::size_t>(r)]))
        f.fail(what + ": a NaN in o made the lse of row " + std::to_string(r) + " NaN",
               Evidence{"lse", NAN, 0, 0, 0}, "a NaN in o: lse NaN");
    }
  }
  return f.verdict("merge_special_values");
}

Verdict check_merge_accuracy(const MergeCase& c, const MergeUnderTest& m) {
  if (!in_domain(c))
    return Verdict::vacuous("a NaN / +inf lse or an o beyond half the type's range");
  Findings f{m.conventions};
  MergeCase two = c;
  two.parts.resize(2);
  judge_tree(two, {Merge{0, 1}}, m.merge(c.parts[0], c.parts[1], c.base), m, "merge(a, b)", f);
  return f.verdict("merge_accuracy");
}

Verdict check_merge_associativity(const MergeCase& c, const MergeUnderTest& m) {
  if (c.parts.size() < 3) return Verdict::vacuous("fewer than three partials");
  if (!in_domain(c))
    return Verdict::vacuous("a NaN / +inf lse or an o beyond half the type's range");
  MergeCase three = c;
  three.parts.resize(3);
  const std::vector<Merge> left{{0, 1}, {0, 2}}, right{{1, 2}, {0, 1}};
  Findings f{m.conventions};
  judge_tree(three, left, merge_along(three, left, m), m, "(a + b) + c", f);
  judge_tree(three, right, merge_along(three, right, m), m, "a + (b + c)", f);
  return f.verdict("merge_associativity");
}

Verdict check_merge_tree_invariance(const MergeCase& c, const MergeUnderTest& m) {
  if (!in_domain(c))
    return Verdict::vacuous("a NaN / +inf lse or an o beyond half the type's range");
  const int slots = static_cast<int>(c.parts.size());
  Findings f{m.conventions};
  for (const auto* choices : {&c.tree_choices, &c.other_choices}) {
    const std::vector<Merge> tree = tree_from(*choices, slots);
    judge_tree(c, tree, merge_along(c, tree, m), m, "a random tree of " + std::to_string(slots), f);
  }
  return f.verdict("merge_tree_invariance");
}

}  // namespace osvs
