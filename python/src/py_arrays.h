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

/// Where the elements of an array live in a buffer: its shape and the stride of each dimension,
/// in elements (element (i, j, ...) at i * strides[0] + j * strides[1] + ...).
struct Layout {
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;

  /// Elements from the first to one past the last (0 for an empty array).
  std::int64_t span() const;
  /// The offset of the element at `index` (one entry per dimension).
  std::int64_t offset(const std::vector<std::int64_t>& index) const;
};

/// Calls f(index) for every index of `shape`, in row-major order (never for an empty shape).
template <class F>
void each_index(const std::vector<std::int64_t>& shape, F&& f) {
  for (std::int64_t n : shape)
    if (n == 0) return;
  std::vector<std::int64_t> index(shape.size(), 0);
  for (;;) {
    f(static_cast<const std::vector<std::int64_t>&>(index));
    std::size_t d = shape.size();
    while (d > 0 && ++index[d - 1] == shape[d - 1]) index[--d] = 0;
    if (d == 0) return;
  }
}

/// The row layout: `rows` rows of `cols` elements, row i at i * stride.
Layout row_layout(std::int64_t rows, std::int64_t cols, std::int64_t stride);

/// A fresh array of type t viewing a copy of x's span under `layout`: it keeps the strides (a
/// padded layout stays padded, the padding copied as it is).
nb::object strided_array(const void* x, DType t, const Layout& layout);

/// True when `array` (made by strided_array from x) still holds the bits of x's elements.
bool unchanged(nb::handle array, const void* x, DType t, const Layout& layout);

/// Copies a CPU array of type t and layout.shape (any strides of its own) into y, element by
/// element at layout's offsets. Throws std::runtime_error naming `what` for another shape,
/// element type or device.
void copy_out(nb::handle array, void* y, DType t, const Layout& layout, const char* what);

/// strided_array, unchanged and copy_out over row_layout(rows, cols, stride).
nb::object rows_array(const void* x, DType t, std::int64_t rows, std::int64_t cols,
                      std::int64_t stride);
bool rows_unchanged(nb::handle array, const void* x, DType t, std::int64_t rows, std::int64_t cols,
                    std::int64_t stride);
void copy_rows_out(nb::handle array, void* y, DType t, std::int64_t rows, std::int64_t cols,
                   std::int64_t stride, const char* what);

/// Copies a 1-D float32 CPU array of n values into y; std::runtime_error as above.
void copy_vector_out(nb::handle array, float* y, std::int64_t n, const char* what);

/// A float32 array of the values.
nb::object vector_array(const std::vector<float>& v);

}  // namespace osvs::python
