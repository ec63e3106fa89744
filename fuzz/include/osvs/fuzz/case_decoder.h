// Case decoding: every byte string becomes a property to check and a VALID case for it (values
// are clamped into range, never rejected), so that the fuzzer spends no execution on inputs a
// property would refuse. Layout, front to back (bytes past the end read as 0):
//
//   byte 0        property: all_properties()[byte % count]
//   byte 1        configuration: bit 0 kernel, bit 1 combine (kAllCombines, no mutants),
//                 bits 2-4 block size (kSupportedBlocks[bits % 6])
//   states        count byte (2 .. kMaxStates, even: commutativity takes pairs), then each state
//                 (decode_state)
//   shift         one float (decode_float)
//   batch         batch_rows = 1 + byte % kMaxBatchRows, batch_position = byte % batch_rows
//   rows          row count byte (1 .. kMaxRows), row length u16 (0 .. kMaxRowLength), then the
//                 values row by row (decode_float, ties against the row's running maximum)
//   schedules     two schedules of rows[0]: a chunk count byte (1 .. kMaxChunks; kWarpSize chunks
//                 without a byte for the first schedule when the property is warp_reduce), then
//                 random_schedule (osvs/kernels/merge_trees.h) with the input's choices
//   permutation   random_permutation of rows[0]'s indices with the input's choices
//
// The caps kMaxRows, kMaxRowLength, kMaxChunks and kMaxBatchRows are the generators'
// (gen/domain.h), so fuzzing and property tests explore one domain.
#pragma once

#include <cstdint>
#include <span>

#include "osvs/fuzz/byte_reader.h"
#include "osvs/properties/case.h"
#include "osvs/properties/gen/domain.h"
#include "osvs/properties/registry.h"

namespace osvs::fuzz {

inline constexpr int kMaxStates = 32;  ///< states for the combine laws

/// A property and the case to check it on.
struct FuzzInput {
  const PropertyInfo* property;
  Case input;
};

/// Decodes the whole input as laid out above.
FuzzInput decode_fuzz_input(std::span<const std::uint8_t> bytes);

/// One state of the well-formed domain the combine laws quantify over: the identity, the seed's
/// initial state, the NaN state, a lifted element (x, 1), a realistic state (d in [1, 256)), or
/// any m with d >= +0 (a NaN part makes the whole state the NaN state, -0 becomes +0).
State decode_state(ByteReader& in);

/// The input's bytes as a source of choices for merge_trees.h: below(k) is ByteReader::below(k).
inline auto byte_choices(ByteReader& in) {
  return [&in](std::int64_t k) { return std::int64_t{in.below(static_cast<std::uint32_t>(k))}; };
}

}  // namespace osvs::fuzz
