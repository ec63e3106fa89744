// The GPU executor of the combine grid. Per chunk of 2^26 pairs: the pairs are generated on the
// device from their indices, the entry's own `pairs` launcher combines them in both orders (the
// operator's device code, compiled with the kernels' flags), and a check kernel judges every pair
// with grid_check.h, keeping counters and classification histograms in shared memory and one
// outcome byte per pair; the rare pairs whose bound verdict the double reference leaves undecided
// are listed by index. Only the counters come back per chunk; a chunk's outcome bytes come back
// only when it holds a counterexample still wanted (so at most `examples` times per law). The
// listed pairs are then combined again on the device (same launcher, same inputs) and judged on
// the host, where MPFR decides the undecided ones. The identity laws run on the 458752 grid states
// through the same launcher; their results are judged on the host.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "osvs/exhaustive/grid/grid_run.h"
#include "osvs/exhaustive/grid/mpfr_one_step.h"
#include "osvs/kernels/combine_operator.h"
#include "osvs/kernels/exp.h"

namespace osvs::exhaustive::grid {
namespace {

constexpr std::int64_t kChunk = std::int64_t{1} << 26;
constexpr int kBlock = 256;
/// Undecided bound verdicts the host takes (a 2^-40 sliver of the pairs: a flood means a bug).
constexpr std::size_t kMaxUndecided = std::size_t{1} << 20;

/// A pair the host looks at again: a wanted counterexample, an undecided verdict or the worst.
struct Flagged {
  std::uint32_t pass;
  std::uint32_t undecided;  ///< 1: the device's double reference left the bound verdict open
  std::uint64_t index;
};

/// What the check kernel counts (pair laws only), in device memory.
struct DeviceCounters {
  unsigned long long comm_checked, comm_violations, comm_outside, comm_differences;
  unsigned long long bound_checked, bound_violations, bound_outside, bound_undecided;
  unsigned long long worst;  ///< (float bits of err / B) << 32 | (2^32 - 1 - index): max wins
  unsigned long long comm_by_key[kPairKeys], comm_outside_by_key[kPairKeys];
  unsigned long long bound_by_key[kPairKeys];
  unsigned long long undecided_slots;  ///< next free entry of the undecided list
};
constexpr std::size_t kScalarCounters = 9;  ///< the fields before the histograms

__global__ void generate_kernel(State* a, State* b, std::uint64_t first, std::uint64_t stride,
                                std::uint32_t pass, std::int64_t n) {
  const std::int64_t j = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (j >= n) return;
  const GridPair p = grid_pair(first + static_cast<std::uint64_t>(j) * stride, pass);
  a[j] = p.a;
  b[j] = p.b;
}

__device__ void add_histogram(const unsigned* shared, unsigned long long* global) {
  for (int k = threadIdx.x; k < kPairKeys; k += blockDim.x)
    if (shared[k] != 0) atomicAdd(global + k, static_cast<unsigned long long>(shared[k]));
}

__global__ void check_kernel(const State* ab, const State* ba, std::uint8_t* bits,
                             std::uint64_t first, std::uint64_t stride, std::uint32_t pass,
                             std::int64_t n, double exp_ulp, DeviceCounters* c,
                             Flagged* undecided) {
  __shared__ unsigned comm[kPairKeys], comm_outside[kPairKeys], bound[kPairKeys];
  __shared__ unsigned long long counts[8], worst;
  for (int k = threadIdx.x; k < kPairKeys; k += blockDim.x)
    comm[k] = comm_outside[k] = bound[k] = 0;
  if (threadIdx.x < 8) counts[threadIdx.x] = 0;
  if (threadIdx.x == 0) worst = 0;
  __syncthreads();
  unsigned long long local[8] = {}, my_worst = 0;
  const std::int64_t step = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t j = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < n; j += step) {
    const std::uint64_t i = first + static_cast<std::uint64_t>(j) * stride;
    const GridPair p = grid_pair(i, pass);
    const PairOutcome o = check_pair(p.a, p.b, ab[j], ba[j], exp_ulp);
    bits[j] = o.bits;
    const int key = pair_key(p);
    if (o.commutativity_domain) {
      ++local[0];
      if (o.bits & kCommutativityViolated) ++local[1], atomicAdd(&comm[key], 1u);
    } else {
      ++local[2];
      if (o.bits & kCommutativityDiffers) ++local[3], atomicAdd(&comm_outside[key], 1u);
    }
    if (o.bound_domain) {
      ++local[4];
      if (o.bits & kBoundViolated) ++local[5], atomicAdd(&bound[key], 1u);
      if (o.bits & kBoundUndecided) {  // rare (a 2^-40 sliver): listed directly, in any order
        ++local[7];
        const unsigned long long slot = atomicAdd(&c->undecided_slots, 1ull);
        if (slot < kMaxUndecided) undecided[slot] = Flagged{pass, 1, i};
      }
      const float r = static_cast<float>(o.ratio);  // rounds up to inf when too large
      const unsigned long long w = (static_cast<unsigned long long>(float_bits(r)) << 32) |
                                   (0xffffffffu - static_cast<std::uint32_t>(i));
      my_worst = w > my_worst ? w : my_worst;
    } else {
      ++local[6];
    }
  }
  for (int k = 0; k < 8; ++k)
    if (local[k] != 0) atomicAdd(&counts[k], local[k]);
  atomicMax(&worst, my_worst);
  __syncthreads();
  add_histogram(comm, c->comm_by_key);
  add_histogram(comm_outside, c->comm_outside_by_key);
  add_histogram(bound, c->bound_by_key);
  if (threadIdx.x < 8 && counts[threadIdx.x] != 0)
    atomicAdd(&c->comm_checked + threadIdx.x, counts[threadIdx.x]);
  if (threadIdx.x == 0) atomicMax(&c->worst, worst);
}

unsigned blocks_for(std::int64_t n) {
  return static_cast<unsigned>((n + kBlock - 1) / kBlock);
}

/// The device's buffers for one chunk and the launcher of the operator's pairs.
struct Chunks {
  Chunks(const CombineDeviceOps& ops, std::int64_t capacity)
      : ops(ops), a(capacity), b(capacity), ab(capacity), ba(capacity), bits(capacity) {}

