// Merge kernels' cases for the law runs (kind_cases.h).
#include "kind_cases.h"
#include "merge_large_law.h"
#include "osvs/properties/gen/attention.h"

namespace osvs::testbed {
namespace {

/// c with only row `row` and component `comp` (-1: every component) of each partial.
MergeCase restricted(const MergeCase& c, std::int64_t row, int comp) {
  MergeCase out = c;
  for (AttnStates& p : out.parts) {
    const AttnStates& from = c.parts[static_cast<std::size_t>(&p - out.parts.data())];
    const auto first = static_cast<std::size_t>(row * from.head_dim);
    p.rows = 1;
    out.shape.heads = 1;
    p.lse = {from.lse[static_cast<std::size_t>(row)]};
    if (comp < 0) {
      p.o.assign(from.o.begin() + static_cast<std::ptrdiff_t>(first),
                 from.o.begin() + static_cast<std::ptrdiff_t>(first) + from.head_dim);
    } else {
      p.head_dim = 1;
      p.o = {from.o[first + static_cast<std::size_t>(comp)]};
    }
  }
  return out;
}

}  // namespace

rc::Gen<MergeCase> law_cases(const MergeKernel& k, const MergeLaw& law) {
  if (law.name == "large_batch") return rc::gen::just(api::large_merge_case(k));
  // The head_dims the kernel takes, the vector-width edges among them more often, as
  // gen::attn_head_dim draws them for a kernel that takes any.
  const std::vector<int> dims = k.supported_head_dims();
  if (static_cast<int>(dims.size()) == kAttnMaxHeadDim)
    return rc::gen::map(gen::merge_case(), [&k](MergeCase c) { return fit_to(k, c); });
  std::vector<int> edges;
  for (int d : dims)
    if (d <= 3 || d % 32 <= 1 || d % 32 == 31) edges.push_back(d);
  if (edges.empty()) edges = dims;
  const rc::Gen<int> head_dim =
      rc::gen::weightedOneOf<int>({{3, rc::gen::elementOf(edges)}, {1, rc::gen::elementOf(dims)}});
  return rc::gen::map(gen::merge_case(head_dim), [&k](MergeCase c) { return fit_to(k, c); });
}

void reduce_case(const MergeKernel&, const MergeCase& smallest, const Reduction<MergeCase>& r) {
  for (std::int64_t row = 0;
       smallest.parts[0].rows > 1 && row < smallest.parts[0].rows && !r.out_of_time(); ++row)
    r.accept(restricted(smallest, row, -1));
  for (int comp = 0;
       smallest.parts[0].head_dim > 1 && comp < smallest.parts[0].head_dim && !r.out_of_time();
       ++comp)
    r.accept(restricted(smallest, 0, comp));
  for (std::size_t i = smallest.parts.size(); i-- > 0 && smallest.parts.size() > 2;)
    r.accept(without_element(smallest, &MergeCase::parts, i));
}

}  // namespace osvs::testbed
