// A hash of text that is the same on every platform and standard library (std::hash is not: its
// values differ between libstdc++, libc++ and MSVC, so seeds derived from it would too).
#pragma once

#include <cstdint>
#include <string_view>

namespace osvs {

/// FNV-1a, 64-bit: the offset basis and prime of the FNV specification.
inline constexpr std::uint64_t kFnv1aOffsetBasis = 0xcbf29ce484222325ull;
inline constexpr std::uint64_t kFnv1aPrime = 0x100000001b3ull;

/// FNV-1a 64 of the bytes of `text`: for each byte, xor it in, then multiply by the prime.
constexpr std::uint64_t fnv1a64(std::string_view text) {
  std::uint64_t h = kFnv1aOffsetBasis;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= kFnv1aPrime;
  }
  return h;
}

/// SplitMix64's finaliser: spreads every input bit over the output (a bijection).
constexpr std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace osvs
