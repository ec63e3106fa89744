#include "py_merge_kernel.h"

#include <nanobind/stl/string.h>

#include <stdexcept>
#include <string>

#include "osvs/api/registry.h"
#include "py_arrays.h"
#include "py_declaration.h"
#include "py_interrupt.h"

namespace osvs::python {
namespace {

void call_python(const nb::callable& call, const MergeProblem& p) {
  nb::gil_scoped_acquire gil;
  call_unless_interrupted([&] {
    const std::int64_t rows = p.rows, dim = p.head_dim;
    const nb::object o_a = rows_array(p.o_a<float>(), DType::F32, rows, dim, dim);
    const nb::object o_b = rows_array(p.o_b<float>(), DType::F32, rows, dim, dim);
    const nb::object lse_a = vector_array(std::vector<float>(p.lse_a, p.lse_a + rows));
    const nb::object lse_b = vector_array(std::vector<float>(p.lse_b, p.lse_b + rows));
    const nb::object result = call(o_a, lse_a, o_b, lse_b, to_string(p.base));
    if (!rows_unchanged(o_a, p.o_a<float>(), DType::F32, rows, dim, dim) ||
        !rows_unchanged(o_b, p.o_b<float>(), DType::F32, rows, dim, dim) ||
        !rows_unchanged(lse_a, p.lse_a, DType::F32, 1, rows, rows) ||
        !rows_unchanged(lse_b, p.lse_b, DType::F32, 1, rows, rows))
      throw std::runtime_error("the kernel modified its input arrays");
    const nb::tuple out = nb::cast<nb::tuple>(result);
    if (out.size() != 2) throw std::runtime_error("the kernel's result: expected (o, lse)");
    copy_rows_out(out[0], p.o_out<float>(), DType::F32, rows, dim, dim, "the kernel's o");
    copy_vector_out(out[1], p.lse_out, rows, "the kernel's lse");
  });
}

LseBase base_of(const std::string& b) {
  if (b == "e") return LseBase::E;
  if (b == "2") return LseBase::Two;
  throw std::invalid_argument("lse base '" + b + "': e or 2");
}

}  // namespace

MergeKernel merge_kernel_from_python(const nb::dict& d, nb::callable call) {
  MergeKernel k(nb::cast<std::string>(d["name"]), Where::Host);
  std::vector<LseBase> bases;
  for (nb::handle b : nb::cast<nb::list>(d["lse_bases"]))
    bases.push_back(base_of(nb::cast<std::string>(b)));
  const std::string empty = nb::cast<std::string>(d["empty_partial"]);
  if (empty != "-inf" && empty != "+inf")
    throw std::invalid_argument("empty_partial '" + empty + "': -inf or +inf");
  k.run([call](const MergeProblem& p) { call_python(call, p); })
      .o_types({DType::F32})
      .lse_bases(bases)
      .empty_partial(empty == "-inf" ? EmptyPartial::NegInfLse : EmptyPartial::PosInfLse);
  k.value_conventions(conventions_from_python(nb::cast<nb::list>(d["conventions"]), true));
  std::vector<int> head_dims;
  for (nb::handle h : nb::cast<nb::list>(d["head_dims"])) head_dims.push_back(nb::cast<int>(h));
  k.head_dims(head_dims).head_dim_multiple(nb::cast<int>(d["head_dim_multiple"]));
  declare_laws(k, nb::cast<nb::dict>(d["skip"]), nb::cast<nb::dict>(d["known_defect"]));
  if (const std::string problem = declaration_problem(k); !problem.empty())
    throw std::invalid_argument(problem);
  return k;
}

}  // namespace osvs::python
