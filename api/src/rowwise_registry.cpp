// The row-wise kind's declaration: its ops' names and arrays, and the registry's check of a
// declaration (osvs/api/registry.h).
#include <cmath>
#include <stdexcept>
#include <string>

#include "declaration.h"
#include "entry_registry.h"
#include "osvs/api/law_names.h"
#include "osvs/api/rowwise_kernel.h"

namespace osvs {

namespace {

/// A row-wise op: its name and its arrays.
struct RowwiseOpRow {
  RowwiseOp op;
  const char* name;
  RowwiseSignature arrays;
};

/// The row of `op` in the table of every op, or nullptr for a value out of RowwiseOp's range.
const RowwiseOpRow* op_row(RowwiseOp op) {
  constexpr Extent shared = Extent::Column;
  static const RowwiseSignature mean_var{{{"x"}}, {{"mean", Extent::Row}, {"var", Extent::Row}}};
  static const RowwiseSignature batch_loss{{{"x"}, {"target", Extent::Row, true}},
                                           {{"loss", Extent::Batch}}};
  static const RowwiseOpRow rows[] = {
      {RowwiseOp::SoftmaxBackward, "softmax_backward", {{{"y"}, {"dy"}}, {{"dx"}}}},
      {RowwiseOp::LogSoftmaxBackward, "log_softmax_backward", {{{"z"}, {"dy"}}, {{"dx"}}}},
      {RowwiseOp::Logsumexp, "logsumexp", {{{"x"}}, {{"lse", Extent::Row}}}},
      {RowwiseOp::LayerNorm,
       "layer_norm",
       {{{"x"}, {"weight", shared}, {"bias", shared}}, {{"y"}}}},
      {RowwiseOp::RmsNorm, "rms_norm", {{{"x"}, {"weight", shared}}, {{"y"}}}},
      {RowwiseOp::MeanVar, "mean_var", mean_var},
      {RowwiseOp::MeanVarUnbiased, "mean_var_unbiased", mean_var},
      {RowwiseOp::CrossEntropy,
       "cross_entropy",
       {{{"x"}, {"target", Extent::Row, true}}, {{"loss", Extent::Row}}}},
      {RowwiseOp::Argmax, "argmax", {{{"x"}}, {{"index", Extent::Row, true}}}},
      {RowwiseOp::TopK, "topk", {{{"x"}}, {{"values", Extent::K}, {"indices", Extent::K, true}}}},
      {RowwiseOp::CrossEntropyMean, "cross_entropy_mean", batch_loss},
      {RowwiseOp::CrossEntropySum, "cross_entropy_sum", batch_loss}};
  for (const RowwiseOpRow& row : rows)
    if (row.op == op) return &row;
  return nullptr;
}

}  // namespace

const char* to_string(RowwiseOp op) {
  const RowwiseOpRow* row = op_row(op);
  return row ? row->name : "?";
}

const char* to_string(Ties t) {
  return t == Ties::Lowest ? "lowest" : "any";
}

const char* to_string(InfRow r) {
  return r == InfRow::Nan ? "nan" : "ieee";
}

const char* to_string(MeanOfNone m) {
  return m == MeanOfNone::Nan ? "nan" : "zero";
}

const RowwiseSignature& signature(RowwiseOp op) {
  if (const RowwiseOpRow* row = op_row(op)) return row->arrays;
  throw std::invalid_argument("row-wise op out of range");
}

std::string declaration_problem(const RowwiseKernel& k) {
  const std::string who = "row-wise kernel '" + k.name() + "'";
  if (const std::string why = api::name_problem(k.name()); !why.empty()) return why;
  if (!k.has_callable()) return who + " has no callable (.run(...))";
  const RowwiseSignature& sig = signature(k.op());
  if (k.in_types().size() != sig.inputs.size() || k.out_types().size() != sig.outputs.size())
    return who + " declares " + std::to_string(k.in_types().size()) + " input and " +
           std::to_string(k.out_types().size()) + " output types; " + to_string(k.op()) + " has " +
           std::to_string(sig.inputs.size()) + " inputs and " + std::to_string(sig.outputs.size()) +
           " output";
  const auto type_problem = [&](const RowwiseArray& array, DType t) -> std::string {
    if (array.index == is_integer(t) && !is_fp8(t)) return "";
    return who + " declares " + to_string(t) + " for " + array.name + ", " +
           (array.index ? "an index array (i32 or i64)" : "an array of values (f32, bf16, f16)");
  };
  for (std::size_t a = 0; a < sig.inputs.size(); ++a)
    if (std::string why = type_problem(sig.inputs[a], k.in_types()[a]); !why.empty()) return why;
  for (std::size_t b = 0; b < sig.outputs.size(); ++b)
    if (std::string why = type_problem(sig.outputs[b], k.out_types()[b]); !why.empty()) return why;
  if (k.op() == RowwiseOp::TopK && k.out_types()[0] != k.in_types()[0])
    return who + ": topk's values are x's elements, of x's type " + to_string(k.in_types()[0]);
  const RowwiseAccuracy& a = k.accuracy();
  for (double term : {a.ulps, a.cond_rel, a.cond_rel_per_element})
    if (a.declared && !(std::isfinite(term) && term >= 0))
      return who + " declares an accuracy term that is negative or not finite";
  if (k.traits().max_cols < 1) return who + " declares max_cols < 1";
  const RowwiseOp op = k.op();
  if (k.traits().inf_row != InfRow::Nan && op != RowwiseOp::RmsNorm && op != RowwiseOp::LayerNorm)
    return who + " declares inf_row " + to_string(k.traits().inf_row) + ", a convention of the " +
           "norms (rms_norm, layer_norm), not of " + to_string(op);
  if (k.traits().mean_of_none != MeanOfNone::Nan && op != RowwiseOp::CrossEntropyMean)
    return who + " declares mean_of_none " + to_string(k.traits().mean_of_none) +
           ", a convention of cross_entropy_mean, not of " + to_string(op);
  return api::declared_law_problem(who, k, kRowwiseLawNames, "row-wise law");
}

OSVS_INSTANTIATE_REGISTRY(RowwiseKernel);

}  // namespace osvs
