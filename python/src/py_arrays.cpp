#include "py_arrays.h"

#include <nanobind/ndarray.h>

#include <algorithm>
#include <cstring>
#include <iterator>
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
  if (is_integer(t))
    return {static_cast<std::uint8_t>(dl::dtype_code::Int),
            static_cast<std::uint8_t>(8 * size_of(t)), 1};
  if (is_fp8(t)) return {static_cast<std::uint8_t>(dl::dtype_code::UInt), 8, 1};  // fp8 bits
  return {static_cast<std::uint8_t>(dl::dtype_code::UInt), 16, 1};                // bf16 bits
}

/// Whether an array of element type d may come back as elements of t.
bool accepted(dl::dtype d, DType t) {
  if (t != DType::BF16) return d == dlpack_type(t);
  const auto code = static_cast<dl::dtype_code>(d.code);
  return d.bits == 16 && d.lanes == 1 &&
         (code == dl::dtype_code::UInt || code == dl::dtype_code::Int);
}

/// The NumPy type elements of t travel as (dlpack_type), and whose bits those are where they
/// are another type's: "float32", "int64", "uint16 (bfloat16 bits)", "uint8 (float8 e4m3 bits)".
std::string python_name(DType t) {
  const dl::dtype d = dlpack_type(t);
  const auto code = static_cast<dl::dtype_code>(d.code);
  const std::string numpy = (code == dl::dtype_code::Float ? "float"
                             : code == dl::dtype_code::Int ? "int"
                                                           : "uint") +
                            std::to_string(d.bits);
  if (t == DType::BF16) return numpy + " (bfloat16 bits)";
  if (is_fp8(t)) return numpy + " (float8 " + to_string(t) + " bits)";
  return numpy;
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

void require_shape(const CpuArray& a, const std::vector<std::int64_t>& shape, const char* what) {
  bool same = a.ndim() == shape.size();
  std::string expected = "(";
  for (std::size_t d = 0; d < shape.size(); ++d) {
    same = same && static_cast<std::int64_t>(a.shape(d)) == shape[d];
    expected += (d ? ", " : "") + std::to_string(shape[d]);
  }
  if (!same)
    throw std::runtime_error(std::string(what) + ": shape " + shape_text(a) + ", expected " +
                             expected + (shape.size() == 1 ? ",)" : ")"));
}

/// A fresh array owning `bytes` bytes, viewed with the given shape and strides (in elements).
nb::object owned_array(std::size_t bytes, dl::dtype type, const std::vector<std::size_t>& shape,
                       const std::vector<std::int64_t>& strides, unsigned char** data) {
  auto* buffer = new unsigned char[std::max<std::size_t>(bytes, 1)];
  nb::capsule owner(buffer, [](void* p) noexcept { delete[] static_cast<unsigned char*>(p); });
  *data = buffer;
  return nb::ndarray<nb::numpy>(buffer, shape.size(), shape.data(), owner, strides.data(), type)
      .cast();
}

}  // namespace

std::int64_t Layout::span() const {
  std::int64_t last = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0) return 0;
    last += (shape[d] - 1) * strides[d];
  }
  return last + 1;
}

std::int64_t Layout::offset(const std::vector<std::int64_t>& index) const {
  std::int64_t at = 0;
  for (std::size_t d = 0; d < index.size(); ++d) at += index[d] * strides[d];
  return at;
}

Layout row_layout(std::int64_t rows, std::int64_t cols, std::int64_t stride) {
  return Layout{{rows, cols}, {stride, 1}};
}

nb::object strided_array(const void* x, DType t, const Layout& layout) {
  unsigned char* data = nullptr;
  const auto bytes = static_cast<std::size_t>(layout.span()) * size_of(t);
  const std::vector<std::size_t> shape(layout.shape.begin(), layout.shape.end());
  nb::object out = owned_array(bytes, dlpack_type(t), shape, layout.strides, &data);
  if (bytes) std::memcpy(data, x, bytes);
  return out;
}

bool unchanged(nb::handle array, const void* x, DType t, const Layout& layout) {
  const CpuArray a = cpu_array(array, "input");
  const std::size_t size = size_of(t);
  const auto* now = static_cast<const unsigned char*>(a.data());
  const auto* was = static_cast<const unsigned char*>(x);
  bool same = true;
  each_index(layout.shape, [&](const std::vector<std::int64_t>& index) {
    const auto at = static_cast<std::size_t>(layout.offset(index)) * size;
    same = same && std::memcmp(now + at, was + at, size) == 0;
  });
  return same;
}

void copy_out(nb::handle array, void* y, DType t, const Layout& layout, const char* what) {
  const CpuArray a = cpu_array(array, what);
  if (!accepted(a.dtype(), t))
    throw std::runtime_error(std::string(what) + ": element type is not " + python_name(t));
  require_shape(a, layout.shape, what);
  // The array's own strides (any: a transposed or sliced result is read where it lies).
  Layout from{layout.shape, std::vector<std::int64_t>(layout.shape.size())};
  for (std::size_t d = 0; d < from.strides.size(); ++d) from.strides[d] = a.stride(d);
  const std::size_t size = size_of(t);
  const auto* source = static_cast<const unsigned char*>(a.data());
  auto* to = static_cast<unsigned char*>(y);
  each_index(layout.shape, [&](const std::vector<std::int64_t>& index) {
    std::memcpy(to + static_cast<std::size_t>(layout.offset(index)) * size,
                source + static_cast<std::size_t>(from.offset(index)) * size, size);
  });
}

nb::object rows_array(const void* x, DType t, std::int64_t rows, std::int64_t cols,
                      std::int64_t stride) {
  return strided_array(x, t, row_layout(rows, cols, stride));
}

bool rows_unchanged(nb::handle array, const void* x, DType t, std::int64_t rows, std::int64_t cols,
                    std::int64_t stride) {
  return unchanged(array, x, t, row_layout(rows, cols, stride));
}

void copy_rows_out(nb::handle array, void* y, DType t, std::int64_t rows, std::int64_t cols,
                   std::int64_t stride, const char* what) {
  copy_out(array, y, t, row_layout(rows, cols, stride), what);
}

void copy_vector_out(nb::handle array, float* y, std::int64_t n, const char* what) {
  copy_out(array, y, DType::F32, Layout{{n}, {1}}, what);
}

nb::object vector_array(const std::vector<float>& v) {
  return strided_array(v.data(), DType::F32, Layout{{std::ssize(v)}, {1}});
}

}  // namespace osvs::python
