#include "osvs/api/merge_laws.h"

#include <algorithm>
#include <cmath>

#include "merge_large_law.h"
#include "osvs/api/kind.h"
#include "osvs/api/law_names.h"
#include "osvs/api/merge_runner.h"

namespace osvs {
namespace {

/// Every lse equal to `from` replaced by `to` (the empty representations).
AttnStates with_empty_as(AttnStates s, float from, float to) {
  for (float& lse : s.lse)
    if (lse == from) lse = to;
  return s;
}

/// The properties' merge law `Check` on a registered kernel.
template <Verdict (*Check)(const MergeCase&, const MergeUnderTest&)>
Verdict on_kernel(const MergeKernel& k, const MergeCase& c) {
  const MergeCase fitted = fit_to(k, c);
  return Check(fitted, merge_under_test(k, fitted.shape));
}

/// The head_dim of `s` made d: component c of each row is component c % head_dim of the old
/// row, so the values (a NaN, a -0) a case carries stay in it.
AttnStates with_head_dim(AttnStates s, int d) {
  std::vector<float> o(static_cast<std::size_t>(s.rows * d));
  for (std::int64_t r = 0; r < s.rows; ++r)
    for (int c = 0; c < d; ++c)
      o[static_cast<std::size_t>(r * d + c)] =
          s.o[static_cast<std::size_t>(r * s.head_dim + c % s.head_dim)];
  s.head_dim = d;
  s.o = std::move(o);
  return s;
}

/// The head_dim k takes nearest d: the largest not above it, else the smallest.
int nearest_head_dim(const MergeKernel& k, int d) {
  const std::vector<int> dims = k.supported_head_dims();
  int best = dims.front();
  for (int x : dims)
    if (x <= d) best = x;
  return best;
}

std::string nothing_excluded(const MergeKernel&) {
  return "";
}

/// special_values asks about a +inf lse, which a PosInfLse kernel reads as an empty partial.
std::string excluded_for_pos_inf_empty(const MergeKernel& k) {
  if (k.empty_partial() != EmptyPartial::PosInfLse) return "";
  return k.name() +
         " represents an empty partial as lse +inf: a +inf lse cannot be asked about as a value";
}

}  // namespace

const std::vector<MergeLaw>& merge_laws() {
  static const std::vector<MergeLaw> laws = laws_named<MergeLaw>(
      {
          {"commutativity", "merge(a, b) and merge(b, a) have the same bits",
           on_kernel<check_merge_commutativity>, nothing_excluded},
          {"identity",
           "an empty partial (whatever its o holds) merges away bitwise, on either side; two empty "
           "ones give (-inf, +0)",
           on_kernel<check_merge_identity>, nothing_excluded},
          {"special_values",
           "a NaN or +inf lse gives the canonical NaN row; a NaN in one o component stays there",
           on_kernel<check_merge_special_values>, excluded_for_pos_inf_empty},
          {"accuracy", "one merge is within the derived merge bound of the exact merge",
           on_kernel<check_merge_accuracy>, nothing_excluded},
          {"associativity", "(a + b) + c and a + (b + c) are within their trees' derived bounds",
           on_kernel<check_merge_associativity>, nothing_excluded},
          {"tree_invariance", "any merge tree of 3 to 6 partials is within its derived bound",
           on_kernel<check_merge_tree_invariance>, nothing_excluded},
          {"large_batch",
           "one merge of o past 2^32 elements: the rows around elements 2^31 and 2^32 and the "
           "last row within the derived merge bound (opt-in: " +
               std::string(api::kLargeLawsVariable) + "=1)",
           &api::check_large_merge, &api::large_merge_excluded, true},
      },
      kMergeLawNames, "merge_laws()");
  return laws;
}

const MergeLaw* find_merge_law(const std::string& name) {
  return find_named(merge_laws(), name);
}

MergeUnderTest merge_under_test(const MergeKernel& k, const MergeShape& shape) {
  const bool pos_inf = k.empty_partial() == EmptyPartial::PosInfLse;
  return MergeUnderTest{
      k.name(),
      [&k, pos_inf, shape](const AttnStates& a, const AttnStates& b, LseBase base) {
        if (!pos_inf) return run_merge_kernel(k, a, b, base, shape);
        return with_empty_as(run_merge_kernel(k, with_empty_as(a, -INFINITY, INFINITY),
                                              with_empty_as(b, -INFINITY, INFINITY), base, shape),
                             INFINITY, -INFINITY);
      },
      k.where() == Where::Device, k.value_conventions()};
}

MergeCase fit_to(const MergeKernel& k, MergeCase c) {
  const auto& bases = k.lse_bases();
  if (std::find(bases.begin(), bases.end(), c.base) == bases.end()) c.base = bases.front();
  const auto& types = k.o_types();
  for (AttnStates& p : c.parts) {
    if (!k.takes_head_dim(p.head_dim))
      p = with_head_dim(std::move(p), nearest_head_dim(k, p.head_dim));
    if (std::find(types.begin(), types.end(), p.o_type) != types.end()) continue;
    p.o_type = types.front();
    for (float& o : p.o) o = round_to(p.o_type, o);
  }
  const std::int64_t rows = c.parts.empty() ? 1 : c.parts.front().rows;
  if (c.shape.heads < 1 || rows % c.shape.heads != 0) c.shape.heads = 1;
  if (!k.o_strided()) c.shape.head_pad = c.shape.token_pad = 0;
  return c;
}

}  // namespace osvs
