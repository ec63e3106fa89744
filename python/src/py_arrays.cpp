#include "py_arrays.h"

#include <nanobind/ndarray.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace osvs::python {
namespace {

/// Any float32 array in CPU memory, of any shape and strides (a DLPack import when it is not
/// NumPy's).
using CpuFloats = nb::ndarray<const float, nb::device::cpu>;

CpuFloats cpu_floats(nb::handle array, const char* what) {
  CpuFloats a;
  if (!nb::try_cast(array, a, false))
    throw std::runtime_error(std::string(what) + ": expected a float32 array in CPU memory, got " +
                             nb::str(nb::type_name(array.type())).c_str());
  return a;
}

std::string shape_text(const CpuFloats& a) {
  std::string s = "(";
  for (std::size_t d = 0; d < a.ndim(); ++d) s += (d ? ", " : "") + std::to_string(a.shape(d));
  return s + ")";
}

nb::object owned_floats(std::size_t count, std::initializer_list<std::size_t> shape,
                        std::initializer_list<std::int64_t> strides, float** data) {
  auto* buffer = new float[std::max<std::size_t>(count, 1)];
  nb::capsule owner(buffer, [](void* p) noexcept { delete[] static_cast<float*>(p); });
  *data = buffer;
  return nb::ndarray<nb::numpy, float>(buffer, shape.size(), shape.begin(), owner, strides.begin())
      .cast();
}

}  // namespace

nb::object rows_array(const float* x, std::int64_t rows, std::int64_t cols, std::int64_t stride) {
  float* data = nullptr;
  const auto count = static_cast<std::size_t>(rows * stride);
  nb::object out = owned_floats(
      count, {static_cast<std::size_t>(rows), static_cast<std::size_t>(cols)}, {stride, 1}, &data);
  if (count) std::memcpy(data, x, count * sizeof(float));
  return out;
}

bool rows_unchanged(nb::handle array, const float* x, std::int64_t rows, std::int64_t cols,
                    std::int64_t stride) {
  const CpuFloats a = cpu_floats(array, "input");
  for (std::int64_t i = 0; i < rows; ++i)
    if (std::memcmp(a.data() + i * stride, x + i * stride,
                    static_cast<std::size_t>(cols) * sizeof(float)) != 0)
      return false;
  return true;
}

void copy_rows_out(nb::handle array, float* y, std::int64_t rows, std::int64_t cols,
                   std::int64_t stride, const char* what) {
  const CpuFloats a = cpu_floats(array, what);
  if (a.ndim() != 2 || static_cast<std::int64_t>(a.shape(0)) != rows ||
      static_cast<std::int64_t>(a.shape(1)) != cols)
    throw std::runtime_error(std::string(what) + ": shape " + shape_text(a) + ", expected (" +
                             std::to_string(rows) + ", " + std::to_string(cols) + ")");
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j)
      y[i * stride + j] = a.data()[i * a.stride(0) + j * a.stride(1)];
}

void copy_vector_out(nb::handle array, float* y, std::int64_t n, const char* what) {
  const CpuFloats a = cpu_floats(array, what);
  if (a.ndim() != 1 || static_cast<std::int64_t>(a.shape(0)) != n)
    throw std::runtime_error(std::string(what) + ": shape " + shape_text(a) + ", expected (" +
                             std::to_string(n) + ",)");
  for (std::int64_t i = 0; i < n; ++i) y[i] = a.data()[i * a.stride(0)];
}

nb::object vector_array(const std::vector<float>& v) {
  float* data = nullptr;
  nb::object out = owned_floats(v.size(), {v.size()}, {1}, &data);
  std::copy(v.begin(), v.end(), data);
  return out;
}

}  // namespace osvs::python
