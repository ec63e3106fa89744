// osvs's split-KV decode kernel on the device as an attention entry: the CUDA attention
// executor's split_decode (kernels/src/cuda/attention/) behind the runner's device buffers. The
// executor stages host arrays itself, so this adapter copies the launch's inputs to the host,
// runs builtin_split_decode.cpp's loop on that executor (whose kernels run on the device), and
// copies o and lse back: a round trip a launch, which the laws do not time. Its declaration is
// the CPU model's; its contract the tiled kernel's device figures (tiled_attention.h: the same
// 2-ulp CUDA expf in every weight and merge).
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "builtin_split_decode.h"

namespace osvs::builtin {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("split-KV decode on the device: ") + what + ": " +
                             cudaGetErrorString(e));
}

std::vector<unsigned char> to_host(const void* device, std::int64_t bytes) {
  std::vector<unsigned char> host(static_cast<std::size_t>(bytes > 0 ? bytes : 0));
  if (bytes > 0)
    check(cudaMemcpy(host.data(), device, host.size(), cudaMemcpyDeviceToHost),
          "copying an input to the host");
  return host;
}

/// The CUDA attention executor, made at the first launch (never at registration).
AttentionExecutor& cuda_executor() {
  static std::mutex mu;
  static std::unique_ptr<AttentionExecutor> executor;
  const std::lock_guard<std::mutex> lock(mu);
  if (!executor) {
    std::string why;
    executor = make_cuda_attention_executor(&why);
    if (!executor) throw std::runtime_error("split-KV decode on the device: " + why);
  }
  return *executor;
}

void split_decode_device(const AttentionProblem& p) {
  check(cudaStreamSynchronize(p.cuda_stream<cudaStream_t>()), "waiting for the runner's copies");
  const std::int64_t in = static_cast<std::int64_t>(size_of(p.in_type));
  const std::int64_t out = static_cast<std::int64_t>(size_of(p.out_type));
  const std::int64_t kv_tokens =
      p.page_size > 0 ? std::int64_t{p.num_pages} * p.page_size : p.total_k;
  const std::int64_t rows = p.total_q * p.heads_q;
  const auto q = to_host(p.q_ptr, rows * p.head_dim_qk * in);
  const auto k = to_host(p.k_ptr, kv_tokens * p.heads_kv * p.head_dim_qk * in);
  const auto v = to_host(p.v_ptr, kv_tokens * p.heads_kv * p.head_dim_v * in);
  const auto cu_q = to_host(p.cu_seqlens_q, (p.batch + 1) * std::int64_t{4});
  const auto cu_k = to_host(p.cu_seqlens_k, (p.batch + 1) * std::int64_t{4});
  const auto table = p.block_table != nullptr
                         ? to_host(p.block_table, std::int64_t{p.batch} * p.max_pages * 4)
                         : std::vector<unsigned char>();
  std::vector<unsigned char> o(static_cast<std::size_t>(rows * p.head_dim_v * out));
  std::vector<float> lse(p.lse != nullptr ? static_cast<std::size_t>(rows) : 0);
  AttentionProblem h = p;
  h.q_ptr = q.data();
  h.k_ptr = k.data();
  h.v_ptr = v.data();
  h.cu_seqlens_q = reinterpret_cast<const std::int32_t*>(cu_q.data());
  h.cu_seqlens_k = reinterpret_cast<const std::int32_t*>(cu_k.data());
  h.block_table =
      p.block_table != nullptr ? reinterpret_cast<const std::int32_t*>(table.data()) : nullptr;
  h.o_ptr = o.data();
  h.lse = p.lse != nullptr ? lse.data() : nullptr;
  split_decode(cuda_executor(), h);
  if (!o.empty())
    check(cudaMemcpy(p.o_ptr, o.data(), o.size(), cudaMemcpyHostToDevice), "copying o back");
  if (!lse.empty())
    check(cudaMemcpy(p.lse, lse.data(), lse.size() * sizeof(float), cudaMemcpyHostToDevice),
          "copying the lse back");
}

OSVS_REGISTER_ATTENTION_KERNEL(split_decode_device) {
  AttentionKernel k =
      declare_split_decode("osvs.attention.split_decode.device", nullptr, Where::Device);
  return k.run(split_decode_device);
}

}  // namespace
}  // namespace osvs::builtin
