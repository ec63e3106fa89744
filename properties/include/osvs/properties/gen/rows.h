// Row generators: lengths that hit the block and warp boundaries, value styles that reach ties with
// the row maximum, clusters just below it and exp underflow, and rows with special values.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <vector>

#include "osvs/properties/gen/domain.h"

namespace osvs::gen {

using Row = std::vector<float>;

/// The longest long row at size 0 is 2^kShortestLongRowExponent.
inline constexpr int kShortestLongRowExponent = 10;
/// The RapidCheck size at which long rows reach their full length: three quarters of RapidCheck's
/// default maximum size (100), so that the last quarter of a run draws rows of 2^16 to 2^17.
inline constexpr int kLongRowFullSize = 75;
/// Weight of long rows among row lengths (of 100 + kLongRowWeight) at kLongRowFullSize and
/// beyond, growing linearly from 0 at size 0: over a run of 100 cases (sizes 0 to 100) about 20
/// long rows, 5 to 10 of them beyond 2^16, since each costs up to 2^17 oracle evaluations.
inline constexpr int kLongRowWeight = 40;

/// A long row length: uniform in [L/2, L], where L grows geometrically with RapidCheck's size
/// from 2^kShortestLongRowExponent at size 0 to 2^kLongRowExponent at kLongRowFullSize.
rc::Gen<std::int64_t> long_row_length();

/// Row lengths: 0, 1, 31, 32, 33, 255, 256, 257, short size-scaled lengths, a few thousand, and
/// long rows (long_row_length, more of them at larger sizes); every length shrinks toward 0
/// through all smaller lengths.
rc::Gen<std::int64_t> row_length();

/// row_length() without 0 (shrinking toward 1): for laws whose domain is a non-empty row.
rc::Gen<std::int64_t> nonempty_row_length();

/// A finite row of length n in one of several styles (nasty, normal σ ∈ {1,10,100}, wide range,
/// clustered below the maximum, fp16 grid), with ties and near-ties to the maximum added.
rc::Gen<Row> finite_row(std::int64_t n);

/// A finite row of a generated length (possibly empty).
rc::Gen<Row> finite_row();

/// A finite row of a generated non-zero length.
rc::Gen<Row> nonempty_finite_row();

/// A row that exercises the special-value rules: NaN, +inf, all -inf, some -inf, subnormals,
/// ±FLT_MAX, N = 0, or any floats at all.
rc::Gen<Row> special_row();

/// special_row() of a given length n.
rc::Gen<Row> special_row(std::int64_t n);

/// A batch of 1..4 finite rows of one generated non-zero length (an empty row has no softmax to
/// judge: accuracy, sum and range would be vacuous); shrinks drop rows, drop the same columns from
/// every row (keeping one) and simplify elements.
rc::Gen<std::vector<Row>> finite_batch();

/// A batch of 1..4 rows of one length, each finite or special.
rc::Gen<std::vector<Row>> special_batch();

/// The class of a row for RC_TAG: "empty", "nan", "+inf", "all -inf", "has -inf", "subnormal",
/// "FLT_MAX", "ties max", "finite".
const char* row_class(const Row& row);

/// The length class of a row for RC_TAG: "n < 1024", "1024 <= n < 2^16", "n >= 2^16".
const char* length_class(std::int64_t n);

}  // namespace osvs::gen

#include "osvs/properties/gen/rows.hpp"
