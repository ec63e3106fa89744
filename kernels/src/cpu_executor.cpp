// The CPU model: every kernel's reduction order replayed on the host (block_schedule.h), with the
// same combine operators and exp as the device code. A softmax kernel's order is its model
// function (softmax_kernel_fns.h; the built-in ones: builtin_softmax_kernels.cpp); a combine's
// orders are its registry entry's host model (combine_entry.h), instantiated for its type where
// it was registered.
#include <string>

#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/combine_operator.h"
#include "osvs/kernels/executor.h"

namespace osvs {
namespace {

class CpuExecutor final : public Executor {
 public:
  const char* name() const override { return "cpu"; }
  bool is_gpu() const override { return false; }
  std::string describe() const override {
    return std::string("CPU model (") + (kPortableExp ? "portable exp" : "glibc expf") +
           (OSVS_MODEL_FMAD ? ", device FMA contraction modelled)" : ", no FMA contraction)");
  }

  SoftmaxResult run_softmax(const SoftmaxKernelFns& kernel, const SoftmaxBatch& b) override {
    validate(b);
    if (kernel.model == nullptr)
      throw InvalidLaunch(std::string("kernel ") + kernel.name +
                          " exists only on the device: the CPU model cannot replay it");
    SoftmaxResult r;
    r.y.resize(static_cast<std::size_t>(b.rows * b.cols));
    r.row_state.resize(static_cast<std::size_t>(b.rows));
    kernel.model(b, r);
    return r;
  }

  std::vector<State> combine_pairs(CombineKind k, const std::vector<State>& a,
                                   const std::vector<State>& b) override {
    if (a.size() != b.size()) throw InvalidLaunch("combine_pairs: operand counts differ");
    std::vector<State> out(a.size());
    const auto combine = k.op().host.combine;
    for (std::size_t i = 0; i < a.size(); ++i) out[i] = combine(a[i], b[i]);
    return out;
  }

  std::vector<State> combine_pairs_in(DType type, CombineKind k, const std::vector<State>& a,
                                      const std::vector<State>& b) override {
    if (type == DType::F32) return combine_pairs(k, a, b);
    validate_narrow_pairs("cpu", type, k, a, b);
    std::vector<State> out(a.size());
    const auto combine = k.op().host.combine_narrow;
    for (std::size_t i = 0; i < a.size(); ++i) out[i] = combine(type, a[i], b[i]);
    return out;
  }

  std::vector<State> warp_reduce(CombineKind k, const std::vector<State>& lanes) override {
    if (lanes.size() % kWarpSize != 0) throw InvalidLaunch("warp_reduce: need 32 states per warp");
    std::vector<State> out(lanes.size() / kWarpSize);
    for (std::size_t w = 0; w < out.size(); ++w)
      out[w] = k.op().host.warp_reduce(lanes.data() + w * kWarpSize);
    return out;
  }

  HarnessResult run_harness(const HarnessBatch& b) override {
    validate(b);
    HarnessResult r;
    r.root.resize(b.cases.size());
    if (b.want_chunk_states) r.chunk_states.resize(b.cases.size());
    const auto harness_case = b.combine.op().host.harness_case;
    for (std::size_t i = 0; i < b.cases.size(); ++i)
      r.root[i] = harness_case(b.cases[i], b.want_chunk_states ? &r.chunk_states[i] : nullptr);
    return r;
  }
};

}  // namespace

std::unique_ptr<Executor> make_cpu_executor() {
  return std::make_unique<CpuExecutor>();
}

std::unique_ptr<Executor> make_executor(const std::string& name, std::string* why_not) {
  if (name == "cpu") return make_cpu_executor();
  if (name == "cuda") return make_cuda_executor(why_not);
  if (name == "best") {
    std::string reason;
    if (auto cuda = make_cuda_executor(&reason)) return cuda;
    return make_cpu_executor();
  }
  if (why_not) *why_not = "unknown executor '" + name + "' (use cpu, cuda or best)";
  return nullptr;
}

}  // namespace osvs
