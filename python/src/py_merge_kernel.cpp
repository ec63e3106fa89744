#include "py_merge_kernel.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "osvs/api/registry.h"
#include "osvs/kernels/dtype.h"
#include "py_arrays.h"
#include "py_declaration.h"
#include "py_interrupt.h"

namespace osvs::python {
namespace {

/// How the partials reach the callable: as rows (o (rows, head_dim), lse (rows,)), or in an
/// engine's shapes (o (tokens, heads, head_dim) through the problem's o strides, lse
/// (tokens, heads) or (heads, tokens) as its layout says).
struct MergeArrays {
  Layout o, lse;
};

MergeArrays arrays_of(const MergeProblem& p, bool engine_shapes) {
  const std::int64_t dim = p.head_dim;
  if (!engine_shapes) return {row_layout(p.rows, dim, dim), Layout{{p.rows}, {1}}};
  const std::int64_t tokens = p.tokens(), heads = p.heads;
  return {Layout{{tokens, heads, dim}, {p.o_token_stride, p.o_head_stride, 1}},
          p.lse_layout == LseLayout::TokensHeads ? Layout{{tokens, heads}, {heads, 1}}
                                                 : Layout{{heads, tokens}, {tokens, 1}}};
}

void call_python(const nb::callable& call, const MergeProblem& p, bool engine_shapes) {
  nb::gil_scoped_acquire gil;
  call_unless_interrupted([&] {
    const MergeArrays l = arrays_of(p, engine_shapes);
    const nb::object o_a = strided_array(p.o_a_ptr, p.o_type, l.o);
    const nb::object o_b = strided_array(p.o_b_ptr, p.o_type, l.o);
    const nb::object lse_a = strided_array(p.lse_a, DType::F32, l.lse);
    const nb::object lse_b = strided_array(p.lse_b, DType::F32, l.lse);
    const nb::object result = call(o_a, lse_a, o_b, lse_b, to_string(p.base));
    if (!unchanged(o_a, p.o_a_ptr, p.o_type, l.o) || !unchanged(o_b, p.o_b_ptr, p.o_type, l.o) ||
        !unchanged(lse_a, p.lse_a, DType::F32, l.lse) ||
        !unchanged(lse_b, p.lse_b, DType::F32, l.lse))
      throw std::runtime_error("the kernel modified its input arrays");
    const nb::tuple out = nb::cast<nb::tuple>(result);
    if (out.size() != 2) throw std::runtime_error("the kernel's result: expected (o, lse)");
    copy_out(out[0], p.o_out_ptr, p.o_type, l.o, "the kernel's o");
    copy_out(out[1], p.lse_out, DType::F32, l.lse, "the kernel's lse");
  });
}

DType o_type_of(const std::string& name) {
  if (const std::optional<DType> type = parse_dtype(name)) return *type;
  throw std::invalid_argument("o dtype '" + name + "': f32, f16 or bf16");
}

MergeKernel merge_kernel_from_python(const nb::dict& d, nb::callable call) {
  MergeKernel k(nb::cast<std::string>(d["name"]), Where::Host);
  const std::vector<LseBase> bases = parsed<LseBase>(d, "lse_bases", lse_base_of);
  const std::string empty = nb::cast<std::string>(d["empty_partial"]);
  if (empty != "-inf" && empty != "+inf")
    throw std::invalid_argument("empty_partial '" + empty + "': -inf or +inf");
  const std::vector<DType> o_types = parsed<DType>(d, "o_dtypes", o_type_of);
  // None: the partials as rows; a layout: the engine's shapes, with its lse layout.
  const bool engine_shapes = !d["lse_layout"].is_none();
  if (engine_shapes) {
    const std::string layout = nb::cast<std::string>(d["lse_layout"]);
    if (layout != "tokens_heads" && layout != "heads_tokens")
      throw std::invalid_argument("lse_layout '" + layout +
                                  "': None (rows), 'tokens_heads' or 'heads_tokens'");
    k.lse_layout(layout == "tokens_heads" ? LseLayout::TokensHeads : LseLayout::HeadsTokens);
  }
  const bool strided = nb::cast<bool>(d["o_strided"]);
  if (strided && !engine_shapes)
    throw std::invalid_argument(
        "o_strided: o is padded per head and per token, which only the engine shapes carry "
        "(declare lse_layout 'tokens_heads' or 'heads_tokens')");
  k.run([call, engine_shapes](const MergeProblem& p) { call_python(call, p, engine_shapes); })
      .o_types(o_types)
      .o_strided(strided)
      .lse_bases(bases)
      .empty_partial(empty == "-inf" ? EmptyPartial::NegInfLse : EmptyPartial::PosInfLse);
  k.value_conventions(conventions_from_python(nb::cast<nb::list>(d["conventions"]), true));
  std::vector<int> head_dims;
  for (nb::handle h : nb::cast<nb::list>(d["head_dims"])) head_dims.push_back(nb::cast<int>(h));
  k.head_dims(head_dims).head_dim_multiple(nb::cast<int>(d["head_dim_multiple"]));
  return declared(std::move(k), d);
}

nb::dict case_dict(const MergeCase& c) {
  nb::dict d;
  nb::list parts;
  for (const AttnStates& p : c.parts) {
    nb::dict part;
    part["o"] = rows_array(p.o.data(), DType::F32, p.rows, p.head_dim, p.head_dim);
    part["lse"] = vector_array(p.lse);
    part["o_type"] = to_string(p.o_type);
    parts.append(part);
  }
  d["parts"] = parts;
  // How the rows were laid out for the kernel (rows = tokens x heads; o padded per head and per
  // token where the kernel declares o_strided).
  nb::dict shape;
  shape["heads"] = c.shape.heads;
  shape["head_pad"] = c.shape.head_pad;
  shape["token_pad"] = c.shape.token_pad;
  d["shape"] = shape;
  d["base"] = to_string(c.base);
  d["tree_choices"] = c.tree_choices;
  d["other_choices"] = c.other_choices;
  return d;
}

bool contract_missing(const MergeKernel&) {
  return false;  // a merge kernel's bound is always derived
}

}  // namespace

PythonSide<MergeKind> python_side(MergeKind) {
  return {merge_kernel_from_python, case_dict, contract_missing};
}

}  // namespace osvs::python
