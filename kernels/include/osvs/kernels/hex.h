// The texts of numbers in messages and reports.
//
// hex(x): C99's %a ("0x1.8p+3", "-0x0p+0", "0x1p-149"), "inf", "-inf", "nan", "-nan". Exact for
// every float and double (%a prints every significand bit), so a value quoted in a verdict can be
// pasted back bit for bit.
//
// readable(x): a value of the kernel's type (an input, an output, a state, an exact value it is
// compared with) for a person and for pasting back: the hex float, then the decimal to 9
// significant digits (%.9g, which round-trips any float; the hex is the exact text of a double).
//   readable(1.0f)           "0x1p+0 (1)"
//   readable(0x1.fffffep-1f) "0x1.fffffep-1 (0.99999994)"
//   readable(12.0)           "0x1.8p+3 (12)"
//   readable(-0.0)           "-0x0p+0 (-0)"
//   readable(0x1p-149f)      "0x1p-149 (1.40129846e-45)"    (a float subnormal is a normal double)
//   readable(0x1p-1074)      "0x0.0000000000001p-1022 (4.94065646e-324)"    (glibc's %a)
//   readable(1.0 / 3)        "0x1.5555555555555p-2 (0.333333333)"
//   readable(INFINITY)       "inf"  (and "-inf": the decimal would add nothing)
//   readable(NAN)            "nan (bits 0x7fc00000)"  (and "-nan (bits 0xffc00000)")
// A NaN shows its bits: the float's 8 hex digits when the double is a float NaN converted (the 29
// low significand bits zero; the conversion keeps sign and payload, but quiets a signalling NaN),
// else the double's 16 ("nan (bits 0x7ff8000000000001)").
//
// digits9(x): a magnitude that is no value of the kernel's type (an error, a bound, a distance in
// ulps, a relative error, seconds) to 9 significant digits, %.9g: "0.5", "8388608",
// "5.96046448e-08", "-0", "inf", "-inf", "nan", "-nan". Inline: the registry's headers
// (api/accuracy.h) use it in adapters and plugins, which do not link osvs_kernels.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

namespace osvs {

/// The hex-float text of x (a float converts to double exactly, NaN sign kept).
std::string hex(double x);

/// The hex float and the 9-digit decimal of x, "0x1.8p+3 (12)"; "inf", "-inf"; a NaN with its bits.
std::string readable(double x);

/// readable() of a float: the same text, but a NaN shows the float's own 32 bits, a signalling
/// one too (its conversion to double would quiet it: the runner's sentinel 0x7fa5a5a5 would read
/// 0x7fe5a5a5).
std::string readable(float x);

/// x to 9 significant digits (%.9g), "inf", "-inf", "nan", "-nan".
inline std::string digits9(double x) {
  if (std::isnan(x)) return std::signbit(x) ? "-nan" : "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  char buf[32];  // "-1.23456789e-308" is 16 characters
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return buf;
}

}  // namespace osvs
