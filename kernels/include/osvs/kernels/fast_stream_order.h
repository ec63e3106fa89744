// The order of work of the fast kernel's streamed path (kernels/src/cuda/fast/fast_kernels.cuh,
// fast_streamed_kernel) for rows of C > 1 parts: every part has a state item (its state and its
// terms, against its own maximum) and an output item (the row's merged state, its scale, the
// outputs). Blocks take items in ticket order; an output item of row r comes L rows of state
// items after the state items of row r, so that the terms it rescales are still in L2 and its
// row's states were taken by blocks that started before it:
//
//   tickets [0, L C)                 state items of rows 0 .. L - 1
//   then per step s = L .. M - 1     the C state items of row s, then the C output items of row s -
//   L then                             the output items of rows M - L .. M - 1
//
// A pure function of (ticket, M, C, L), the same on host and device; it orders work only, never
// arithmetic (the bits are fast_schedule.h's).
#pragma once

#include <cstdint>

#include "osvs/kernels/hd.h"

namespace osvs {

struct FastStreamItem {
  std::int64_t row = 0;
  std::int64_t part = 0;
  bool output = false;  ///< an output item (else a state item)
};

/// The item of ticket t in [0, 2 M C), for M rows of C parts and a lag of L rows (1 <= L <= M).
OSVS_HD FastStreamItem fast_stream_item(std::int64_t t, std::int64_t M, std::int64_t C,
                                        std::int64_t L) {
  const std::int64_t head = L * C;
  if (t < head) return {t / C, t % C, false};
  t -= head;
  const std::int64_t mid = (M - L) * 2 * C;
  if (t < mid) {
    const std::int64_t s = L + t / (2 * C), w = t % (2 * C);
    return w < C ? FastStreamItem{s, w, false} : FastStreamItem{s - L, w - C, true};
  }
  t -= mid;
  return {M - L + t / C, t % C, true};
}

/// The lag of the streamed path: rows whose outputs (4 bytes an element) fill about `l2_bytes`,
/// at least 1, at most M.
OSVS_HD std::int64_t fast_stream_lag(std::int64_t M, std::int64_t n, std::int64_t l2_bytes) {
  std::int64_t L = l2_bytes / (4 * n);
  if (L < 1) L = 1;
  return L < M ? L : M;
}

}  // namespace osvs
