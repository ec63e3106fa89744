// ByteReader: the fuzzer's bytes read front to back as small integers. Reading past the end gives
// zeros, so every byte string (the empty one included) decodes to something: decoders clamp, they
// never reject.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace osvs::fuzz {

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  /// The next byte, or 0 once the input is exhausted.
  std::uint8_t byte() { return pos_ < bytes_.size() ? bytes_[pos_++] : 0; }

  /// The next two bytes, little-endian.
  std::uint16_t u16() {
    const std::uint16_t lo = byte();
    return static_cast<std::uint16_t>(lo | (byte() << 8));
  }

  /// The next four bytes, little-endian.
  std::uint32_t u32() {
    const std::uint32_t lo = u16();
    return lo | (std::uint32_t{u16()} << 16);
  }

  /// A value in [0, n) for n >= 1, from one byte when n <= 256, else from two.
  std::uint32_t below(std::uint32_t n) { return (n <= 256 ? byte() : u16()) % n; }

  /// Whether every byte has been read.
  bool exhausted() const { return pos_ >= bytes_.size(); }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
};

}  // namespace osvs::fuzz
