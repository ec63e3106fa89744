// Hex-float text for regression files: every float and double bit pattern is written exactly, one
// spelling per pattern, and read back bit for bit:
//   finite    "0x1.8p+3", "-0x0p+0", "0x1p-149" (subnormals normalised, trailing zeros dropped)
//   infinity  "inf", "-inf"
//   NaN       "nan", "-nan" for the canonical quiet NaN (significand field = the quiet bit alone);
//             "nan(0x<field>)", "-nan(0x<field>)" for any other NaN, <field> the significand field
//             in lowercase hex without leading zeros: the float 0x7fc00001 is "nan(0x400001)", the
//             signalling 0xff800001 is "-nan(0x1)".
// Files written before NaN payloads were kept say "nan" for every NaN; they read back as the
// canonical quiet NaN, as they always did.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace osvs {

/// Exact text of a float: a C99 hex float, or inf / -inf / nan / -nan / [-]nan(0x<field>).
std::string format_hex_float(float x);

/// Exact text of a double, same forms as format_hex_float.
std::string format_hex_double(double x);

/// Parses the text of format_hex_float; nullopt unless the whole string is one hex float (or a
/// special) whose value is exactly a float.
std::optional<float> parse_hex_float(std::string_view s);

/// Parses the text of format_hex_double; nullopt unless the whole string is one hex float (or a
/// special) whose value is exactly a double.
std::optional<double> parse_hex_double(std::string_view s);

}  // namespace osvs
