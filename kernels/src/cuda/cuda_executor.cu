// The CUDA executor: launches the real kernels. Every runtime call's status is checked.
#include <string>
#include <utility>

#include "cuda_check.cuh"
#include "osvs/kernels/combine_operator.h"
#include "osvs/kernels/cuda/block_dispatch.cuh"
#include "osvs/kernels/cuda/combine_kernels.cuh"
#include "osvs/kernels/cuda/softmax_kernels.cuh"
#include "osvs/kernels/cuda_launch.h"
#include "osvs/kernels/executor.h"
#include "osvs/kernels/fast_launch.h"

namespace osvs {
namespace {

using cuda::DeviceBuffer;

/// Calls f(std::integral_constant<int, B>{}) for the supported block size b.
template <class F>
void dispatch_block(int b, F&& f) {
  if (!with_block_size(b, std::forward<F>(f)))
    throw InvalidLaunch("unsupported block size " + std::to_string(b));
}

/// Every call selects the executor's device first (cudaSetDevice is per host thread), so an
/// executor of device 1 runs there from whichever thread calls it.
class CudaExecutor final : public Executor {
 public:
  CudaExecutor(std::string description, int device)
      : description_(std::move(description)), device_(device) {}
  const char* name() const override { return "cuda"; }
  bool is_gpu() const override { return true; }
  std::string describe() const override { return description_; }

  SoftmaxResult run_softmax(const SoftmaxKernelFns& kernel, const SoftmaxBatch& b) override {
    select_device();
    validate(b);
    if (kernel.launch == nullptr)
      throw InvalidLaunch(std::string("kernel ") + kernel.name + " has no device code");
    SoftmaxResult r;
    r.y.resize(static_cast<std::size_t>(b.rows * b.cols));
    r.row_state.resize(static_cast<std::size_t>(b.rows));
    if (b.rows == 0) return r;
    // On this thread's own stream: executors driven from several threads (the audit's launchers)
    // run their batches on the device at the same time; a batch of one long row occupies one SM.
    const cudaStream_t stream = cudaStreamPerThread;
    cuda::StreamBuffer<float> x(b.x.size(), stream), y(r.y.size(), stream);
    cuda::StreamBuffer<State> s(r.row_state.size(), stream);
    x.upload(b.x.data());
    kernel.launch(SoftmaxLaunch{b.kernel, b.combine, b.block, x.get(), y.get(), s.get(), b.rows,
                                b.cols, stream});
    cuda::check_stream_launch("softmax kernel", stream);
    y.download(r.y.data());
    s.download(r.row_state.data());
    return r;
  }

  std::vector<State> combine_pairs(CombineKind k, const std::vector<State>& a,
                                   const std::vector<State>& b) override {
    select_device();
    if (a.size() != b.size()) throw InvalidLaunch("combine_pairs: operand counts differ");
    std::vector<State> out(a.size());
    if (a.empty()) return out;
    DeviceBuffer<State> da(a.data(), a.size()), db(b.data(), b.size()), dout(a.size());
    device_ops(k).pairs(da.get(), db.get(), dout.get(), static_cast<std::int64_t>(a.size()));
    cuda::check_launch((std::string("combine_pairs_kernel of ") + to_string(k)).c_str());
    dout.download(out.data());
    return out;
  }

  std::vector<State> combine_pairs_in(DType type, CombineKind k, const std::vector<State>& a,
                                      const std::vector<State>& b) override {
    if (type == DType::F32) return combine_pairs(k, a, b);
    select_device();
    validate_narrow_pairs("cuda", type, k, a, b);
    std::vector<State> out(a.size());
    if (a.empty()) return out;
    const auto pairs = device_ops(k).pairs_narrow;
    if (pairs == nullptr)
      throw InvalidLaunch(std::string("cuda combine_pairs_in: ") + to_string(k) +
                          " has no device code for narrow states");
    DeviceBuffer<State> da(a.data(), a.size()), db(b.data(), b.size()), dout(a.size());
    pairs(type, da.get(), db.get(), dout.get(), static_cast<std::int64_t>(a.size()));
    cuda::check_launch((std::string("combine_pairs_narrow_kernel of ") + to_string(k)).c_str());
    dout.download(out.data());
    return out;
  }

