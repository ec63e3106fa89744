// What the fast kernel's probes (fast_cluster_probe.cu, l2_reread_probe.cu) share: the chunk
// sizes of the fast layout they cut matrices into, and their one line of output per launch.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "osvs/kernels/bandwidth.h"
#include "osvs/kernels/fast_plan.h"

namespace osvs::cuda::fast {

/// float4s a thread holds in the fast layout, and the elements of a block (part, chunk) of T
/// threads.
inline constexpr int kK = kFastBlockVec;
template <int T>
inline constexpr std::int64_t kSpanOf = std::int64_t{T} * kK * 4;

/// One launch's line: its time and its copy's (the same run), the fraction, the element rate.
inline void print(const char* shape, const std::string& what, const LaunchTiming& t,
                  std::int64_t elements) {
  std::printf("%-12s %-46s %9.4f ms %9.4f ms %7.1f%% %7.1f G elements/s\n", shape, what.c_str(),
              t.ms, t.copy_ms, 100.0 * t.fraction_of_copy,
              static_cast<double>(elements) / t.ms / 1e6);
}

}  // namespace osvs::cuda::fast
