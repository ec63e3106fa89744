#include "attention_kernels.cuh"
#include "osvs/kernels/attention/merge_states_launch.h"

namespace osvs::cuda {
namespace {

constexpr int kMergeBlock = 256;

template <DType T, MergeMutation M>
void launch(const void* o_a, const float* lse_a, const void* o_b, const float* lse_b, void* o_out,
            float* lse_out, std::int64_t rows, int head_dim, LseBase base, cudaStream_t stream) {
  const std::int64_t n = rows * head_dim;
  if (n == 0) return;
  const auto grid = static_cast<unsigned>((n + kMergeBlock - 1) / kMergeBlock);
  merge_states_kernel<T, M><<<grid, kMergeBlock, 0, stream>>>(
      static_cast<const storage_t<T>*>(o_a), lse_a, static_cast<const storage_t<T>*>(o_b), lse_b,
      static_cast<storage_t<T>*>(o_out), lse_out, rows, head_dim, base);
}

template <MergeMutation M>
void launch_typed(DType o_type, const void* o_a, const float* lse_a, const void* o_b,
                  const float* lse_b, void* o_out, float* lse_out, std::int64_t rows, int head_dim,
                  LseBase base, cudaStream_t s) {
  switch (o_type) {
    case DType::BF16:
      return launch<DType::BF16, M>(o_a, lse_a, o_b, lse_b, o_out, lse_out, rows, head_dim, base,
                                    s);
    case DType::F16:
      return launch<DType::F16, M>(o_a, lse_a, o_b, lse_b, o_out, lse_out, rows, head_dim, base, s);
    case DType::F32:
      break;
  }
  launch<DType::F32, M>(o_a, lse_a, o_b, lse_b, o_out, lse_out, rows, head_dim, base, s);
}

template <MergeMutation... Ms>
void launch_mutation(MergeMutation m, DType o_type, const void* o_a, const float* lse_a,
                     const void* o_b, const float* lse_b, void* o_out, float* lse_out,
                     std::int64_t rows, int head_dim, LseBase base, cudaStream_t s) {
  ((m == Ms
        ? launch_typed<Ms>(o_type, o_a, lse_a, o_b, lse_b, o_out, lse_out, rows, head_dim, base, s)
        : void()),
   ...);
}

}  // namespace

void launch_merge_states(DType o_type, const void* o_a, const float* lse_a, const void* o_b,
                         const float* lse_b, void* o_out, float* lse_out, std::int64_t rows,
                         int head_dim, LseBase base, void* stream) {
  launch_typed<MergeMutation::None>(o_type, o_a, lse_a, o_b, lse_b, o_out, lse_out, rows, head_dim,
                                    base, static_cast<cudaStream_t>(stream));
}

void launch_merge_states_mutant(MergeMutation mutation, DType o_type, const void* o_a,
                                const float* lse_a, const void* o_b, const float* lse_b,
                                void* o_out, float* lse_out, std::int64_t rows, int head_dim,
                                LseBase base, void* stream) {
  using M = MergeMutation;
  launch_mutation<M::None, M::OverwriteLse, M::NoRescale, M::BaseConfusion, M::EmptyGivesNan,
                  M::LseNotUpdated, M::WrongNormaliser, M::SmallDropped, M::TailSkipped,
                  M::PositionalOrder, M::NanNotCanonical>(mutation, o_type, o_a, lse_a, o_b, lse_b,
                                                          o_out, lse_out, rows, head_dim, base,
                                                          static_cast<cudaStream_t>(stream));
}

}  // namespace osvs::cuda
