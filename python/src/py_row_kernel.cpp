#include "py_row_kernel.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "osvs/api/registry.h"
#include "py_arrays.h"
#include "py_declaration.h"
#include "py_interrupt.h"

namespace osvs::python {
namespace {

/// The launch's rows handed to Python and its result copied back; a kernel that writes into the
/// array it was given has modified its input, which the core's runner would report for a
/// kernel of its own.
void call_python(const nb::callable& call, const RowProblem& p) {
  nb::gil_scoped_acquire gil;
  call_unless_interrupted([&] {
    const nb::object x = rows_array(p.x_ptr, p.x_type, p.rows, p.cols, p.x_stride);
    const nb::object y = call(x);
    if (!rows_unchanged(x, p.x_ptr, p.x_type, p.rows, p.cols, p.x_stride))
      throw std::runtime_error("the kernel modified its input array");
    copy_rows_out(y, p.y_ptr, p.y_type, p.rows, p.cols, p.y_stride, "the kernel's result");
  });
}

}  // namespace

Accuracy accuracy_from_python(nb::handle a) {
  if (a.is_none()) return Accuracy::none();
  if (nb::isinstance<nb::float_>(a) || nb::isinstance<nb::int_>(a))
    return Accuracy::ulps(nb::cast<double>(a));
  const nb::tuple t = nb::cast<nb::tuple>(a);
  if (t.size() == 5 && nb::cast<std::string>(t[0]) == "derived")
    return Accuracy::derived({nb::cast<std::string>(t[1]), nb::cast<std::string>(t[2]),
                              nb::cast<int>(t[3]), nb::cast<std::string>(t[4])});
  if (t.size() == 2) {
    nb::callable f = nb::cast<nb::callable>(t[0]);
    return Accuracy::ulps(
        [f](std::int64_t n, double range) {
          nb::gil_scoped_acquire gil;
          return nb::cast<double>(f(n, range));
        },
        nb::cast<std::string>(t[1]));
  }
  throw std::invalid_argument("accuracy: None, ulps, (f(n, range), formula) or a derived shape");
}

namespace {

RowKernel row_kernel_from_python(const nb::dict& d, nb::callable call) {
  RowKernel k(nb::cast<std::string>(d["name"]), Where::Host);
  const std::string dtype = get_or<std::string>(d, "dtype", "f32");
  const std::optional<DType> type = parse_dtype(dtype);
  if (!type) throw std::invalid_argument("dtype '" + dtype + "': f32, f16 or bf16");
  k.types(*type, *type);
  k.run([call](const RowProblem& p) { call_python(call, p); })
      .op(get_or<bool>(d, "log", false) ? RowOp::LogSoftmax : RowOp::Softmax)
      .masked_rows(get_or<std::string>(d, "masked_rows", "nan") == "zero" ? MaskedRow::Zero
                                                                          : MaskedRow::NaN)
      .pos_inf_rows(get_or<std::string>(d, "pos_inf_rows", "nan") == "limit" ? PosInfRow::Limit
                                                                             : PosInfRow::NaN)
      .accuracy(accuracy_from_python(d.contains("accuracy") ? d["accuracy"] : nb::none()))
      .vector_width(get_or<int>(d, "vector_width", 1))
      .block(get_or<int>(d, "block", 0))
      .max_cols(get_or<std::int64_t>(d, "max_cols", std::int64_t{1} << 20));
  declare_row_invariances(k, d)
      .exact_shift_invariant(get_or<bool>(d, "exact_shift_invariant", false))
      .flush_subnormal_outputs(get_or<bool>(d, "flush_subnormal_outputs", false))
      .error_floor(get_or<double>(d, "error_floor", 0.0))
      .description(get_or<std::string>(d, "description", ""));
  // layouts: (name, from) or (name, from, piece) each, by ascending from (RowLayout).
  for (const nb::handle layout : get_or<nb::list>(d, "layouts", nb::list())) {
    const auto t = nb::cast<std::vector<nb::object>>(layout);
    if (t.size() != 2 && t.size() != 3)
      throw std::invalid_argument("a layout is (name, from) or (name, from, piece)");
    k.layout(nb::cast<std::string>(t[0]), nb::cast<std::int64_t>(t[1]),
             t.size() == 3 ? nb::cast<std::int64_t>(t[2]) : 0);
  }
  return declared(std::move(k), d);
}

nb::dict case_dict(const RowCase& c) {
  nb::dict d;
  d["rows"] = row_arrays(c.rows);
  d["permutation"] = c.permutation;
  d["shift"] = c.shift;
  d["batch_position"] = c.batch_position;
  d["batch_rows"] = c.batch_rows;
  d["x_pad"] = c.layout.x_pad;
  d["y_pad"] = c.layout.y_pad;
  d["text"] = shown(c);
  return d;
}

bool contract_missing(const RowKernel& k) {
  return !k.accuracy().declared();
}

}  // namespace

PythonSide<RowKind> python_side(RowKind) {
  return {row_kernel_from_python, case_dict, contract_missing};
}

}  // namespace osvs::python
