// Schedule generators for the combine harness: partitions of a row into chunks (empty chunks
// allowed), orderings of the chunks into slots, and binary combine trees over the slots.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <vector>

#include "osvs/kernels/cases.h"
#include "osvs/kernels/enum_names.h"
#include "osvs/kernels/merge_trees.h"
#include "osvs/properties/gen/domain.h"

namespace osvs::gen {

/// The shapes of combine trees.
enum class TreeShape { LeftDeep, RightDeep, Balanced, Random, Shuffle };

inline constexpr EnumName<TreeShape> kTreeShapeNames[] = {{TreeShape::LeftDeep, "left-deep"},
                                                          {TreeShape::RightDeep, "right-deep"},
                                                          {TreeShape::Balanced, "balanced"},
                                                          {TreeShape::Random, "random"},
                                                          {TreeShape::Shuffle, "shuffle"}};

const char* to_string(TreeShape s);

/// k + 1 offsets 0 = o_0 <= ... <= o_k = n: a composition of n into k chunks, empties allowed.
rc::Gen<std::vector<std::int64_t>> partition(std::int64_t n, int chunks);

/// A permutation of 0 .. n-1.
rc::Gen<std::vector<std::int64_t>> permutation(std::int64_t n);

/// The merges of a tree of the given shape over `slots` slots, root in slot 0 (the builders of
/// osvs/kernels/merge_trees.h; Random: random_tree driven by a generated seed).
rc::Gen<std::vector<Merge>> tree(TreeShape shape, int slots);

/// A harness schedule for a row of length n: partition into 1..kMaxChunks chunks, a random order of
/// the chunks in slots, a tree of any shape. The `row` field is left empty.
rc::Gen<HarnessCase> schedule(std::int64_t n);

/// A schedule of exactly 32 chunks in lane order, reduced by the warp's shuffle tree.
rc::Gen<HarnessCase> warp_schedule(std::int64_t n);

}  // namespace osvs::gen

#include "osvs/properties/gen/schedules.hpp"
