#include "osvs/fuzz/case_decoder.h"

#include <bit>
#include <cmath>
#include <limits>

#include "osvs/fuzz/float_decoder.h"
#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/merge_trees.h"

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
  c.batch_rows = 1 + in.byte() % gen::kMaxBatchRows;
  c.batch_position = in.byte() % c.batch_rows;

  const int row_count = 1 + in.byte() % gen::kMaxRows;
  const std::int64_t length = in.u16() % (gen::kMaxRowLength + 1);
  for (int r = 0; r < row_count; ++r) c.rows.push_back(decode_row(in, length));

  const bool warp = f.property->name == "warp_reduce";
  for (int s = 0; s < 2; ++s) {
    const int chunks = warp && s == 0 ? kWarpSize : 1 + in.byte() % gen::kMaxChunks;
    c.schedules.push_back(random_schedule(length, chunks, byte_choices(in)));
  }

  c.permutation = random_permutation(length, byte_choices(in));
  return f;
}

}  // namespace osvs::fuzz
