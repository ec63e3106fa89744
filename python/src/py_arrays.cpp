#include "py_arrays.h"

#include <nanobind/ndarray.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

namespace osvs::python {
namespace {

namespace dl = nb::dlpack;

/// Any array in CPU memory, of any element type, shape and strides (a DLPack import when it is
/// not NumPy's).
using CpuArray = nb::ndarray<nb::device::cpu>;

dl::dtype float_bits(int bits) {
  return {static_cast<std::uint8_t>(dl::dtype_code::Float), static_cast<std::uint8_t>(bits), 1};
}

/// How elements of t travel to Python.
dl::dtype dlpack_type(DType t) {
  if (t == DType::F32) return float_bits(32);
  if (t == DType::F16) return float_bits(16);
  return {static_cast<std::uint8_t>(dl::dtype_code::UInt), 16, 1};  // bf16 bits
}

/// Whether an array of element type d may come back as elements of t.
bool accepted(dl::dtype d, DType t) {
  if (t != DType::BF16) return d == dlpack_type(t);
  const auto code = static_cast<dl::dtype_code>(d.code);
  return d.bits == 16 && d.lanes == 1 &&
         (code == dl::dtype_code::UInt || code == dl::dtype_code::Int);
}

const char* python_name(DType t) {
  return t == DType::F32 ? "float32" : t == DType::F16 ? "float16" : "uint16 (bfloat16 bits)";
}

CpuArray cpu_array(nb::handle array, const char* what) {
  CpuArray a;
  if (!nb::try_cast(array, a, false))
    throw std::runtime_error(std::string(what) + ": expected an array in CPU memory, got " +
                             nb::str(nb::type_name(array.type())).c_str());
  return a;
}

std::string shape_text(const CpuArray& a) {
  std::string s = "(";
  for (std::size_t d = 0; d < a.ndim(); ++d) s += (d ? ", " : "") + std::to_string(a.shape(d));
  return s + ")";
}

void require_shape(const CpuArray& a, std::initializer_list<std::int64_t> shape, const char* what) {
  bool same = a.ndim() == shape.size();
  std::size_t d = 0;
  std::string expected = "(";
  for (std::int64_t n : shape) {
    same = same && static_cast<std::int64_t>(a.shape(d)) == n;
    expected += (d++ ? ", " : "") + std::to_string(n);
  }
  if (!same)
    throw std::runtime_error(std::string(what) + ": shape " + shape_text(a) + ", expected " +
                             expected + (shape.size() == 1 ? ",)" : ")"));
}

/// A fresh array owning `bytes` bytes, viewed with the given shape and strides (in elements).
nb::object owned_array(std::size_t bytes, dl::dtype type, std::initializer_list<std::size_t> shape,
                       std::initializer_list<std::int64_t> strides, unsigned char** data) {
  auto* buffer = new unsigned char[std::max<std::size_t>(bytes, 1)];
  nb::capsule owner(buffer, [](void* p) noexcept { delete[] static_cast<unsigned char*>(p); });
  *data = buffer;
  return nb::ndarray<nb::numpy>(buffer, shape.size(), shape.begin(), owner, strides.begin(), type)
      .cast();
}

}  // namespace

nb::object rows_array(const void* x, DType t, std::int64_t rows, std::int64_t cols,
                      std::int64_t stride) {
  unsigned char* data = nullptr;
  const auto bytes = static_cast<std::size_t>(rows * stride) * size_of(t);
  nb::object out = owned_array(bytes, dlpack_type(t),
                               {static_cast<std::size_t>(rows), static_cast<std::size_t>(cols)},
                               {stride, 1}, &data);
  if (bytes) std::memcpy(data, x, bytes);
  return out;
}

bool rows_unchanged(nb::handle array, const void* x, DType t, std::int64_t rows, std::int64_t cols,
                    std::int64_t stride) {
  const CpuArray a = cpu_array(array, "input");
  const std::size_t size = size_of(t);
  const auto* now = static_cast<const unsigned char*>(a.data());
  const auto* was = static_cast<const unsigned char*>(x);
  for (std::int64_t i = 0; i < rows; ++i) {
    const auto offset = static_cast<std::size_t>(i * stride) * size;
    if (std::memcmp(now + offset, was + offset, static_cast<std::size_t>(cols) * size) != 0)
      return false;
  }
  return true;
}

void copy_rows_out(nb::handle array, void* y, DType t, std::int64_t rows, std::int64_t cols,
                   std::int64_t stride, const char* what) {
  const CpuArray a = cpu_array(array, what);
  if (!accepted(a.dtype(), t))
    throw std::runtime_error(std::string(what) + ": element type is not " + python_name(t));
  require_shape(a, {rows, cols}, what);
  const std::size_t size = size_of(t);
  const auto* from = static_cast<const unsigned char*>(a.data());
  auto* to = static_cast<unsigned char*>(y);
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j)
      std::memcpy(to + static_cast<std::size_t>(i * stride + j) * size,
                  from + static_cast<std::size_t>(i * a.stride(0) + j * a.stride(1)) * size, size);
}

void copy_vector_out(nb::handle array, float* y, std::int64_t n, const char* what) {
  const CpuArray a = cpu_array(array, what);
  if (!accepted(a.dtype(), DType::F32))
    throw std::runtime_error(std::string(what) + ": element type is not float32");
  require_shape(a, {n}, what);
  const auto* from = static_cast<const float*>(a.data());
  for (std::int64_t i = 0; i < n; ++i) y[i] = from[i * a.stride(0)];
}

nb::object vector_array(const std::vector<float>& v) {
  unsigned char* data = nullptr;
  nb::object out =
      owned_array(v.size() * sizeof(float), dlpack_type(DType::F32), {v.size()}, {1}, &data);
  if (!v.empty()) std::memcpy(data, v.data(), v.size() * sizeof(float));
  return out;
}

}  // namespace osvs::python
