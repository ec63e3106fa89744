// The merge kernels' large law on the device (a GPU test, opt-in: OSVS_LARGE_LAWS=1; about
// 24.4 GiB of device memory and as much host memory): osvs's merge-states kernel holds it, and
// the same kernel with its element index an unsigned or a signed 32-bit integer (the index
// engines' merges compute) fails it, the likely cause named. The signed one reads before its
// buffers (an illegal address, which leaves the CUDA context unusable): it runs in a process of
// its own (api.merge_large_gpu_signed).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <iostream>

#include "attention_kernels.cuh"
#include "builtin_merge.h"
#include "merge_large_law.h"
#include "osvs/api/kind.h"
#include "osvs/kernels/attention/merge_states_launch.h"

namespace osvs::test {
namespace {

/// merge_states_kernel with its element index i of type Index, from the 32-bit product of the
/// block index and size (which wraps past 2^32 threads): past element 2^32 an unsigned index
/// starts again at row 0, past 2^31 a signed one goes negative.
template <DType T, class Index>
__global__ void narrow_index_merge(const cuda::storage_t<T>* o_a, const float* lse_a,
                                   const cuda::storage_t<T>* o_b, const float* lse_b,
                                   cuda::storage_t<T>* o_out, float* lse_out, std::int64_t rows,
                                   int head_dim, LseBase base) {
  const auto i = static_cast<Index>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= rows * head_dim) return;
  const Index r = i / head_dim;
  const LseMerge m = merge_lse(lse_a[r], lse_b[r], base);
  if (i % head_dim == 0) lse_out[r] = m.lse;
  cuda::store_o<T>(o_out, i, merge_o(m, cuda::load_o<T>(o_a, i), cuda::load_o<T>(o_b, i)));
}

template <class Index>
MergeKernel narrow_index_kernel(const char* name) {
  return MergeKernel(name, Where::Device)
      .o_types({DType::BF16})
      .lse_bases({LseBase::E, LseBase::Two})
      .run([](const MergeProblem& p) {
        using S = cuda::storage_t<DType::BF16>;
        const std::int64_t n = p.rows * p.head_dim;
        narrow_index_merge<DType::BF16, Index>
            <<<static_cast<unsigned>((n + 255) / 256), 256, 0, p.cuda_stream<cudaStream_t>()>>>(
                static_cast<const S*>(p.o_a_ptr), p.lse_a, static_cast<const S*>(p.o_b_ptr),
                p.lse_b, static_cast<S*>(p.o_out_ptr), p.lse_out, p.rows, p.head_dim, p.base);
      });
}

MergeKernel osvs_merge_states() {
  return builtin::declare_merge(Where::Device).run([](const MergeProblem& p) {
    cuda::launch_merge_states(p.o_type, p.o_a_ptr, p.lse_a, p.o_b_ptr, p.lse_b, p.o_out_ptr,
                              p.lse_out, p.rows, p.head_dim, p.base, p.stream);
  });
}

/// The law's verdict on k, its seconds printed. A device without the memory skips the test that
/// asked, with the law's "not judged: needs N GiB ..." as the reason.
Verdict run_law(const MergeKernel& k) {
  const MergeLaw* law = find_merge_law("large_batch");
  EXPECT_NE(law, nullptr);
  const auto start = std::chrono::steady_clock::now();
  const Verdict v = MergeKind::check(*law, k, api::large_merge_case(k));
  std::cout << k.name() << ": large_batch " << to_string(v.status) << " in "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
            << " s\n";
  return v;
}

class MergeLargeLawDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!device_available(&why)) GTEST_SKIP() << why;
    const char* v = std::getenv(api::kLargeLawsVariable);
    if (!v || std::string(v) != "1")
      GTEST_SKIP() << "opt-in (24.4 GiB of device and host memory): set OSVS_LARGE_LAWS=1";
  }
};

TEST_F(MergeLargeLawDevice, OsvsMergeStatesHolds) {
  const Verdict v = run_law(osvs_merge_states());
  if (!v.judged()) GTEST_SKIP() << v.explanation;
  EXPECT_TRUE(v.holds()) << v.explanation;
  EXPECT_FALSE(v.evidence.empty());
}

/// k (an index that wraps) fails the law with the likely cause named; the failure is printed.
void expect_fails_with_likely_cause(const MergeKernel& k) {
  const Verdict v = run_law(k);
  if (!v.judged()) GTEST_SKIP() << v.explanation;
  std::cout << k.name() << ": " << v.explanation << "\n";
  ASSERT_TRUE(v.fails()) << v.explanation;
  EXPECT_NE(v.explanation.find("likely cause: a 32-bit offset wraps"), std::string::npos)
      << v.explanation;
}

TEST_F(MergeLargeLawDevice, UnsignedIndexFails) {
  expect_fails_with_likely_cause(narrow_index_kernel<unsigned>("test.merge_unsigned_index"));
}

TEST_F(MergeLargeLawDevice, SignedIndexFails) {
  expect_fails_with_likely_cause(narrow_index_kernel<int>("test.merge_signed_index"));
}

}  // namespace
}  // namespace osvs::test