  std::vector<State> warp_reduce(CombineKind k, const std::vector<State>& lanes) override {
    select_device();
    if (lanes.size() % kWarpSize != 0) throw InvalidLaunch("warp_reduce: need 32 states per warp");
    const auto groups = static_cast<std::int64_t>(lanes.size() / kWarpSize);
    std::vector<State> out(static_cast<std::size_t>(groups));
    if (groups == 0) return out;
    DeviceBuffer<State> din(lanes.data(), lanes.size()), dout(out.size());
    device_ops(k).warp_reduce(din.get(), dout.get(), groups);
    cuda::check_launch((std::string("warp_reduce_kernel of ") + to_string(k)).c_str());
    dout.download(out.data());
    return out;
  }

  HarnessResult run_harness(const HarnessBatch& b) override {
    select_device();
    validate(b);
    HarnessResult r;
    const auto n = static_cast<std::int64_t>(b.cases.size());
    r.root.resize(b.cases.size());
    if (n == 0) return r;
    const FlatHarnessBatch f = flatten(b.cases);
    DeviceBuffer<float> dv(f.values.data(), f.values.size());
    DeviceBuffer<std::int64_t> doff(f.chunk_offsets.data(), f.chunk_offsets.size());
    DeviceBuffer<std::int32_t> dsc(f.slot_chunk.data(), f.slot_chunk.size());
    DeviceBuffer<Merge> dm(f.merges.data(), f.merges.size());
    DeviceBuffer<cuda::DeviceHarnessCase> dc(f.cases.data(), f.cases.size());
    DeviceBuffer<State> dchunks(static_cast<std::size_t>(f.num_chunks)),
        dslots(f.slot_chunk.size()), droots(f.cases.size());
    device_ops(b.combine).harness({dv.get(), doff.get(), dsc.get(), dm.get(), dc.get(), n,
                                   dchunks.get(), dslots.get(), droots.get()});
    cuda::check_launch((std::string("harness_kernel of ") + to_string(b.combine)).c_str());
    droots.download(r.root.data());
    if (b.want_chunk_states) {
      std::vector<State> all(static_cast<std::size_t>(f.num_chunks));
      dchunks.download(all.data());
      r.chunk_states.resize(b.cases.size());
      for (std::size_t i = 0; i < f.cases.size(); ++i)
        r.chunk_states[i].assign(all.begin() + f.cases[i].chunk_begin,
                                 all.begin() + f.cases[i].chunk_begin + f.cases[i].num_chunks);
    }
    return r;
  }

 private:
  void select_device() const { OSVS_CUDA_CHECK(cudaSetDevice(device_)); }

  std::string description_;
  int device_;
};

}  // namespace

namespace cuda {

namespace {

/// Throws with the launch's own error, if it had one.
void check_softmax_launch(const char* kernel) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(kernel) + " launch failed: " + cudaGetErrorString(status));
}

}  // namespace

void launch_two_pass(const SoftmaxLaunch& l) {
  if (l.rows == 0) return;
  dispatch_block(l.block, [&](auto block_size) {
    device_ops(l.combine).two_pass(decltype(block_size)::value, l.x, l.y, l.row_state, l.rows,
                                   l.cols, static_cast<cudaStream_t>(l.stream));
  });
  check_softmax_launch("two_pass");
}

void launch_three_pass(const SoftmaxLaunch& l) {
  if (l.rows == 0) return;
  dispatch_block(l.block, [&](auto block_size) {
    constexpr int B = decltype(block_size)::value;
    safe_three_pass<B>
        <<<dim3(static_cast<unsigned>(l.rows)), B, 0, static_cast<cudaStream_t>(l.stream)>>>(
            l.x, l.y, l.row_state, l.rows, l.cols);
  });
  check_softmax_launch("three_pass");
}

void launch_fast(const SoftmaxLaunch& l) {  // its plan picks its own block size (fast_plan.h)
  if (l.rows == 0) return;
  launch_fast_softmax(l.x, l.y, l.row_state, l.rows, l.cols, nullptr, l.stream,
                      FastSplitPath::Auto);
  check_softmax_launch("fast");
}

}  // namespace cuda

std::unique_ptr<Executor> make_cuda_executor(std::string* why_not, int device) {
  const std::string description = cuda::describe_device(why_not, device);
  if (description.empty()) return nullptr;
  return std::make_unique<CudaExecutor>(
      description + (kPortableExp ? ", portable exp" : ", CUDA expf"), device);
}

int cuda_device_count() {
  return cuda::visible_devices();
}

}  // namespace osvs
