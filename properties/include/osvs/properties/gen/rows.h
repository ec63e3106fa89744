// Row generators: lengths that hit the block and warp boundaries, value styles that reach ties with
// the row maximum, clusters just below it and exp underflow, and rows with special values.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <vector>

namespace osvs::gen {

using Row = std::vector<float>;

/// Row lengths: 0, 1, 31, 32, 33, 255, 256, 257, size-scaled lengths and a few thousand; every
/// length shrinks toward 0 through all smaller lengths.
rc::Gen<std::int64_t> row_length();

/// A finite row of length n in one of several styles (nasty, normal σ ∈ {1,10,100}, wide range,
/// clustered below the maximum, fp16 grid), with ties and near-ties to the maximum added.
rc::Gen<Row> finite_row(std::int64_t n);

/// A finite row of a generated length.
rc::Gen<Row> finite_row();

/// A finite row of a generated length whose values lie on grid_float()'s grid.
rc::Gen<Row> grid_row();

/// A row that exercises the special-value rules: NaN, +inf, all -inf, some -inf, subnormals,
/// ±FLT_MAX, N = 0, or any floats at all.
rc::Gen<Row> special_row();

/// special_row() of a given length n.
rc::Gen<Row> special_row(std::int64_t n);

/// A batch of 1..4 finite rows of one generated length; shrinks drop rows, drop the same columns
/// from every row and simplify elements.
rc::Gen<std::vector<Row>> finite_batch();

/// A batch of 1..4 rows of one length, each finite or special.
rc::Gen<std::vector<Row>> special_batch();

/// The class of a row for RC_TAG: "empty", "nan", "+inf", "all -inf", "has -inf", "subnormal",
/// "FLT_MAX", "ties max", "finite".
const char* row_class(const Row& row);

}  // namespace osvs::gen

#include "osvs/properties/gen/rows.hpp"
