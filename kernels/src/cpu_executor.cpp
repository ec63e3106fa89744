// The CPU model: every kernel's reduction order replayed on the host (block_schedule.h), with the
// same combine operators and exp as the device code. A combine's orders are its registry entry's
// host model (combine_entry.h), instantiated for its type where it was registered.
#include <string>

#include "osvs/kernels/algebras.h"
#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/combine_operator.h"
#include "osvs/kernels/executor.h"
#include "osvs/kernels/fast_model.h"

namespace osvs {
namespace {

void two_pass_rows(const SoftmaxBatch& b, SoftmaxResult& r) {
  if (!modelled_on_cpu(b.mutation))
    throw InvalidLaunch(std::string("kernel mutation ") + to_string(b.mutation) +
                        " exists only on the device (a race, uninitialised shared memory or "
                        "2^31 elements); the CPU model cannot replay it");
  b.combine.op().host.two_pass_rows(b, r);
}

void three_pass_rows(const SoftmaxBatch& b, SoftmaxResult& r) {
  for (std::int64_t i = 0; i < b.rows; ++i) {
    const float* row = b.x.data() + i * b.cols;
    const float m = model_block_reduce(row, b.cols, b.block, MaxAlg{});
    const float d = model_block_reduce(row, b.cols, b.block, SumExpAlg{m});
    r.row_state[i] = State{m, d};
    for (std::int64_t j = 0; j < b.cols; ++j) r.y[i * b.cols + j] = softmax_output(row[j], m, d);
  }
}

class CpuExecutor final : public Executor {
 public:
  const char* name() const override { return "cpu"; }
  bool is_gpu() const override { return false; }
  std::string describe() const override {
    return std::string("CPU model (") + (kPortableExp ? "portable exp" : "glibc expf") +
           (OSVS_MODEL_FMAD ? ", device FMA contraction modelled)" : ", no FMA contraction)");
  }

  SoftmaxResult softmax(const SoftmaxBatch& b) override {
    validate(b);
    SoftmaxResult r;
    r.y.resize(static_cast<std::size_t>(b.rows * b.cols));
    r.row_state.resize(static_cast<std::size_t>(b.rows));
    if (b.kernel == KernelKind::TwoPass)
      two_pass_rows(b, r);
    else if (b.kernel == KernelKind::Fast)
      fast_model_rows(b, r);
    else
      three_pass_rows(b, r);
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
