#include "py_exact_attention.h"

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "osvs/api/attention_accuracy.h"
#include "osvs/api/attention_laws.h"

namespace osvs::python {
namespace {

namespace nb = nanobind;

using Floats = nb::ndarray<const float, nb::device::cpu, nb::c_contig>;

template <class T>
nb::object numpy_of(std::vector<T> values) {
  auto* owned = new std::vector<T>(std::move(values));
  nb::capsule free(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::cast(nb::ndarray<nb::numpy, T, nb::ndim<1>>(owned->data(), {owned->size()}, free));
}

std::vector<float> values_of(const Floats& a, const char* what, std::size_t expected) {
  if (a.size() != expected)
    throw std::invalid_argument(std::string(what) + " has " + std::to_string(a.size()) +
                                " values; the lengths, heads and head_dim given need " +
                                std::to_string(expected));
  return std::vector<float>(a.data(), a.data() + a.size());
}

template <class T, class Parse>
T parsed(const std::string& text, Parse parse, const char* what, const char* valid) {
  if (const auto v = parse(text)) return *v;
  throw std::invalid_argument(std::string(what) + " '" + text + "' is not one of " + valid);
}

nb::dict exact_attention_py(const Floats& q, const Floats& k, const Floats& v,
                            const std::vector<std::int64_t>& q_lens,
                            const std::vector<std::int64_t>& k_lens, int heads_q, int heads_kv,
                            int head_dim_qk, int head_dim_v, const std::string& in_type,
                            float scale, const std::string& mask, const std::string& align,
                            std::int64_t window_left, std::int64_t window_right, float softcap,
                            const std::vector<float>& sinks, const std::vector<float>& alibi_slopes,
                            const std::string& base, const std::string& kv_type, float k_scale,
                            float v_scale) {
  if (q_lens.size() != k_lens.size() || q_lens.empty())
    throw std::invalid_argument("q_lens and k_lens: one length each per sequence, at least one");
  AttentionCase c;
  c.seqs.clear();
  for (std::size_t s = 0; s < q_lens.size(); ++s) c.seqs.push_back({q_lens[s], k_lens[s]});
  c.heads_q = heads_q;
  c.heads_kv = heads_kv;
  c.head_dim_qk = head_dim_qk;
  c.head_dim_v = head_dim_v;
  c.in_type = parsed<DType>(in_type, parse_dtype, "dtype", "f32, bf16, f16");
  c.scale = scale;
  c.softcap = softcap;
  c.sinks = sinks;
  c.alibi_slopes = alibi_slopes;
  c.mask.kind = parsed<MaskKind>(mask, parse_mask_kind, "mask", "none, causal, window");
  c.mask.align = parsed<MaskAlign>(align, parse_mask_align, "align", "bottom-right, top-left");
  c.mask.window_left = window_left;
  c.mask.window_right = window_right;
  c.base = parsed<LseBase>(base, parse_lse_base, "lse base", "e, 2");
  // fp8 K/V: k and v hold the stored values (exact in kv_type), attended to times their scales;
  // attention_case_problem below says what is wrong with a type, a scale or a value.
  if (!kv_type.empty()) c.kv_type = parsed<DType>(kv_type, parse_dtype, "kv_type", "e4m3, e5m2");
  c.k_scale = k_scale;
  c.v_scale = v_scale;
  if (heads_q <= 0 || heads_kv <= 0 || head_dim_qk <= 0 || head_dim_v <= 0)
    throw std::invalid_argument("heads and head_dims must be positive");
  const auto hq = static_cast<std::size_t>(heads_q), hk = static_cast<std::size_t>(heads_kv);
  c.q = values_of(q, "q", static_cast<std::size_t>(c.total_q()) * hq * c.head_dim_qk);
  c.k = values_of(k, "k", static_cast<std::size_t>(c.total_k()) * hk * c.head_dim_qk);
  c.v = values_of(v, "v", static_cast<std::size_t>(c.total_k()) * hk * c.head_dim_v);
  if (const std::string why = attention_case_problem(c); !why.empty())
    throw std::invalid_argument("not a well-formed attention case: " + why);
  const auto start = std::chrono::steady_clock::now();
  AttentionExact e;
  {
    nb::gil_scoped_release release;
    e = exact_attention(c, c.in_type);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<double> unit(e.magnitude.size());
  for (std::size_t i = 0; i < unit.size(); ++i) unit[i] = ulp_in(c.in_type, e.magnitude[i]);
  nb::dict r;
  r["o_rounded"] = numpy_of(std::move(e.o_rounded));
  r["o"] = numpy_of(std::move(e.o));
  r["magnitude"] = numpy_of(std::move(e.magnitude));
  r["unit"] = numpy_of(std::move(unit));
  r["lse_rounded"] = numpy_of(std::move(e.lse_rounded));
  r["lse"] = numpy_of(std::move(e.lse));
  r["kept"] = numpy_of(std::move(e.kept));
  r["mpfr_queries"] = e.mpfr_queries;
  r["seconds"] = seconds;
  return r;
}

/// The float values of the 256 bit patterns of an fp8 type (exact; e4m3's two NaN patterns NaN).
nb::object fp8_values(const std::string& kv_type) {
  const DType t = parsed<DType>(kv_type, parse_dtype, "fp8 type", "e4m3, e5m2");
  if (!is_fp8(t))
    throw std::invalid_argument("fp8 type '" + kv_type + "' is not one of e4m3, e5m2");
  std::vector<std::uint8_t> patterns(256);
  for (int b = 0; b < 256; ++b)
    patterns[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(b);
  std::vector<float> values(256);
  load_from(t, patterns.data(), values.data(), 256);
  return numpy_of(std::move(values));
}

}  // namespace

void bind_exact_attention(nb::module_& m) {
  m.def("fp8_values", &fp8_values, nb::arg("kv_type"),
        "The float32 values of the 256 bit patterns of the fp8 type kv_type (e4m3, e5m2), exact: "
        "values[bits] dequantises stored K/V.");
  m.def("exact_attention", &exact_attention_py, nb::arg("q"), nb::arg("k"), nb::arg("v"),
        nb::arg("q_lens"), nb::arg("k_lens"), nb::arg("heads_q"), nb::arg("heads_kv"),
        nb::arg("head_dim_qk"), nb::arg("head_dim_v"), nb::arg("dtype"), nb::arg("scale"),
        nb::arg("mask"), nb::arg("align"), nb::arg("window_left"), nb::arg("window_right"),
        nb::arg("softcap"), nb::arg("sinks"), nb::arg("alibi_slopes"), nb::arg("base"),
        nb::arg("kv_type") = "", nb::arg("k_scale") = 1.0f, nb::arg("v_scale") = 1.0f,
        "The exact attention of a varlen batch (flat float32 arrays, logical layout): every o "
        "component correctly rounded to dtype and as a double, its magnitude M and the ulp of "
        "dtype at M, the lse rounded to float32 and as a double, the kept keys, the queries "
        "MPFR decided and the seconds taken.");
}

}  // namespace osvs::python
