// Hex-float text: printf's %a is exact for doubles (and so for floats widened to double); the
// reader accepts only what the writer could have written, so a hand edit that is not exact fails.
#include "osvs/replay/hex_float.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace osvs {
namespace {

/// "nan", "-nan", "inf", "-inf" for the specials, nullopt for finite values.
std::optional<std::string> special_text(double x) {
  if (std::isnan(x)) return std::signbit(x) ? "-nan" : "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  return std::nullopt;
}

/// The special named by s, nullopt if s names none.
std::optional<double> parse_special(std::string_view s) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (s == "inf") return inf;
  if (s == "-inf") return -inf;
  if (s == "nan") return std::copysign(nan, 1.0);
  if (s == "-nan") return std::copysign(nan, -1.0);
  return std::nullopt;
}

/// True for the characters a C99 hex float may contain after its optional sign.
bool is_hex_float_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == 'x' ||
         c == 'X' || c == '.' || c == 'p' || c == 'P' || c == '+' || c == '-';
}

}  // namespace

std::string format_hex_double(double x) {
  if (auto s = special_text(x)) return *s;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", x);  // exact: %a prints every significand bit
  return buf;
}

std::string format_hex_float(float x) {
  return format_hex_double(static_cast<double>(x));  // widening is exact, NaN sign kept
}

std::optional<double> parse_hex_double(std::string_view s) {
  if (auto v = parse_special(s)) return v;
  const std::size_t body = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (s.size() < body + 3 || s[body] != '0' || (s[body + 1] != 'x' && s[body + 1] != 'X'))
    return std::nullopt;  // only hex floats: a decimal "0.1" is not exact and is refused
  for (char c : s)
    if (!is_hex_float_char(c)) return std::nullopt;
  const std::string text(s);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;  // trailing characters
  if (!std::isfinite(v)) return std::nullopt;                  // overflowed a finite literal
  return v;
}

std::optional<float> parse_hex_float(std::string_view s) {
  const std::optional<double> v = parse_hex_double(s);
  if (!v) return std::nullopt;
  if (std::isnan(*v)) return std::copysign(std::numeric_limits<float>::quiet_NaN(), *v);
  const float f = static_cast<float>(*v);
  if (static_cast<double>(f) != *v) return std::nullopt;  // not exactly a float (or out of range)
  return f;
}

}  // namespace osvs
