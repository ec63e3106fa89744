// Hex-float text for regression files: every float and double is written exactly ("0x1.8p+3",
// "-0x0p+0", "0x1p-149", "inf", "-inf", "nan", "-nan") and read back bit for bit. NaN is written
// without payload (its sign is kept), so a payload-carrying NaN reads back as the quiet NaN of the
// same sign.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace osvs {

/// Exact text of a float: a C99 hex float, or inf / -inf / nan / -nan.
std::string format_hex_float(float x);

/// Exact text of a double, same forms as format_hex_float.
std::string format_hex_double(double x);

/// Parses the text of format_hex_float; nullopt unless the whole string is one hex float (or a
/// special) whose value is exactly a float.
std::optional<float> parse_hex_float(std::string_view s);

/// Parses the text of format_hex_double; nullopt unless the whole string is one hex float or a
/// special.
std::optional<double> parse_hex_double(std::string_view s);

}  // namespace osvs
