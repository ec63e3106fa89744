// The row-wise kind's case summary and kernel description (osvs/api/kind.h).
#include <sstream>

#include "osvs/api/kind.h"
#include "osvs/api/rowwise_ops.h"
#include "osvs/kernels/hex.h"

namespace osvs {

std::string case_summary(const RowwiseCase& c) {
  std::ostringstream s;
  s << c.rows() << " row(s) of " << c.cols() << " elements";
  if (c.eps != 0) s << ", eps " << hex(c.eps);
  if (c.label_smoothing != 0) s << ", label_smoothing " << hex(c.label_smoothing);
  if (c.ignore_index != -100) s << ", ignore_index " << c.ignore_index;
  if (c.k != 0) s << ", k " << c.k;
  if (c.shift != 0) s << ", shifted by " << hex(c.shift);
  if (c.scale_exponent != 0) s << ", scaled by 2^" << c.scale_exponent;
  if (!c.permutation.empty()) s << ", permuted";
  if (c.rows() > 1 && c.batch_position > 0) s << ", the row at " << c.batch_position;
  bool padded = false;
  for (std::int64_t p : c.pads) padded = padded || p > 0;
  if (padded) {
    s << ", padding";
    for (std::size_t a = 0; a < c.pads.size(); ++a) s << (a ? "/" : " ") << c.pads[a];
  }
  return s.str();
}

void showValue(const RowwiseCase& c, std::ostream& os) {
  os << case_summary(c);
  for (std::size_t a = 0; a < c.inputs.size(); ++a) {
    os << "\n  input " << a << " row 0: [";
    const std::vector<float>& row = c.inputs[a][0];
    for (std::size_t j = 0; j < row.size() && j < 8; ++j) os << (j ? ", " : "") << hex(row[j]);
    os << (row.size() > 8 ? ", ...]" : "]");
  }
}

std::string kernel_summary(const RowwiseKernel& k) {
  const RowwiseSignature& sig = signature(k.op());
  std::ostringstream s;
  s << to_string(k.op()) << " (";
  for (std::size_t a = 0; a < sig.inputs.size(); ++a)
    s << (a ? ", " : "") << sig.inputs[a].name << " " << to_string(k.in_types()[a]);
  s << ") -> (";
  for (std::size_t b = 0; b < sig.outputs.size(); ++b)
    s << (b ? ", " : "") << sig.outputs[b].name << " " << to_string(k.out_types()[b]);
  s << ") on " << to_string(k.where()) << ", contract " << k.accuracy().describe();
  if (selects(k.op()))
    s << ", ties " << to_string(k.traits().ties)
      << (k.op() == RowwiseOp::TopK ? (k.traits().sorted ? ", sorted" : ", any order") : "");
  if (k.op() == RowwiseOp::RmsNorm) s << ", inf_row " << to_string(k.traits().inf_row);
  if (k.op() == RowwiseOp::CrossEntropyMean)
    s << ", mean of none " << to_string(k.traits().mean_of_none);
  return s.str();
}

}  // namespace osvs
