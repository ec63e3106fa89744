#include "py_rowwise_kernel.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "osvs/api/rowwise_ops.h"
#include "py_arrays.h"
#include "py_declaration.h"
#include "py_interrupt.h"

namespace osvs::python {
namespace {

std::vector<DType> types_of(const nb::dict& d, const char* key) {
  std::vector<DType> out;
  for (const std::string& name : nb::cast<std::vector<std::string>>(d[key])) {
    const auto t = parse_dtype(name);
    if (!t)
      throw std::invalid_argument(std::string(key) + ": '" + name +
                                  "': f32, f16 or bf16 (i32 or i64 for an index array)");
    out.push_back(*t);
  }
  return out;
}

RowwiseOp op_of(const std::string& name) {
  std::string names;
  for (RowwiseOp op : kRowwiseOps) {
    if (name == to_string(op)) return op;
    names += std::string(names.empty() ? "" : ", ") + to_string(op);
  }
  throw std::invalid_argument("op '" + name + "': " + names);
}

/// The layout of array `a` of a launch: rows x cols at its stride, a shared (Column) array's
/// cols elements, a Row array's one element a row (a 1-D array of rows elements), a K array's
/// rows x k, a Batch array's one value (a 0-d array, as torch's reduction='mean' returns).
Layout layout_of(const RowwiseArray& a, const RowwiseProblem& p, std::int64_t stride) {
  if (a.extent == Extent::Batch) return Layout{{}, {}};
  if (a.extent == Extent::Column) return Layout{{p.cols}, {1}};
  if (a.extent == Extent::Row) return Layout{{p.rows}, {stride}};
  return row_layout(p.rows, a.width(p.cols, p.k), stride);
}

Ties ties_of(const std::string& name) {
  if (name == "lowest") return Ties::Lowest;
  if (name == "any") return Ties::Any;
  throw std::invalid_argument("ties '" + name + "': lowest or any");
}

InfRow inf_row_of(const std::string& name) {
  if (name == "nan") return InfRow::Nan;
  if (name == "ieee") return InfRow::Ieee;
  throw std::invalid_argument("inf_row '" + name + "': nan or ieee");
}

MeanOfNone mean_of_none_of(const std::string& name) {
  if (name == "nan") return MeanOfNone::Nan;
  if (name == "zero") return MeanOfNone::Zero;
  throw std::invalid_argument("mean_of_none '" + name + "': nan or zero");
}

/// The scalar parameters (of a launch, or of a case) as Python reads them: eps, label_smoothing,
/// ignore_index, k.
void add_params(nb::dict& d, const RowwiseParams& p) {
  d["eps"] = p.eps;
  d["label_smoothing"] = p.label_smoothing;
  d["ignore_index"] = p.ignore_index;
  d["k"] = p.k;
}

/// The launch's inputs handed to Python with its parameters, call(inputs, {eps, label_smoothing,
/// ignore_index, k}), and its outputs copied back; a kernel that writes into an array it was
/// given has modified its input.
void call_python(const nb::callable& call, RowwiseOp op, const RowwiseProblem& p) {
  nb::gil_scoped_acquire gil;
  call_unless_interrupted([&] {
    const RowwiseSignature& sig = signature(op);
    nb::list inputs;
    for (std::size_t a = 0; a < p.inputs.size(); ++a)
      inputs.append(strided_array(p.inputs[a].ptr, p.inputs[a].type,
                                  layout_of(sig.inputs[a], p, p.inputs[a].stride)));
    nb::dict params;
    add_params(params, p);
    const nb::object out = call(inputs, params);
    for (std::size_t a = 0; a < p.inputs.size(); ++a)
      if (!unchanged(inputs[a], p.inputs[a].ptr, p.inputs[a].type,
                     layout_of(sig.inputs[a], p, p.inputs[a].stride)))
        throw std::runtime_error("the kernel modified its input " + sig.inputs.at(a).name);
    // One output as the result, several as a sequence of them (mean_var: (mean, var); topk:
    // (values, indices)).
    const bool several = sig.outputs.size() > 1;
    if (several && (!nb::isinstance<nb::sequence>(out) || nb::len(out) != sig.outputs.size()))
      throw std::runtime_error("the kernel's result: a sequence of " +
                               std::to_string(sig.outputs.size()) + " arrays expected");
    for (std::size_t b = 0; b < sig.outputs.size(); ++b) {
      const RowArrayOut& o = p.outputs[b];
      copy_out(several ? nb::object(out[b]) : out, o.ptr, o.type,
               layout_of(sig.outputs[b], p, o.stride),
               ("the kernel's " + sig.outputs[b].name).c_str());
    }
  });
}

RowwiseKernel rowwise_kernel_from_python(const nb::dict& d, nb::callable call) {
  RowwiseKernel k(nb::cast<std::string>(d["name"]), Where::Host);
  const RowwiseOp op = op_of(get_or<std::string>(d, "op", "softmax_backward"));
  k.op(op)
      .types(types_of(d, "in_types"), types_of(d, "out_types"))
      .run([call, op](const RowwiseProblem& p) { call_python(call, op, p); })
      .max_cols(get_or<std::int64_t>(d, "max_cols", std::int64_t{1} << 16));
  declare_row_invariances(k, d)
      .scale_invariant(get_or<bool>(d, "scale_invariant", true))
      .ties(ties_of(get_or<std::string>(d, "ties", "lowest")))
      .sorted(get_or<bool>(d, "sorted", true))
      .label_smoothing(get_or<bool>(d, "label_smoothing", true))
      .inf_row(inf_row_of(get_or<std::string>(d, "inf_row", "nan")))
      .mean_of_none(mean_of_none_of(get_or<std::string>(d, "mean_of_none", "nan")))
      .description(get_or<std::string>(d, "description", ""));
  if (d.contains("accuracy") && !d["accuracy"].is_none()) {
    const auto terms = nb::cast<std::vector<double>>(d["accuracy"]);
    if (terms.size() != 3)
      throw std::invalid_argument("accuracy: None or (ulps, cond_rel, cond_rel_per_element)");
    k.accuracy(RowwiseAccuracy::bound(terms[0], terms[1], terms[2],
                                      get_or<std::string>(d, "bound_derivation", "")));
  }
  return declared(std::move(k), d);
}

nb::dict case_dict(const RowwiseCase& c) {
  nb::dict d;
  nb::list inputs;
  for (const Rows& a : c.inputs) inputs.append(row_arrays(a));
  d["inputs"] = inputs;
  add_params(d, c);
  d["permutation"] = c.permutation;
  d["batch_position"] = c.batch_position;
  d["pads"] = c.pads;
  d["shift"] = c.shift;
  d["scale_exponent"] = c.scale_exponent;
  d["text"] = shown(c);
  return d;
}

bool contract_missing(const RowwiseKernel& k) {
  return !k.accuracy().declared;
}

}  // namespace

PythonSide<RowwiseKind> python_side(RowwiseKind) {
  return {rowwise_kernel_from_python, case_dict, contract_missing};
}

}  // namespace osvs::python