  /// a (+) b and b (+) a on the device for the first n entries of a and b.
  void combine_both(std::int64_t n) {
    ops.pairs(a.get(), b.get(), ab.get(), n);
    cuda::check_launch("the operator's pairs kernel (a, b)");
    ops.pairs(b.get(), a.get(), ba.get(), n);
    cuda::check_launch("the operator's pairs kernel (b, a)");
  }
  /// Combines host pairs on the device: out_ab[k] = a[k] (+) b[k], out_ba[k] = b[k] (+) a[k].
  void combine_host(const std::vector<State>& host_a, const std::vector<State>& host_b,
                    std::vector<State>& out_ab, std::vector<State>& out_ba) {
    const auto n = static_cast<std::int64_t>(host_a.size());
    for (std::int64_t done = 0; done < n; done += capacity()) {
      const std::int64_t m = std::min(capacity(), n - done);
      const std::size_t bytes = static_cast<std::size_t>(m) * sizeof(State);
      OSVS_CUDA_CHECK(cudaMemcpy(a.get(), host_a.data() + done, bytes, cudaMemcpyHostToDevice));
      OSVS_CUDA_CHECK(cudaMemcpy(b.get(), host_b.data() + done, bytes, cudaMemcpyHostToDevice));
      combine_both(m);
      OSVS_CUDA_CHECK(cudaMemcpy(out_ab.data() + done, ab.get(), bytes, cudaMemcpyDeviceToHost));
      OSVS_CUDA_CHECK(cudaMemcpy(out_ba.data() + done, ba.get(), bytes, cudaMemcpyDeviceToHost));
    }
  }
  std::int64_t capacity() const { return static_cast<std::int64_t>(a.size()); }

