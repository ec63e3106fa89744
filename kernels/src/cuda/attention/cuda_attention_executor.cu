// The CUDA attention executor: uploads a case, launches the kernels of attention_kernels.cuh and
// downloads the results. Every runtime call's status is checked.
#include <stdexcept>
#include <string>
#include <utility>

#include "../cuda_check.cuh"
#include "attention_kernels.cuh"
#include "osvs/kernels/attention/attention_executor.h"
#include "osvs/kernels/attention/merge_states_launch.h"

namespace osvs {
namespace {

using cuda::DeviceBuffer;
using cuda::storage_t;

/// The o values of `s` in device storage of type T.
template <DType T>
std::vector<storage_t<T>> to_storage(const std::vector<float>& o) {
  std::vector<storage_t<T>> out(o.size());
  store_as(T, o.data(), out.data(), static_cast<std::int64_t>(o.size()));
  return out;
}

template <DType T>
std::vector<float> from_storage(const std::vector<storage_t<T>>& o) {
  std::vector<float> out(o.size());
  load_from(T, o.data(), out.data(), static_cast<std::int64_t>(o.size()));
  return out;
}

/// dst rows = merge(a rows, b rows), all on the device.
template <DType T>
void launch_merge(const storage_t<T>* o_a, const float* lse_a, const storage_t<T>* o_b,
                  const float* lse_b, storage_t<T>* o_out, float* lse_out, std::int64_t rows,
                  int head_dim, LseBase base) {
  if (rows * head_dim == 0) return;
  cuda::launch_merge_states(T, o_a, lse_a, o_b, lse_b, o_out, lse_out, rows, head_dim, base,
                            nullptr);
  cuda::check_launch("merge_states_kernel");
}

template <DType T>
AttnStates merge_on_device(const AttnStates& a, const AttnStates& b, LseBase base) {
  AttnStates out{a.rows, a.head_dim, a.o_type, std::vector<float>(a.lse.size()),
                 std::vector<float>(a.o.size())};
  const auto ha = to_storage<T>(a.o), hb = to_storage<T>(b.o);
  DeviceBuffer<storage_t<T>> oa(ha.data(), ha.size()), ob(hb.data(), hb.size()), oo(ha.size());
  DeviceBuffer<float> la(a.lse.data(), a.lse.size()), lb(b.lse.data(), b.lse.size()),
      lo(a.lse.size());
  launch_merge<T>(oa.get(), la.get(), ob.get(), lb.get(), oo.get(), lo.get(), a.rows, a.head_dim,
                  base);
  std::vector<storage_t<T>> ho(ha.size());
  oo.download(ho.data());
  lo.download(out.lse.data());
  out.o = from_storage<T>(ho);
  return out;
}

template <DType T>
DecodeResult decode_on_device(const DecodeProblem& p, const SplitPlan& plan) {
  const std::int64_t rows = p.rows();
  const int splits = plan.splits();
  const auto slot_o = static_cast<std::size_t>(rows * p.head_dim);
  const auto slot_lse = static_cast<std::size_t>(rows);
  DeviceBuffer<float> q(p.q.data(), p.q.size()), k(p.k.data(), p.k.size()),
      v(p.v.data(), p.v.size());
  DeviceBuffer<std::uint8_t> masked(p.masked.data(), p.masked.size());
  DeviceBuffer<std::int64_t> offsets(plan.offsets.data(), plan.offsets.size());
  DeviceBuffer<storage_t<T>> o_part(slot_o * static_cast<std::size_t>(splits)), o_scratch(slot_o);
  DeviceBuffer<float> lse_part(slot_lse * static_cast<std::size_t>(splits)), lse_scratch(slot_lse);
  const dim3 grid(static_cast<unsigned>(rows), static_cast<unsigned>(splits));
  cuda::split_decode_kernel<T>
      <<<grid, kAttnWarp>>>(q.get(), k.get(), v.get(), p.masked.empty() ? nullptr : masked.get(),
                            offsets.get(), o_part.get(), lse_part.get(), rows, p.heads, p.head_dim,
                            p.kv_len, score_multiplier(p.scale, p.base), p.base);
  cuda::check_launch("split_decode_kernel");

  std::vector<storage_t<T>> ho(o_part.size());
  std::vector<float> hl(lse_part.size());
  const auto download_slots = [&] {
    o_part.download(ho.data());
    lse_part.download(hl.data());
  };
  const auto slot = [&](int s) {
    AttnStates st{rows, p.head_dim, p.out, {}, {}};
    const auto first_o = ho.begin() + static_cast<std::ptrdiff_t>(slot_o * s);
    st.o = from_storage<T>(std::vector<storage_t<T>>(first_o, first_o + slot_o));
    const auto first_l = hl.begin() + static_cast<std::ptrdiff_t>(slot_lse * s);
    st.lse.assign(first_l, first_l + slot_lse);
    return st;
  };
  download_slots();
  DecodeResult r;
  for (int s = 0; s < splits; ++s) r.partials.push_back(slot(s));

  // The merge tree: dst = merge(dst, src) into scratch, then copied back (the kernel is not in
  // place: component 0's thread writes the lse the row's other threads read).
  for (const Merge& m : plan.merges) {
    storage_t<T>* o_dst = o_part.get() + slot_o * static_cast<std::size_t>(m.dst);
    float* l_dst = lse_part.get() + slot_lse * static_cast<std::size_t>(m.dst);
    launch_merge<T>(o_dst, l_dst, o_part.get() + slot_o * static_cast<std::size_t>(m.src),
                    lse_part.get() + slot_lse * static_cast<std::size_t>(m.src), o_scratch.get(),
                    lse_scratch.get(), rows, p.head_dim, p.base);
    if (slot_o > 0)
      OSVS_CUDA_CHECK(cudaMemcpy(o_dst, o_scratch.get(), slot_o * sizeof(storage_t<T>),
                                 cudaMemcpyDeviceToDevice));
    if (slot_lse > 0)
      OSVS_CUDA_CHECK(
          cudaMemcpy(l_dst, lse_scratch.get(), slot_lse * sizeof(float), cudaMemcpyDeviceToDevice));
  }
  download_slots();
  r.out = slot(0);
  return r;
}

class CudaAttentionExecutor final : public AttentionExecutor {
 public:
  explicit CudaAttentionExecutor(std::string description) : description_(std::move(description)) {}
  const char* name() const override { return "cuda"; }
  bool is_gpu() const override { return true; }
  std::string describe() const override { return description_; }

  AttnStates merge_states(const AttnStates& a, const AttnStates& b, LseBase base) override {
    validate(a, b);
    return cuda::dispatch_o_type(a.o_type, "attention o", [&](auto t) {
      return merge_on_device<decltype(t)::value>(a, b, base);
    });
  }

  DecodeResult split_decode(const DecodeProblem& p, const SplitPlan& plan) override {
    validate(p, plan);
    return cuda::dispatch_o_type(p.out, "attention o", [&](auto t) {
      return decode_on_device<decltype(t)::value>(p, plan);
    });
  }

 private:
  std::string description_;
};

}  // namespace

std::unique_ptr<AttentionExecutor> make_cuda_attention_executor(std::string* why_not) {
  const std::string device = cuda::describe_device(why_not);
  if (device.empty()) return nullptr;
  return std::make_unique<CudaAttentionExecutor>(
      device + (kPortableExp ? ", portable exp/log" : ", CUDA exp/log"));
}

}  // namespace osvs
