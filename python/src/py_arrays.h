// NumPy arrays at the border between the C++ core and Python: the arrays a Python kernel is
// called with, the reading of what it returns (any CPU array of the expected element type,
// through nanobind's DLPack import) and the arrays a result reports.
//
// Element types: f32 is NumPy's float32 and f16 its float16; bf16, which NumPy lacks, travels as
// its bits in uint16 (int16 accepted back), which osvs/_arrays.py converts for torch.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <vector>

#include "osvs/api/dtype.h"

namespace osvs::python {

namespace nb = nanobind;

/// A fresh array of type t holding `rows` rows of `cols` elements, row i read from
/// x + i * stride elements; it keeps the stride (a padded row layout stays padded).
nb::object rows_array(const void* x, DType t, std::int64_t rows, std::int64_t cols,
                      std::int64_t stride);

/// True when `array` (made by rows_array) still holds the bits of x.
bool rows_unchanged(nb::handle array, const void* x, DType t, std::int64_t rows, std::int64_t cols,
                    std::int64_t stride);

/// Copies a (rows x cols) CPU array of type t into y (row i at y + i * stride elements).
/// Throws std::runtime_error naming `what` for another shape, element type or device.
void copy_rows_out(nb::handle array, void* y, DType t, std::int64_t rows, std::int64_t cols,
                   std::int64_t stride, const char* what);

/// Copies a 1-D float32 CPU array of n values into y; std::runtime_error as above.
void copy_vector_out(nb::handle array, float* y, std::int64_t n, const char* what);

/// A float32 array of the values.
nb::object vector_array(const std::vector<float>& v);

}  // namespace osvs::python
