#include "py_kind_cases.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <sstream>
#include <stdexcept>

#include "py_arrays.h"
#include "py_attention_kernel.h"
#include "py_declaration.h"
#include "py_merge_kernel.h"
#include "py_reduction_kernel.h"
#include "py_row_kernel.h"
#include "py_rowwise_kernel.h"

namespace osvs::python {

RowKernel kernel_from_python(RowKind, const nb::dict& declaration, nb::callable call) {
  return row_kernel_from_python(declaration, std::move(call));
}

nb::dict case_dict(const RowCase& c) {
  nb::dict d;
  nb::list rows;
  for (const auto& r : c.rows) rows.append(vector_array(r));
  d["rows"] = rows;
  d["permutation"] = c.permutation;
  d["shift"] = c.shift;
  d["batch_position"] = c.batch_position;
  d["batch_rows"] = c.batch_rows;
  d["x_pad"] = c.layout.x_pad;
  d["y_pad"] = c.layout.y_pad;
  d["summary"] = RowKind::summary(c);
  std::ostringstream text;
  showValue(c, text);
  d["text"] = text.str();
  return d;
}

bool contract_missing(const RowKernel& k) {
  return !k.accuracy().declared();
}

MergeKernel kernel_from_python(MergeKind, const nb::dict& declaration, nb::callable call) {
  return merge_kernel_from_python(declaration, std::move(call));
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
  d["summary"] = MergeKind::summary(c);
  return d;
}

bool contract_missing(const MergeKernel&) {
  return false;  // a merge kernel's bound is always derived
}

AttentionKernel kernel_from_python(AttentionKind, const nb::dict& declaration, nb::callable call) {
  return attention_kernel_from_python(declaration, std::move(call));
}

nb::dict case_dict(const AttentionCase& c) {
  nb::dict d;
  nb::list seqs;
  for (const AttentionSequence& s : c.seqs) seqs.append(nb::make_tuple(s.q_len, s.k_len));
  d["seqs"] = seqs;
  d["heads_q"] = c.heads_q;
  d["heads_kv"] = c.heads_kv;
  d["head_dim_qk"] = c.head_dim_qk;
  d["head_dim_v"] = c.head_dim_v;
  d["dtype"] = to_string(c.in_type);
  if (c.kv_type) {  // fp8 K/V: k and v below are the stored values (true: times the scales)
    d["kv_type"] = to_string(*c.kv_type);
    d["k_scale"] = c.k_scale;
    d["v_scale"] = c.v_scale;
  }
  d["scale"] = c.scale;
  d["mask"] = to_string(c.mask.kind);
  d["window"] = nb::make_tuple(c.mask.window_left, c.mask.window_right);
  d["page_size"] = c.page_size;
  d["page_order"] = c.page_order;
  d["q"] = vector_array(c.q);
  d["k"] = vector_array(c.k);
  d["v"] = vector_array(c.v);
  if (!c.dout.empty()) d["dout"] = vector_array(c.dout);
  if (!c.sinks.empty()) d["sinks"] = vector_array(c.sinks);
  d["summary"] = AttentionKind::summary(c);
  return d;
}

bool contract_missing(const AttentionKernel&) {
  return false;  // an attention kernel's contract is always declared (it has a default)
}

}  // namespace osvs::python

namespace osvs::python {

ReductionKernel kernel_from_python(ReductionKind, const nb::dict& declaration, nb::callable call) {
  return reduction_kernel_from_python(declaration, std::move(call));
}

/// A reduction order's fields (its chunks, their slots, the merges, the root) into d.
static void add_schedule(nb::dict& d, const HarnessCase& h) {
  d["chunk_offsets"] = h.chunk_offsets;
  d["slot_chunk"] = h.slot_chunk;
  nb::list merges;
  for (const Merge& m : h.merges) merges.append(nb::make_tuple(m.dst, m.src));
  d["merges"] = merges;
  d["root"] = h.root;
}

nb::dict case_dict(const ReductionCase& c) {
  nb::dict d;
  d["row"] = vector_array(c.schedule.row);
  add_schedule(d, c.schedule);
  d["summary"] = ReductionKind::summary(c);
  return d;
}

bool contract_missing(const ReductionKernel&) {
  return false;  // a reduction declares its exact reference (and tolerance, else exact results)
}

RowwiseKernel kernel_from_python(RowwiseKind, const nb::dict& declaration, nb::callable call) {
  return rowwise_kernel_from_python(declaration, std::move(call));
}

nb::dict case_dict(const RowwiseCase& c) {
  nb::dict d;
  nb::list inputs;
  for (const Rows& a : c.inputs) {
    nb::list rows;
    for (const auto& r : a) rows.append(vector_array(r));
    inputs.append(rows);
  }
  d["inputs"] = inputs;
  d["eps"] = c.eps;
  d["permutation"] = c.permutation;
  d["batch_position"] = c.batch_position;
  d["pads"] = c.pads;
  d["shift"] = c.shift;
  d["scale_exponent"] = c.scale_exponent;
  d["label_smoothing"] = c.label_smoothing;
  d["ignore_index"] = c.ignore_index;
  d["k"] = c.k;
  d["summary"] = RowwiseKind::summary(c);
  std::ostringstream text;
  showValue(c, text);
  d["text"] = text.str();
  return d;
}

bool contract_missing(const RowwiseKernel& k) {
  return !k.accuracy().declared;
}

}  // namespace osvs::python

namespace osvs::python {

CombineKernel kernel_from_python(CombineOperatorKind, const nb::dict& declaration, nb::callable) {
  const std::string name = nb::cast<std::string>(declaration["name"]);
  const std::optional<CombineKind> op = parse_combine(name);
  if (!op)
    throw std::invalid_argument("no combine operator named '" + name +
                                "' is registered (a combine operator is a C++ type: "
                                "OSVS_REGISTER_COMBINE)");
  return declared(CombineKernel(name, Where::Host, &op->op()), declaration);
}

nb::dict case_dict(const CombineCase& c) {
  nb::dict d;
  nb::list states;
  for (const State& s : c.states) states.append(nb::make_tuple(s.m, s.d));
  d["states"] = states;
  d["state_format"] = to_string(c.state_format);
  nb::list rows;
  for (const auto& r : c.rows) rows.append(vector_array(r));
  d["rows"] = rows;
  nb::list schedules;
  for (const HarnessCase& h : c.schedules) {
    nb::dict s;
    add_schedule(s, h);
    schedules.append(s);
  }
  d["schedules"] = schedules;
  d["summary"] = CombineOperatorKind::summary(c);
  return d;
}

bool contract_missing(const CombineKernel&) {
  return false;  // the combine laws are bitwise or hold a derived bound: nothing to declare
}

}  // namespace osvs::python
