// Hex-float text, written and read from the bits: the writer spells every bit pattern one way (a
// NaN with its sign and significand field), the reader accepts only text whose value is exactly a
// float (or double), so a hand edit that is not exact fails rather than being rounded.
//
// Both directions work on the IEEE fields directly, with no libc conversion: printf's %a would
// need the float widened to double, which turns a signalling NaN quiet, and strtod's hex reading
// costs far more than the bit arithmetic (the writer and reader round-trip all 2^32 floats in a
// test).
#include "osvs/replay/hex_float.h"

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace osvs {
namespace {

/// The IEEE binary interchange format of T (float or double): its bits and field widths, read
/// from std::numeric_limits (digits counts the implicit bit; max_exponent and min_exponent are
/// one above IEEE's emax and emin).
template <class T>
struct Fields {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  static_assert(std::numeric_limits<T>::is_iec559 && sizeof(Bits) == sizeof(T));
  static constexpr int kFractionBits = std::numeric_limits<T>::digits - 1;       // 23, 52
  static constexpr int kMaxExponent = std::numeric_limits<T>::max_exponent - 1;  // 127, 1023
  static constexpr int kMinExponent = std::numeric_limits<T>::min_exponent - 1;  // -126, -1022
  static constexpr int kTotalBits = 8 * sizeof(T);
  static constexpr Bits kSignBit = Bits{1} << (kTotalBits - 1);
  static constexpr Bits kFractionMask = (Bits{1} << kFractionBits) - 1;
  static constexpr Bits kExponentMask = ~kSignBit & ~kFractionMask;
  static constexpr Bits kQuietBit = Bits{1} << (kFractionBits - 1);
  static constexpr int kBias = kMaxExponent;
  /// Exponent of the lowest bit a value may have (the smallest subnormal).
  static constexpr int kLowestBit = kMinExponent - kFractionBits;
};
static_assert(Fields<float>::kLowestBit == -149 && Fields<double>::kLowestBit == -1074);

constexpr char kHexDigits[] = "0123456789abcdef";

/// The text being written, on the stack: one std::string is made from it at the end.
struct Text {
  char chars[40];  // longest: "-nan(0x" + 13 hex digits + ")", "-0x1.<13 digits>p-1074"
  std::size_t size = 0;
  Text& operator+=(char c) {
    chars[size++] = c;
    return *this;
  }
  Text& operator+=(std::string_view s) {
    for (char c : s) chars[size++] = c;
    return *this;
  }
};

/// Appends v in lowercase hex, no leading zeros (v != 0).
template <class Bits>
void append_hex(Text& out, Bits v) {
  char digits[2 * sizeof(Bits)];
  int n = 0;
  for (; v != 0; v >>= 4) digits[n++] = kHexDigits[v & 0xf];
  while (n > 0) out += digits[--n];
}

/// Appends a decimal exponent with its sign always written ("+3", "-149").
void append_exponent(Text& out, int e) {
  out += e < 0 ? '-' : '+';
  const auto magnitude = static_cast<unsigned>(e < 0 ? -e : e);
  char digits[10];
  int n = 0;
  unsigned v = magnitude;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) out += digits[--n];
}

/// "0x1.8p+3": 1.<fraction in hex, trailing zeros dropped>p<exponent>, subnormals normalised.
template <class T>
void append_finite(Text& out, typename Fields<T>::Bits magnitude) {
  using F = Fields<T>;
  using Bits = typename F::Bits;
  if (magnitude == 0) {
    out += "0x0p+0";
    return;
  }
  const auto biased = static_cast<int>(magnitude >> F::kFractionBits);
  Bits fraction = magnitude & F::kFractionMask;
  int exponent = biased - F::kBias;
  if (biased == 0) {  // subnormal: shift the leading 1 into the implicit bit's place
    const int shift = std::countl_zero(fraction) - (F::kTotalBits - 1 - F::kFractionBits);
    fraction = (fraction << shift) & F::kFractionMask;
    exponent = F::kMinExponent - shift;
  }
  out += "0x1";
  if (fraction != 0) {
    constexpr int kPad = (4 - F::kFractionBits % 4) % 4;  // whole hex digits: 23 -> 24 bits
    Bits digits = fraction << kPad;
    int count = (F::kFractionBits + kPad) / 4;
    while ((digits & 0xf) == 0) {
      digits >>= 4;
      --count;
    }
    out += '.';
    for (int i = count - 1; i >= 0; --i) out += kHexDigits[(digits >> (4 * i)) & 0xf];
  }
  out += 'p';
  append_exponent(out, exponent);
}

template <class T>
std::string format_hex(T x) {
  using F = Fields<T>;
  const auto bits = std::bit_cast<typename F::Bits>(x);
  Text out;
  if (bits & F::kSignBit) out += '-';
  const auto magnitude = bits & ~F::kSignBit;
  const auto fraction = magnitude & F::kFractionMask;
  if ((magnitude & F::kExponentMask) != F::kExponentMask) {
    append_finite<T>(out, magnitude);
  } else if (fraction == 0) {
    out += "inf";
  } else if (fraction == F::kQuietBit) {
    out += "nan";  // the canonical quiet NaN: the form files have always used
  } else {
    out += "nan(0x";
    append_hex(out, fraction);
    out += ')';
  }
  return std::string(out.chars, out.size);
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// "inf", "nan" or "nan(0x<fraction>)" after the sign: exactly the writer's spellings.
template <class T>
std::optional<T> parse_special(std::string_view s, bool negative) {
  using F = Fields<T>;
  using Bits = typename F::Bits;
  const Bits sign = negative ? F::kSignBit : 0;
  if (s == "inf") return std::bit_cast<T>(sign | F::kExponentMask);
  if (s == "nan") return std::bit_cast<T>(sign | F::kExponentMask | F::kQuietBit);
  constexpr std::string_view kOpen = "nan(0x";
  if (!s.starts_with(kOpen) || !s.ends_with(')')) return std::nullopt;
  const std::string_view digits = s.substr(kOpen.size(), s.size() - kOpen.size() - 1);
  if (digits.empty() || digits.size() > 2 * sizeof(Bits) || digits[0] == '0') return std::nullopt;
  Bits fraction = 0;
  for (char c : digits) {
    if (c >= 'A' && c <= 'F') return std::nullopt;  // the writer's lowercase only
    const int d = hex_value(c);
    if (d < 0) return std::nullopt;
    fraction = (fraction << 4) | static_cast<Bits>(d);
  }
  // A fraction of 0 is infinity, the quiet bit alone is written "nan", wider ones do not fit.
  if (fraction > F::kFractionMask || fraction == F::kQuietBit) return std::nullopt;
  return std::bit_cast<T>(sign | F::kExponentMask | fraction);
}

/// A C99 hex float "0x<hex>[.<hex>][p<decimal>]" (after the sign) whose value is exactly a T.
template <class T>
std::optional<T> parse_finite(std::string_view s, bool negative) {
  using F = Fields<T>;
  if (s.size() < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return std::nullopt;
  std::size_t i = 2;
  std::uint64_t significand = 0;
  std::int64_t exponent = 0;
  bool any_digit = false, dropped_bits = false, after_point = false;
  for (; i < s.size(); ++i) {
    if (s[i] == '.' && !after_point) {
      after_point = true;
      continue;
    }
    const int d = hex_value(s[i]);
    if (d < 0) break;
    any_digit = true;
    if (significand >> 60 == 0) {  // room for one more digit in 64 bits
      significand = significand * 16 + static_cast<unsigned>(d);
      if (after_point) exponent -= 4;
    } else {  // more than 60 significant bits: exact in no binary64 unless the digit is 0
      dropped_bits |= d != 0;
      if (!after_point) exponent += 4;
    }
  }
  if (!any_digit) return std::nullopt;
  if (i < s.size() && (s[i] == 'p' || s[i] == 'P')) {
    ++i;
    const bool negative_exponent = i < s.size() && s[i] == '-';
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (i == s.size()) return std::nullopt;
    std::int64_t written = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i)
      if (written < (std::int64_t{1} << 40)) written = written * 10 + (s[i] - '0');  // saturates
    exponent += negative_exponent ? -written : written;
  }
  if (i != s.size() || dropped_bits) return std::nullopt;
  if (significand == 0) return negative ? -T{0} : T{0};
  // value = significand * 2^exponent; exact in T iff its bits fit the precision, its lowest bit is
  // not below the smallest subnormal, and its highest not above the largest finite exponent.
  const int trailing = std::countr_zero(significand);
  significand >>= trailing;
  exponent += trailing;
  const int width = std::bit_width(significand);
  const std::int64_t top = exponent + width - 1;
  if (width > F::kFractionBits + 1 || exponent < F::kLowestBit || top > F::kMaxExponent)
    return std::nullopt;
  using Bits = typename F::Bits;
  const Bits sign = negative ? F::kSignBit : 0;
  if (top < F::kMinExponent)  // subnormal: the bits sit where 2^kLowestBit is bit 0
    return std::bit_cast<T>(sign | static_cast<Bits>(significand << (exponent - F::kLowestBit)));
  const auto biased = static_cast<Bits>(top + F::kBias);
  const Bits fraction = static_cast<Bits>(significand << (F::kFractionBits - width + 1));
  return std::bit_cast<T>(sign | biased << F::kFractionBits | (fraction & F::kFractionMask));
}

template <class T>
std::optional<T> parse_hex(std::string_view s) {
  const bool negative = !s.empty() && s[0] == '-';
  const bool positive = !s.empty() && s[0] == '+';
  const std::string_view body = s.substr(negative || positive ? 1 : 0);
  if (!positive)
    if (auto special = parse_special<T>(body, negative)) return special;
  return parse_finite<T>(body, negative);
}

}  // namespace

std::string format_hex_float(float x) {
  return format_hex(x);
}

std::string format_hex_double(double x) {
  return format_hex(x);
}

std::optional<float> parse_hex_float(std::string_view s) {
  return parse_hex<float>(s);
}

std::optional<double> parse_hex_double(std::string_view s) {
  return parse_hex<double>(s);
}

}  // namespace osvs
