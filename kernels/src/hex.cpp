#include "osvs/kernels/hex.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace osvs {

std::string hex(double x) {
  if (std::isnan(x)) return std::signbit(x) ? "-nan" : "nan";  // no payload: glibc prints none
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  char buf[32];  // "-0x1.fffffffffffffp+1023" is 24 characters
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

std::string readable(double x) {
  if (std::isinf(x)) return hex(x);
  char buf[48];
  if (std::isnan(x)) {
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    // A float NaN converted to double: sign, exponent and the float's 23 significand bits moved
    // up by 29, the 29 low bits zero. Shown as the float's bits, else as the double's.
    constexpr std::uint64_t kLow29 = (std::uint64_t{1} << 29) - 1;
    if ((bits & kLow29) == 0) {
      const std::uint64_t significand = (bits >> 29) & 0x7fffffu;
      const std::uint64_t f = ((bits >> 63) << 31) | (0xffu << 23) | significand;
      std::snprintf(buf, sizeof buf, " (bits 0x%08llx)", static_cast<unsigned long long>(f));
    } else {
      std::snprintf(buf, sizeof buf, " (bits 0x%016llx)", static_cast<unsigned long long>(bits));
    }
    return hex(x) + buf;
  }
  std::snprintf(buf, sizeof buf, " (%.9g)", x);
  return hex(x) + buf;
}

std::string readable(float x) {
  if (!std::isnan(x)) return readable(static_cast<double>(x));
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  char buf[24];
  std::snprintf(buf, sizeof buf, " (bits 0x%08x)", static_cast<unsigned>(bits));
  return (std::signbit(x) ? std::string("-nan") : std::string("nan")) + buf;
}

}  // namespace osvs
