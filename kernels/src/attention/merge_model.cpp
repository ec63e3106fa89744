#include "osvs/kernels/attention/merge_model.h"

#include "osvs/kernels/attention/merge_states.h"
#include "osvs/kernels/attention/split_decode.h"

namespace osvs {
namespace {

/// The merge-states kernel's work for one row: every thread (component) computes the same
/// merge_lse and its own merge_o; the thread of component 0 writes lse.
template <MergeMutation M>
void merge_rows(const AttnStates& a, const AttnStates& b, LseBase base, AttnStates& out) {
  const int dim = a.head_dim;
  // TailSkipped: the components are merged in chunks of 4 and the tail is never written.
  const int merged = M == MergeMutation::TailSkipped ? dim / 4 * 4 : dim;
  for (std::int64_t r = 0; r < a.rows; ++r) {
    const auto row = static_cast<std::size_t>(r);
    const LseMerge m = merge_lse<M>(a.lse[row], b.lse[row], base);
    out.lse[row] = m.lse;
    for (int c = 0; c < merged; ++c) {
      const auto i = row * static_cast<std::size_t>(dim) + static_cast<std::size_t>(c);
      out.o[i] = round_attn(a.o_type, merge_o<M>(m, a.o[i], b.o[i]));
    }
  }
}

template <MergeMutation... Ms>
void dispatch(MergeMutation m, const AttnStates& a, const AttnStates& b, LseBase base,
              AttnStates& out) {
  ((m == Ms ? merge_rows<Ms>(a, b, base, out) : void()), ...);
}

}  // namespace

AttnStates merge_states_model(const AttnStates& a, const AttnStates& b, LseBase base,
                              MergeMutation mutation) {
  AttnStates out{a.rows, a.head_dim, a.o_type, std::vector<float>(a.lse.size()),
                 std::vector<float>(a.o.size())};
  using enum MergeMutation;
  dispatch<None, OverwriteLse, NoRescale, BaseConfusion, EmptyGivesNan, LseNotUpdated,
           WrongNormaliser, SmallDropped, TailSkipped, PositionalOrder, NanNotCanonical>(
      mutation, a, b, base, out);
  return out;
}

}  // namespace osvs
