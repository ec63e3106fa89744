#include "osvs/kernels/hex.h"

#include <cmath>
#include <cstdio>

namespace osvs {

std::string hex(double x) {
  if (std::isnan(x)) return std::signbit(x) ? "-nan" : "nan";  // no payload: glibc prints none
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  char buf[32];  // "-0x1.fffffffffffffp+1023" is 24 characters
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

}  // namespace osvs
