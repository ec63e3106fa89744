// The split-KV decode laws (attention_laws.h): accuracy of the result and of every partial
// against the exact attention within the derived bounds, invariance under the split plan and
// under a permutation of the KV pairs (both within the bounds), masking and special values
// (bitwise), and agreement of two executors (bitwise, portable build).
#include <algorithm>
#include <bit>
#include <cmath>

#include "attention_judge.h"
#include "osvs/kernels/hex.h"
#include "osvs/properties/attention/attention_laws.h"

namespace osvs {
namespace {

using attention_judge::Findings;

/// Judges r.out (and, with `partials`, every partial) of every row against the exact attention.
/// Returns the number of rows judged (rows outside the bounds' domain are skipped).
int judge_decode(const DecodeProblem& p, const SplitPlan& plan, const DecodeResult& r, bool gpu,
                 bool partials, const std::string& what, Findings& f) {
  int judged = 0;
  for (std::int64_t row = 0; row < p.rows(); ++row) {
    if (!oracle::in_bound_domain(p, row)) continue;
    ++judged;
    const oracle::AttentionReference ref = attention_judge::reference_of(p, row, 0, p.kv_len);
    if (ref.outcome == oracle::AttnOutcome::Empty) {
      attention_judge::expect_empty_row(r.out, row, what + ", fully masked", f);
    } else {
      attention_judge::expect_within(r.out, row, ref.lse, ref.o, ref.magnitude,
                                     oracle::decode_bound(p, plan, row, gpu), what, f);
    }
    if (!partials) continue;
    const oracle::AttnBoundContext ctx = oracle::decode_context(p, row, gpu);
    for (int s = 0; s < plan.splits(); ++s) {
      const std::int64_t begin = plan.offsets[static_cast<std::size_t>(s)];
      const std::int64_t end = plan.offsets[static_cast<std::size_t>(s) + 1];
      const AttnStates& part = r.partials[static_cast<std::size_t>(s)];
      const std::string name = what + ", partial of split " + std::to_string(s) + " [" +
                               std::to_string(begin) + ", " + std::to_string(end) + ")";
      const oracle::AttentionReference exact = attention_judge::reference_of(p, row, begin, end);
      if (exact.outcome == oracle::AttnOutcome::Empty)
        attention_judge::expect_empty_row(part, row, name, f);
      else
        attention_judge::expect_within(
            part, row, exact.lse, exact.o, exact.magnitude,
            oracle::split_bound(oracle::split_keys(p, row, begin, end), ctx), name, f);
    }
  }
  return judged;
}

Verdict finish(const Findings& f, int judged, const std::string& law, const DecodeCase& c) {
  if (judged == 0 && !f.failed())
    return Verdict::vacuous("no row inside the bounds' domain (" +
                            attention_judge::describe(c.problem, c.plan) + ")");
  Verdict v = f.verdict(law);
  if (v.fails()) v.explanation += " (" + attention_judge::describe(c.problem, c.plan) + ")";
  return v;
}

/// p with its keys permuted by `perm` in every row (k, v and mask move together).
DecodeProblem permuted(const DecodeProblem& p, const std::vector<std::int64_t>& perm) {
  DecodeProblem q = p;
  const auto dim = static_cast<std::size_t>(p.head_dim);
  for (std::int64_t row = 0; row < p.rows(); ++row)
    for (std::int64_t j = 0; j < p.kv_len; ++j) {
      const auto to = static_cast<std::size_t>(row * p.kv_len + j) * dim;
      const auto from =
          static_cast<std::size_t>(row * p.kv_len + perm[static_cast<std::size_t>(j)]) * dim;
      std::copy_n(p.k.begin() + static_cast<std::ptrdiff_t>(from), dim,
                  q.k.begin() + static_cast<std::ptrdiff_t>(to));
      std::copy_n(p.v.begin() + static_cast<std::ptrdiff_t>(from), dim,
                  q.v.begin() + static_cast<std::ptrdiff_t>(to));
    }
  if (!p.masked.empty())
    for (int b = 0; b < p.batch; ++b)
      for (std::int64_t j = 0; j < p.kv_len; ++j)
        q.masked[static_cast<std::size_t>(b * p.kv_len + j)] =
            p.masked[static_cast<std::size_t>(b * p.kv_len + perm[static_cast<std::size_t>(j)])];
  return q;
}

/// Overwrites k and v of every masked key with `fill(i)`.
template <class Fill>
void fill_masked(DecodeProblem& p, Fill fill) {
  const auto dim = static_cast<std::size_t>(p.head_dim);
  for (std::int64_t row = 0; row < p.rows(); ++row)
    for (std::int64_t j = 0; j < p.kv_len; ++j) {
      if (!p.is_masked(static_cast<int>(row / p.heads), j)) continue;
      const auto first = static_cast<std::size_t>(row * p.kv_len + j) * dim;
      for (std::size_t c = 0; c < dim; ++c) {
        p.k[first + c] = fill(first + c);
        p.v[first + c] = fill(first + c + 1);
      }
    }
}

void expect_bitwise_result(const DecodeResult& x, const DecodeResult& y, const std::string& what,
                           Findings& f) {
  for (std::size_t s = 0; s < x.partials.size(); ++s)
    attention_judge::expect_bitwise(x.partials[s], y.partials[s],
                                    what + ", partial " + std::to_string(s), f);
  attention_judge::expect_bitwise(x.out, y.out, what, f);
}

/// The first unmasked key of query row `row`, or -1.
std::int64_t first_unmasked(const DecodeProblem& p, std::int64_t row) {
  for (std::int64_t j = 0; j < p.kv_len; ++j)
    if (!p.is_masked(static_cast<int>(row / p.heads), j)) return j;
  return -1;
}

}  // namespace

DecodeUnderTest decode_under_test(AttentionExecutor& executor) {
  return DecodeUnderTest{std::string(executor.name()) + " split_decode",
                         [&executor](const DecodeProblem& p, const SplitPlan& plan) {
                           return executor.split_decode(p, plan);
                         },
                         executor.is_gpu()};
}

Verdict check_decode_accuracy(const DecodeCase& c, const DecodeUnderTest& d) {
  Findings f;
  const int judged =
      judge_decode(c.problem, c.plan, d.decode(c.problem, c.plan), d.gpu, true, "decode", f);
  return finish(f, judged, "decode_accuracy", c);
}

Verdict check_decode_partition_invariance(const DecodeCase& c, const DecodeUnderTest& d) {
  Findings f;
  const DecodeResult a = d.decode(c.problem, c.plan), b = d.decode(c.problem, c.other_plan);
  const int judged = judge_decode(c.problem, c.plan, a, d.gpu, false, "first plan", f);
  judge_decode(c.problem, c.other_plan, b, d.gpu, false, "second plan", f);
  Verdict v = finish(f, judged, "decode_partition_invariance", c);
  bool differ = false;
  for (std::size_t i = 0; i < a.out.o.size(); ++i)
    differ = differ || float_bits(a.out.o[i]) != float_bits(b.out.o[i]);
  v.evidence.push_back(Evidence{"plans' results differ bitwise", differ ? 1.0 : 0.0, 0, 0, 0});
  return v;
}

Verdict check_decode_permutation(const DecodeCase& c, const DecodeUnderTest& d) {
  Findings f;
  const DecodeProblem p = permuted(c.problem, c.key_permutation);
  // The exact attention does not depend on the order of the keys: the permuted problem is judged
  // against its own oracle, which equals the original's.
  const int judged = judge_decode(p, c.plan, d.decode(p, c.plan), d.gpu, false, "permuted keys", f);
  judge_decode(c.problem, c.plan, d.decode(c.problem, c.plan), d.gpu, false, "original keys", f);
  return finish(f, judged, "decode_permutation", c);
}

Verdict check_decode_masking(const DecodeCase& c, const DecodeUnderTest& d) {
  // Every third key is masked in addition to the case's own; masked keys must never be read:
  // garbage (NaN, inf, huge) in their k and v gives the same bits as zeros there. Then every key
  // masked: every partial and the result are the empty result (-inf, +0), never NaN.
  DecodeProblem zeros = c.problem;
  if (zeros.masked.empty())
    zeros.masked.assign(static_cast<std::size_t>(zeros.batch * zeros.kv_len), 0);
  for (int b = 0; b < zeros.batch; ++b)
    for (std::int64_t j = 1; j < zeros.kv_len; j += 3)
      zeros.masked[static_cast<std::size_t>(b * zeros.kv_len + j)] = 1;
  DecodeProblem garbage = zeros;
  fill_masked(zeros, [](std::size_t) { return 0.0f; });
  const float junk[] = {NAN, INFINITY, -INFINITY, 0x1p127f, std::bit_cast<float>(0xffc00badu)};
  fill_masked(garbage, [&](std::size_t i) { return junk[i % std::size(junk)]; });
  Findings f;
  expect_bitwise_result(d.decode(garbage, c.plan), d.decode(zeros, c.plan),
                        "garbage in masked keys vs zeros", f);
  DecodeProblem all = garbage;
  std::fill(all.masked.begin(), all.masked.end(), std::uint8_t{1});
  const DecodeResult empty = d.decode(all, c.plan);
  for (std::int64_t row = 0; row < all.rows(); ++row) {
    attention_judge::expect_empty_row(empty.out, row, "fully masked query", f);
    for (std::size_t s = 0; s < empty.partials.size(); ++s)
      attention_judge::expect_empty_row(empty.partials[s], row,
                                        "fully masked query, partial " + std::to_string(s), f);
  }
  return f.verdict("decode_masking");
}

Verdict check_decode_special_values(const DecodeCase& c, const DecodeUnderTest& d) {
  // Query row r, by r % 4: 0 a NaN in q; 1 a NaN in v[.][0] of its first unmasked key; 2 +inf
  // there; 3 q and that key's k all 2^100, whose dot overflows to a +inf score. Conventions
  // (docs/semantics.md §8): a NaN or +inf score makes the row the canonical NaN row; a NaN in an
  // unmasked v makes that component the canonical NaN and nothing else; an inf there makes it
  // non-finite (inf, or NaN where its weight underflows to 0); a row with no unmasked key is the
  // empty result whatever it holds.
  DecodeProblem p = c.problem;
  const auto dim = static_cast<std::size_t>(p.head_dim);
  for (std::int64_t row = 0; row < p.rows(); ++row) {
    const std::int64_t j = first_unmasked(p, row);
    const auto q_first = static_cast<std::size_t>(row) * dim;
    const auto key = static_cast<std::size_t>(row * p.kv_len + std::max<std::int64_t>(j, 0)) * dim;
    switch (row % 4) {
      case 0:
        p.q[q_first] = std::bit_cast<float>(0x7f800001u);
        break;
      case 1:
        if (j >= 0) p.v[key] = std::bit_cast<float>(0xffc00042u);
        break;
      case 2:
        if (j >= 0) p.v[key] = INFINITY;
        break;
      default:
        if (j < 0) break;
        std::fill_n(p.q.begin() + static_cast<std::ptrdiff_t>(q_first), dim, 0x1p100f);
        std::fill_n(p.k.begin() + static_cast<std::ptrdiff_t>(key), dim, 0x1p100f);
    }
  }
  if (p.scale <= 0) return Verdict::vacuous("a non-positive scale turns the overflow into -inf");
  const DecodeResult r = d.decode(p, c.plan);
  Findings f;
  for (std::int64_t row = 0; row < p.rows(); ++row) {
    if (first_unmasked(p, row) < 0) {
      attention_judge::expect_empty_row(r.out, row, "no unmasked key", f);
      continue;
    }
    const auto first = static_cast<std::size_t>(row) * dim;
    const float lse = r.out.lse[static_cast<std::size_t>(row)];
    switch (row % 4) {
      case 0:
        attention_judge::expect_nan_row(r.out, row, "a NaN in q", f);
        break;
      case 3:
        attention_judge::expect_nan_row(r.out, row, "a +inf score", f);
        break;
      default: {
        const bool nan_case = row % 4 == 1;
        const float o0 = r.out.o[first];
        if (nan_case ? float_bits(o0) != float_bits(canonical_nan()) : std::isfinite(o0))
          f.fail(std::string(nan_case ? "a NaN" : "an inf") + " in v[.][0] of row " +
                     std::to_string(row) + " gave o[0] = " + hex(o0),
                 Evidence{"o[0]", o0, nan_case ? NAN : INFINITY, 0, 0});
        if (std::isnan(lse))
          f.fail("a non-finite v made the lse of row " + std::to_string(row) + " NaN",
                 Evidence{"lse", lse, 0, 0, 0});
        for (std::size_t k = 1; k < dim; ++k)
          if (std::isnan(r.out.o[first + k]))
            f.fail("a non-finite v[.][0] spread to o[" + std::to_string(k) + "] of row " +
                       std::to_string(row),
                   Evidence{"o[" + std::to_string(k) + "]", NAN, 0, 0, 0});
      }
    }
  }
  return f.verdict("decode_special_values");
}

Verdict check_decode_agreement(const DecodeCase& c, const DecodeUnderTest& a,
                               const DecodeUnderTest& b) {
  if (!kPortableExp)
    return Verdict::not_run(
        "the default build's device and host exp / log differ; the portable build "
        "(OSVS_PORTABLE_EXP=ON) promises equal bits");
  Findings f;
  expect_bitwise_result(a.decode(c.problem, c.plan), b.decode(c.problem, c.plan),
                        a.name + " vs " + b.name, f);
  return f.verdict("decode_agreement");
}

}  // namespace osvs
