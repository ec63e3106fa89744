#include "merge_large_law.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>

#include "osvs/api/merge_runner.h"
#include "osvs/kernels/stable_hash.h"

namespace osvs::api {
namespace {

constexpr int kHeadDim = 128;       // the head_dim engines merge most
constexpr std::int64_t kHeads = 8;  // tokens x 8 heads (the case's rows, one, carry no heads)

std::uint64_t seed_of(const MergeKernel& k) {
  return fnv1a64("large_batch/" + k.name());
}

/// The head_dim k takes nearest kHeadDim: the largest not above it, else the smallest.
int head_dim_for(const MergeKernel& k) {
  const std::vector<int> dims = k.supported_head_dims();
  int best = dims.front();
  for (const int d : dims)
    if (d <= kHeadDim) best = d;
  return best;
}

/// The smallest o type k declares (the first of equal size).
DType smallest_o_type(const MergeKernel& k) {
  return *std::min_element(k.o_types().begin(), k.o_types().end(),
                           [](DType x, DType y) { return size_of(x) < size_of(y); });
}

/// The host's available memory (MemAvailable of /proc/meminfo), where it says.
std::optional<std::size_t> host_available_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    std::size_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  return std::nullopt;
}

std::string gib(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
  return text;
}

/// The launch of c's shape on k with the wraps at `wrap` and 2 * wrap elements: past 2 * wrap,
/// in whole tokens of kHeads rows.
GeneratedMerge launch_of(const MergeKernel& k, int d, DType t, LseBase base, std::int64_t wrap) {
  GeneratedMerge g;
  g.rows = (2 * wrap / d + 2 + kHeads - 1) / kHeads * kHeads;
  g.head_dim = d;
  g.o_type = t;
  g.base = base;
  g.shape.heads = kHeads;
  g.a = [&k, d](std::int64_t r, float* lse, float* o) { large_merge_row(k, 0, r, d, lse, o); };
  g.b = [&k, d](std::int64_t r, float* lse, float* o) { large_merge_row(k, 1, r, d, lse, o); };
  return g;
}

/// The host memory the launch takes: its images, and for a host kernel its own f32 copies of
/// both operands and the result, as merge_host_io's helpers make them (the device memory of a
/// device kernel: the images).
std::size_t host_bytes(const MergeKernel& k, const GeneratedMerge& g) {
  const std::size_t f32_copies =
      k.where() == Where::Host ? 3 * static_cast<std::size_t>(g.rows * g.head_dim) * sizeof(float)
                               : 0;
  return image_bytes(k, g) + f32_copies;
}

/// Why the launch cannot be made here ("" when it fits).
std::string memory_shortfall(const MergeKernel& k, const GeneratedMerge& g) {
  const std::optional<std::size_t> host = host_available_bytes();
  if (host && *host < host_bytes(k, g))
    return "needs " + gib(host_bytes(k, g)) + " of host memory, the host has " + gib(*host) +
           " available";
  if (k.where() == Where::Device) {
    const std::size_t free = detail::device_free_bytes();
    if (free < image_bytes(k, g))
      return "needs " + gib(image_bytes(k, g)) + " of device memory, the device has " + gib(free) +
             " free";
  }
  return "";
}

/// Row `row` of operand `side` of the launch as one-row partial states.
AttnStates row_states(const MergeKernel& k, int side, std::int64_t row, int d, DType t) {
  AttnStates s{1, d, t, {0.0f}, std::vector<float>(static_cast<std::size_t>(d))};
  large_merge_row(k, side, row, d, s.lse.data(), s.o.data());
  return s;
}

}  // namespace

std::string large_merge_excluded(const MergeKernel& k) {
  const DType t = smallest_o_type(k);
  const auto launch = [&](std::int64_t wrap) {
    return launch_of(k, head_dim_for(k), t, k.lse_bases().front(), wrap);
  };
  const GeneratedMerge full = launch(std::int64_t{1} << 31);
  if (std::string not_in = large_law_excluded(
          "o past 2^32 elements in " + std::string(to_string(t)) + ": " + gib(host_bytes(k, full)) +
          " of host memory" +
          (k.where() == Where::Device ? " and " + gib(image_bytes(k, full)) + " of device memory"
                                      : ""));
      !not_in.empty())
    return not_in;
  // Opted in: left out where the launch does not fit (a device kernel without a device is left
  // out for that by the drivers, after this).
  if (k.where() == Where::Device && !device_available(nullptr)) return "";
  const std::string short_of = memory_shortfall(k, launch(int32_wrap_elements()));
  return short_of.empty() ? "" : "not judged here: " + short_of;
}

void large_merge_row(const MergeKernel& k, int side, std::int64_t row, int d, float* lse,
                     float* o) {
  const std::uint64_t key = splitmix64_mix(
      seed_of(k) ^ (2 * static_cast<std::uint64_t>(row) + static_cast<std::uint64_t>(side)));
  *lse = static_cast<float>(static_cast<int>(key >> 56) - 128) / 16;
  for (int c = 0; c < d; ++c)
    o[c] = static_cast<float>(static_cast<int>(splitmix64_mix(key + c) >> 58) - 32) / 8;
}

MergeCase large_merge_case(const MergeKernel& k) {
  const int d = head_dim_for(k);
  const DType t = smallest_o_type(k);
  MergeCase c;
  c.parts = {row_states(k, 0, 0, d, t), row_states(k, 1, 0, d, t)};
  c.base = k.lse_bases().front();
  return c;
}

Verdict check_large_merge(const MergeKernel& k, const MergeCase& c) {
  const int d = c.parts.at(0).head_dim;
  const DType t = c.parts[0].o_type;
  const std::int64_t wrap = int32_wrap_elements();
  const GeneratedMerge g = launch_of(k, d, t, c.base, wrap);
  if (const std::string short_of = memory_shortfall(k, g); !short_of.empty())
    return Verdict::not_run("not judged: " + short_of);
  const std::vector<std::int64_t> judged = rows_around({wrap, 2 * wrap}, d, g.rows);
  AttnStates got;
  try {
    got = run_generated_merge(k, g, judged);
  } catch (const KernelFailure& e) {
    throw KernelFailure(with_likely_cause(e.what(), g.rows * d));
  }
  Verdict all;
  for (std::size_t j = 0; j < judged.size(); ++j) {
    // The accuracy law's judgement of one merge, replayed on the launch's row judged[j].
    MergeCase one;
    one.parts = {row_states(k, 0, judged[j], d, t), row_states(k, 1, judged[j], d, t)};
    one.base = c.base;
    AttnStates row{1, d, t, {got.lse[j]}, {}};
    row.o.assign(got.o.begin() + static_cast<std::ptrdiff_t>(j) * d,
                 got.o.begin() + static_cast<std::ptrdiff_t>(j + 1) * d);
    const MergeUnderTest replay{
        k.name(), [&row](const AttnStates&, const AttnStates&, LseBase) { return row; },
        k.where() == Where::Device, k.value_conventions()};
    Verdict v = check_merge_accuracy(one, replay);
    if (!v.holds() && v.judged()) {
      v.explanation = judged_row_name(judged[j], g.rows, d, "head_dim") + ": " + v.explanation;
      return v;
    }
    all.evidence.insert(all.evidence.end(), v.evidence.begin(), v.evidence.end());
  }
  return all;
}

}  // namespace osvs::api
