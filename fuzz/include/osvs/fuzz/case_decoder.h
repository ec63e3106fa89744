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
//   schedules     two schedules of rows[0] (decode_schedule); the first has kWarpSize chunks when
//                 the property is warp_reduce
//   permutation   Fisher-Yates over rows[0]'s indices, one choice per index
#pragma once

#include <cstdint>
#include <span>

#include "osvs/fuzz/byte_reader.h"
#include "osvs/properties/case.h"
#include "osvs/properties/registry.h"

namespace osvs::fuzz {

inline constexpr int kMaxRows = 4;         ///< rows in a batch
inline constexpr int kMaxRowLength = 300;  ///< elements in a row: keeps an execution fast
inline constexpr int kMaxStates = 32;      ///< states for the combine laws
inline constexpr int kMaxChunks = 40;      ///< chunks of a schedule (more than a warp's 32)
inline constexpr int kMaxBatchRows = 8;    ///< M of the surrounding batch

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

/// A schedule of a row of `length` elements in `chunks` chunks (0 < chunks): sorted cut points,
/// the chunks placed into slots by a permutation, and merges that join the live slots pairwise
/// in a decoded order until one root remains (a valid binary tree over all slots).
HarnessCase decode_schedule(ByteReader& in, std::int64_t length, int chunks);

/// A permutation of 0 .. n-1 (Fisher-Yates, one choice per index).
std::vector<std::int64_t> decode_permutation(ByteReader& in, std::int64_t n);

}  // namespace osvs::fuzz
