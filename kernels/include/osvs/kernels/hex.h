// The one hex-float text of a value for messages and reports: C99's %a ("0x1.8p+3", "-0x0p+0",
// "0x1p-149"), "inf", "-inf", "nan", "-nan". Exact for every float and double (%a prints every
// significand bit), so a value quoted in a verdict can be pasted back bit for bit.
#pragma once

#include <string>

namespace osvs {

/// The hex-float text of x (a float converts to double exactly, NaN sign kept).
std::string hex(double x);

}  // namespace osvs