  const CombineDeviceOps& ops;
  cuda::DeviceBuffer<State> a, b, ab, ba;
  cuda::DeviceBuffer<std::uint8_t> bits;
};

struct PairRun {
  std::vector<Flagged> examples, undecided;
  std::vector<Flagged> worst;  ///< the largest err / B of each pass
  DeviceCounters counters{};
};

PairRun run_pairs(Chunks& chunks, const GridSpec& spec, double exp_ulp, int sm_count) {
  PairRun run;
  cuda::DeviceBuffer<DeviceCounters> counters(1);
  cuda::DeviceBuffer<Flagged> undecided(kMaxUndecided);
  OSVS_CUDA_CHECK(cudaMemset(counters.get(), 0, sizeof(DeviceCounters)));
  std::vector<std::uint8_t> bits;
  std::size_t noted_comm = 0, noted_outside = 0, noted_bound = 0;
  unsigned long long seen[kScalarCounters] = {};
  const unsigned check_blocks = static_cast<unsigned>(sm_count) * 8;
  for (std::uint32_t pass = spec.first_pass; pass < spec.first_pass + spec.passes; ++pass) {
    for (std::int64_t done = 0; done < static_cast<std::int64_t>(spec.count);
         done += chunks.capacity()) {
      const std::int64_t n =
          std::min(chunks.capacity(), static_cast<std::int64_t>(spec.count) - done);
      const std::uint64_t first = spec.first + static_cast<std::uint64_t>(done) * spec.stride;
      generate_kernel<<<blocks_for(n), kBlock>>>(chunks.a.get(), chunks.b.get(), first, spec.stride,
                                                 pass, n);
      cuda::check_launch("generate_kernel");
      chunks.combine_both(n);
      check_kernel<<<std::min(check_blocks, blocks_for(n)), kBlock>>>(
          chunks.ab.get(), chunks.ba.get(), chunks.bits.get(), first, spec.stride, pass, n, exp_ulp,
          counters.get(), undecided.get());
      cuda::check_launch("check_kernel");
      unsigned long long now[kScalarCounters];
      OSVS_CUDA_CHECK(cudaMemcpy(now, counters.get(), sizeof now, cudaMemcpyDeviceToHost));
      const bool more_comm = now[1] > seen[1] && noted_comm < spec.examples;
      const bool more_outside = now[3] > seen[3] && noted_outside < spec.examples;
      const bool more_bound = now[5] > seen[5] && noted_bound < spec.examples;
      std::copy(now, now + kScalarCounters, seen);
      if (!(more_comm || more_outside || more_bound)) continue;
      bits.resize(static_cast<std::size_t>(n));
      OSVS_CUDA_CHECK(
          cudaMemcpy(bits.data(), chunks.bits.get(), bits.size(), cudaMemcpyDeviceToHost));
      for (std::int64_t j = 0; j < n; ++j) {
        const std::uint8_t b = bits[static_cast<std::size_t>(j)];
        if (b == 0) continue;
        const Flagged f{pass, 0, first + static_cast<std::uint64_t>(j) * spec.stride};
        bool want = false;
        if ((b & kCommutativityViolated) && noted_comm < spec.examples) ++noted_comm, want = true;
        if ((b & kCommutativityDiffers) && noted_outside < spec.examples)
          ++noted_outside, want = true;
        if ((b & kBoundViolated) && noted_bound < spec.examples) ++noted_bound, want = true;
        if (want) run.examples.push_back(f);
      }
    }
    OSVS_CUDA_CHECK(
        cudaMemcpy(&run.counters, counters.get(), sizeof(DeviceCounters), cudaMemcpyDeviceToHost));
    const unsigned long long w = run.counters.worst;
    if (w != 0)
      run.worst.push_back({pass, 0, 0xffffffffu - static_cast<std::uint32_t>(w & 0xffffffffu)});
    OSVS_CUDA_CHECK(cudaMemset(&counters.get()->worst, 0, sizeof(unsigned long long)));
  }
  OSVS_CUDA_CHECK(
      cudaMemcpy(&run.counters, counters.get(), sizeof(DeviceCounters), cudaMemcpyDeviceToHost));
  if (run.counters.undecided_slots > kMaxUndecided)
    throw std::runtime_error(
        "combine grid: more than 2^20 bound verdicts left open by the double reference (its "
        "margin, one_step_bound.h, is 2^-40 relative: so many is a defect)");
  run.undecided.resize(static_cast<std::size_t>(run.counters.undecided_slots));
  if (!run.undecided.empty())
    OSVS_CUDA_CHECK(cudaMemcpy(run.undecided.data(), undecided.get(),
                               run.undecided.size() * sizeof(Flagged), cudaMemcpyDeviceToHost));
  return run;
}

/// The device's counts into the tally's pair laws.
void add_counts(const DeviceCounters& c, GridTally& t) {
  LawResult& comm = t.law(Law::Commutativity);
  LawResult& bound = t.law(Law::OneStepBound);
  comm.checked += c.comm_checked;
  comm.violations += c.comm_violations;
  comm.outside += c.comm_outside;
  comm.outside_differences += c.comm_differences;
  bound.checked += c.bound_checked;
  bound.violations += c.bound_violations;
  bound.outside += c.bound_outside;
  bound.undecided += c.bound_undecided;
  for (int k = 0; k < kPairKeys; ++k) {
    comm.by_key[k] += c.comm_by_key[k];
    comm.outside_by_key[k] += c.comm_outside_by_key[k];
    bound.by_key[k] += c.bound_by_key[k];
  }
}

/// The flagged pairs, combined again on the device and judged on the host: undecided verdicts
/// decided by MPFR (a failure adds a violation), counterexamples noted, the worst pair recorded.
void judge_flagged(Chunks& chunks, PairRun& run, double exp_ulp, GridTally& t) {
  std::vector<Flagged> all = run.examples;
  all.insert(all.end(), run.undecided.begin(), run.undecided.end());
  all.insert(all.end(), run.worst.begin(), run.worst.end());
  // grid order; a pair listed twice keeps its undecided entry (sorted first)
  std::sort(all.begin(), all.end(), [](const Flagged& x, const Flagged& y) {
    if (x.pass != y.pass) return x.pass < y.pass;
    return x.index != y.index ? x.index < y.index : x.undecided > y.undecided;
  });
  all.erase(std::unique(all.begin(), all.end(),
                        [](const Flagged& x, const Flagged& y) {
                          return x.pass == y.pass && x.index == y.index;
                        }),
            all.end());
  if (all.empty()) return;
  std::vector<State> a(all.size()), b(all.size()), ab(all.size()), ba(all.size());
  for (std::size_t k = 0; k < all.size(); ++k) {
    const GridPair p = grid_pair(all[k].index, all[k].pass);
    a[k] = p.a;
    b[k] = p.b;
  }
  chunks.combine_host(a, b, ab, ba);
  LawResult& bound = t.law(Law::OneStepBound);
  for (std::size_t k = 0; k < all.size(); ++k) {
    const GridPair p = grid_pair(all[k].index, all[k].pass);
    // The device counted its open verdicts as undecided, not as violations: MPFR's failures are
    // added here. Its decided verdicts are counted already; the host's double reference agrees
    // with them or leaves them open (the margin covers both references), and MPFR agrees too.
    const bool device_open = all[k].undecided != 0;
    bool by_mpfr = false;
    const PairOutcome o = check_pair_decided(p, ab[k], ba[k], exp_ulp, device_open, &by_mpfr);
    if (device_open && (o.bits & kBoundViolated)) {
      ++bound.violations;
      ++bound.by_key[static_cast<std::size_t>(pair_key(p))];
    }
    if (o.bits != 0) t.note_pair(all[k].pass, all[k].index, p, ab[k], ba[k], o, exp_ulp, by_mpfr);
    if (o.bound_domain) t.note_ratio(all[k].pass, all[k].index, p, ab[k], ba[k], o.ratio, exp_ulp);
  }
}

/// The identity laws over every grid state: four launches of the operator's pairs kernel.
void run_states(Chunks& chunks, const CombineHostOps& host, GridTally& t) {
  const State e = host.initial(), f = seed_initial_state();
  const std::size_t n = kGridStates;
  std::vector<State> s(n), es(n), se(n), fs(n), sf(n);
  for (std::size_t k = 0; k < n; ++k) s[k] = grid_state(k).s;
  chunks.combine_host(std::vector<State>(n, e), s, es, se);
  chunks.combine_host(std::vector<State>(n, f), s, fs, sf);
  for (std::size_t k = 0; k < n; ++k) {
    const GridState g = grid_state(k);
    const StateOutcome o = check_state(g.s, es[k], se[k], fs[k], sf[k]);
    t.count_state(g, o);
    if (o.bits != 0) t.note_state(k, g, e, o, es[k], se[k], fs[k], sf[k]);
  }
  std::vector<State> ee(1), unused(1);
  chunks.combine_host({e}, {e}, ee, unused);
  t.count_initial(e, ee[0]);
}

}  // namespace

