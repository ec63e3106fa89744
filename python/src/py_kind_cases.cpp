#include "py_kind_cases.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <sstream>

#include "py_arrays.h"
#include "py_merge_kernel.h"
#include "py_row_kernel.h"

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
    parts.append(part);
  }
  d["parts"] = parts;
  d["base"] = to_string(c.base);
  d["tree_choices"] = c.tree_choices;
  d["other_choices"] = c.other_choices;
  d["summary"] = MergeKind::summary(c);
  return d;
}

bool contract_missing(const MergeKernel&) {
  return false;  // a merge kernel's bound is always derived
}

}  // namespace osvs::python
