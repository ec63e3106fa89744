// NumPy arrays at the border between the C++ core and Python: the views a Python kernel is called
// with, the reading of what it returns (any 2-D or 1-D float32 array on the CPU, through
// nanobind's DLPack import) and the arrays a result reports.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <vector>

namespace osvs::python {

namespace nb = nanobind;

/// A fresh float32 array holding `rows` rows of `cols` values, row i read from x + i * stride;
/// the array keeps the stride (a padded row layout stays padded, as the launch was).
nb::object rows_array(const float* x, std::int64_t rows, std::int64_t cols, std::int64_t stride);

/// True when `array` (made by rows_array) still holds the values of x bit for bit.
bool rows_unchanged(nb::handle array, const float* x, std::int64_t rows, std::int64_t cols,
                    std::int64_t stride);

/// Copies a (rows x cols) float32 CPU array into y (row i at y + i * stride). Throws
/// std::runtime_error naming `what` for another shape, type or device.
void copy_rows_out(nb::handle array, float* y, std::int64_t rows, std::int64_t cols,
                   std::int64_t stride, const char* what);

/// Copies a 1-D float32 CPU array of n values into y; std::runtime_error as above.
void copy_vector_out(nb::handle array, float* y, std::int64_t n, const char* what);

/// A float32 array of the values.
nb::object vector_array(const std::vector<float>& v);

}  // namespace osvs::python
