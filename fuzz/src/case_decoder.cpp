#include "osvs/fuzz/case_decoder.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <utility>

#include "osvs/fuzz/float_decoder.h"
#include "osvs/kernels/block_schedule.h"

namespace osvs::fuzz {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

State nan_state() {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  return State{nan, nan};
}

/// (m, d) with the domain's clamps (as properties/gen/states.hpp): NaN anywhere gives the NaN
/// state, m = -inf stands for a multiset of only -inf values and so is the identity (its d is 0),
/// d = -0 becomes +0, and a negative d its magnitude.
State well_formed(float m, float d) {
  if (std::isnan(m) || std::isnan(d)) return nan_state();
  if (m == kNegInf) return identity_state();
  return State{m, std::fabs(d) + 0.0f};
}

std::vector<float> decode_row(ByteReader& in, std::int64_t length) {
  std::vector<float> row(static_cast<std::size_t>(length));
  float running_max = kNegInf;
  for (float& x : row) {
    x = decode_float(in, running_max);
    if (x > running_max) running_max = x;  // false for NaN: NaN never becomes the maximum
  }
  return row;
}

}  // namespace

State decode_state(ByteReader& in) {
  switch (in.byte() % 8) {
    case 0:
      return identity_state();
    case 1:
      return seed_initial_state();
    case 2:
      return nan_state();
    case 3:
      return well_formed(decode_float(in, kNegInf), 1.0f);
    case 4: {
      // d = 1 + k 2^-23 for k < 8 2^23: every float in [1, 256), all mantissa bits reachable
      const float m = decode_float(in, kNegInf);
      return well_formed(m, std::bit_cast<float>(0x3f800000u + in.u32() % (8u << 23)));
    }
    default: {
      const float m = decode_float(in, kNegInf);
      return well_formed(m, decode_float(in, kNegInf));
    }
  }
}

HarnessCase decode_schedule(ByteReader& in, std::int64_t length, int chunks) {
  HarnessCase hc;
  const auto n = static_cast<std::uint32_t>(length);
  std::vector<std::int64_t> cuts(static_cast<std::size_t>(chunks - 1));
  for (auto& cut : cuts) cut = in.below(n + 1);
  std::sort(cuts.begin(), cuts.end());
  hc.chunk_offsets.push_back(0);
  hc.chunk_offsets.insert(hc.chunk_offsets.end(), cuts.begin(), cuts.end());
  hc.chunk_offsets.push_back(length);

  for (std::int64_t s : decode_permutation(in, chunks))
    hc.slot_chunk.push_back(static_cast<std::int32_t>(s));

  std::vector<std::int32_t> live(static_cast<std::size_t>(chunks));
  for (int s = 0; s < chunks; ++s) live[static_cast<std::size_t>(s)] = s;
  while (live.size() > 1) {
    const auto count = static_cast<std::uint32_t>(live.size());
    const std::uint32_t dst = in.below(count);
    std::uint32_t src = in.below(count - 1);
    if (src >= dst) ++src;  // any other live slot
    hc.merges.push_back(Merge{live[dst], live[src]});
    live.erase(live.begin() + src);
  }
  hc.root = live.front();
  return hc;
}

std::vector<std::int64_t> decode_permutation(ByteReader& in, std::int64_t n) {
  std::vector<std::int64_t> p(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) p[static_cast<std::size_t>(i)] = i;
  for (std::int64_t i = n - 1; i > 0; --i)
    std::swap(p[static_cast<std::size_t>(i)], p[in.below(static_cast<std::uint32_t>(i + 1))]);
  return p;
}

FuzzInput decode_fuzz_input(std::span<const std::uint8_t> bytes) {
  ByteReader in(bytes);
  const auto& properties = all_properties();
  FuzzInput f{&properties[in.byte() % properties.size()], Case{}};
  Case& c = f.input;

  const std::uint8_t config = in.byte();
  c.kernel = kAllKernels[config & 1];
  c.combine = kAllCombines[(config >> 1) & 1];
  c.block = kSupportedBlocks[((config >> 2) & 7) % std::size(kSupportedBlocks)];

  const int state_count = 2 * (1 + in.byte() % (kMaxStates / 2));
  for (int i = 0; i < state_count; ++i) c.states.push_back(decode_state(in));

  c.shift = decode_float(in, kNegInf);
  c.batch_rows = 1 + in.byte() % kMaxBatchRows;
  c.batch_position = in.byte() % c.batch_rows;

  const int row_count = 1 + in.byte() % kMaxRows;
  const std::int64_t length = in.u16() % (kMaxRowLength + 1);
  for (int r = 0; r < row_count; ++r) c.rows.push_back(decode_row(in, length));

  const bool warp = f.property->name == "warp_reduce";
  c.schedules.push_back(decode_schedule(in, length, warp ? kWarpSize : 1 + in.byte() % kMaxChunks));
  c.schedules.push_back(decode_schedule(in, length, 1 + in.byte() % kMaxChunks));

  c.permutation = decode_permutation(in, length);
  return f;
}

}  // namespace osvs::fuzz