bool grid_device_present(std::string* why_not) {
  return !cuda::describe_device(why_not).empty();
}

GridResult run_grid_on_device(CombineKind op, const GridSpec& spec) {
  spec.validate();
  std::string why;
  const std::string device = cuda::describe_device(&why);
  if (device.empty()) throw std::runtime_error("combine grid on the device: " + why);
  const CombineDeviceOps& ops = device_ops(op);  // InvalidLaunch without device code
  const auto start = std::chrono::steady_clock::now();
  const double exp_ulp = spec.exp_ulp >= 0 ? spec.exp_ulp : kexp_max_ulp(true);
  GridResult r = empty_result(op, spec, "cuda", exp_ulp);
  r.device = device;
  int sm_count = 0;
  OSVS_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0));
  const std::int64_t wanted =
      std::max<std::int64_t>(static_cast<std::int64_t>(std::min<std::uint64_t>(spec.count, kChunk)),
                             spec.states ? static_cast<std::int64_t>(kGridStates) : 1);
  Chunks chunks(ops, wanted);
  GridTally t(spec.examples);
  PairRun run = run_pairs(chunks, spec, exp_ulp, sm_count);
  add_counts(run.counters, t);
  judge_flagged(chunks, run, exp_ulp, t);
  if (spec.states) run_states(chunks, op.op().host, t);
  std::vector<State> ee(1), unused(1);
  chunks.combine_host({r.initial}, {r.initial}, ee, unused);
  r.initial_twice = ee[0];
  take_tally(r, t, op);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace osvs::exhaustive::grid
