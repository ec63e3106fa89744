// A state reduction of one's own on the device: the same type R as state_reduction.h's, in a
// file nvcc compiles, registered as a Where::Device reduction whose launch runs every schedule
// through the device harness (kernels/cuda/combine_kernels.cuh harness_kernel: one thread a
// schedule, each chunk folded from the identity by lift and combine, then the merges in the given
// order, the order the CPU model runs) and writes each root state's and finalised result's field
// bits.
//
//   // my_reduction.cu
//   OSVS_REGISTER_REDUCTION(my_reduction_device) {
//     return osvs::device_state_reduction<R>("my.reduction.device")
//         .bitwise_commutative().exact_identity()
//         .cpu_model("my.reduction");   // claims the CPU model's bits (the cpu_model law)
//   }
//
// The runner (api/src/reduction_device_runner.h) copies the schedules in and the outputs out on
// the stream it hands the launch and checks what it wrote; the launch enqueues its kernels and
// its scratch on that stream only, and checks the status of every CUDA call it makes (a launch
// that fails throws, which the runner reports as a KernelFailure naming the reduction).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

#include "osvs/api/state_reduction.h"
#include "osvs/kernels/cuda/combine_kernels.cuh"

namespace osvs {
namespace detail {

/// One thread a schedule: its root state's field bits, and its finalised result's.
template <class R>
__global__ void reduction_fields_kernel(const typename R::State* roots, std::int64_t n,
                                        std::uint64_t* states, std::uint64_t* results) {
  constexpr std::int64_t ns = std::tuple_size_v<std::remove_cvref_t<decltype(R::kStateFields)>>;
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const typename R::State s = roots[i];
  store_field_bits<R::kStateFields>(s, states + i * ns);
  if constexpr (kHasResult<R>) {
    constexpr std::int64_t nr = std::tuple_size_v<std::remove_cvref_t<decltype(R::kResultFields)>>;
    store_field_bits<R::kResultFields>(R::finalise(s), results + i * nr);
  } else {
    store_field_bits<R::kStateFields>(s, results + i * ns);
  }
}

inline void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(status) + " (" +
                             cudaGetErrorString(status) + ")");
}

/// Scratch allocated on a stream, freed on it: by free() on the way out of a launch (its status
/// checked), or, on the way out of a launch that threw, by the destructor.
struct StreamScratch {
  void* p = nullptr;
  cudaStream_t stream;
  StreamScratch(std::size_t bytes, cudaStream_t s) : stream(s) {
    check_cuda(cudaMallocAsync(&p, bytes, s), "cudaMallocAsync of the reduction's scratch");
  }
  void free() {
    void* q = p;
    p = nullptr;
    check_cuda(cudaFreeAsync(q, stream), "cudaFreeAsync of the reduction's scratch");
  }
  ~StreamScratch() {
    if (p) cudaFreeAsync(p, stream);
  }
  StreamScratch(const StreamScratch&) = delete;
  StreamScratch& operator=(const StreamScratch&) = delete;
};

/// R's executor on the device (Where::Device), through the device harness. Its launch: scratch for
/// the chunk states, the slots and the roots allocated on the launch's stream, the harness kernel
/// and the fields kernel on it, each launch's status checked, the scratch freed on it.
template <class R>
struct DeviceHarness {
  static constexpr Where where = Where::Device;
  static void run(const ReductionProblem& p) {
    using V = typename R::State;
    const ReductionDeviceSchedules& d = *p.device;
    const auto stream = p.cuda_stream<cudaStream_t>();
    const std::int64_t words = d.num_chunks + d.num_slots + d.num_cases;
    StreamScratch scratch(sizeof(V) * static_cast<std::size_t>(words), stream);
    V* chunks = static_cast<V*>(scratch.p);
    V* slots = chunks + d.num_chunks;
    V* roots = slots + d.num_slots;
    constexpr int kBlock = 128;
    const auto blocks = static_cast<unsigned>((d.num_cases + kBlock - 1) / kBlock);
    cuda::harness_kernel<ReductionAlg<R>>
        <<<blocks, kBlock, 0, stream>>>(d.values, d.chunk_offsets, d.slot_chunk, d.merges, d.cases,
                                        d.num_cases, chunks, slots, roots);
    check_cuda(cudaGetLastError(), "the launch of the reduction harness kernel");
    reduction_fields_kernel<R>
        <<<blocks, kBlock, 0, stream>>>(roots, d.num_cases, d.states, d.results);
    check_cuda(cudaGetLastError(), "the launch of the reduction's fields kernel");
    scratch.free();
  }
};

}  // namespace detail

/// The declaration of R on the device: state_reduction<R>() on the device's executor, its fields
/// and exact reference as state_reduction<R>() declares them; claims, tolerance, domain and the
/// CPU model it claims to equal are added to it.
template <class R>
ReductionKernel device_state_reduction(std::string name) {
  return state_reduction<R, detail::DeviceHarness>(std::move(name));
}

}  // namespace osvs
