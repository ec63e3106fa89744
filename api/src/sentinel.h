// The runners' guard zones and sentinel: output buffers are surrounded by kGuardBytes on each
// side and filled with a signalling NaN whose payload no arithmetic produces (generated NaNs are
// quiet), so an element still holding it was not written and a guard byte changed was written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "osvs/kernels/dtype.h"

namespace osvs {

/// Guard zone on each side of an output: 256 bytes catches the usual off-by-one-vector writes.
inline constexpr std::size_t kGuardBytes = 256;

inline constexpr std::uint32_t kSentinel32 = 0x7fa5a5a5u;
inline constexpr std::uint16_t kSentinelBf16 = 0x7fa5u;
inline constexpr std::uint16_t kSentinelF16 = 0x7da5u;
/// A state reduction's output words (64 bits a field, zero-extended): a binary64 signalling NaN
/// whose payload no arithmetic produces; a field narrower than 64 bits never holds it.
inline constexpr std::uint64_t kSentinel64 = 0x7ff5a5a5a5a5a5a5ull;

/// An index array's (i32, i64): integers no row's index reaches.
inline constexpr std::uint32_t kSentinelI32 = 0x7fa5a5a5u;

inline void fill_sentinel(DType t, unsigned char* p, std::size_t bytes) {
  if (t == DType::I64) {
    for (std::size_t i = 0; i + 8 <= bytes; i += 8) std::memcpy(p + i, &kSentinel64, 8);
    return;
  }
  if (t == DType::F32 || t == DType::I32) {
    for (std::size_t i = 0; i + 4 <= bytes; i += 4) std::memcpy(p + i, &kSentinel32, 4);
    return;
  }
  const std::uint16_t s = t == DType::BF16 ? kSentinelBf16 : kSentinelF16;
  for (std::size_t i = 0; i + 2 <= bytes; i += 2) std::memcpy(p + i, &s, 2);
}

inline bool is_sentinel(DType t, const unsigned char* p) {
  if (t == DType::I64) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v == kSentinel64;
  }
  if (t == DType::F32 || t == DType::I32) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v == kSentinel32;
  }
  std::uint16_t v;
  std::memcpy(&v, p, 2);
  return v == (t == DType::BF16 ? kSentinelBf16 : kSentinelF16);
}

}  // namespace osvs
