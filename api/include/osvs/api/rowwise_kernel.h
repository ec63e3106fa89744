// RowwiseKernel: a black-box row kernel over several arrays under test. Each row i of an M x N
// launch reads row i of every input array and writes row i of every output array; each array
// has its element type (f32, bf16, f16; i32 or i64 for an index array), its extent (N elements
// a row, one a row, k a row, or N shared by every row) and its row stride. The op says what the
// outputs are (rowwise_ops.h):
//   softmax_backward      (y, dy) -> dx = y (dy - sum_j y_j dy_j)   torch's _softmax_backward_data
//   log_softmax_backward  (z, dy) -> dx = dy - exp(z) sum_j dy_j    _log_softmax_backward_data
//   logsumexp             (x) -> lse, one a row                     torch.logsumexp(x, -1)
//   layer_norm            (x, weight, bias) -> y, eps               torch.nn.functional.layer_norm
//   rms_norm              (x, weight) -> y, eps                     torch.nn.functional.rms_norm
//   mean_var              (x) -> (mean, var), one each a row        torch.var_mean(x, -1,
//                                                                   correction=0)
//   mean_var_unbiased     (x) -> (mean, var), var over n - 1        torch.var_mean(x, -1)
//   cross_entropy         (x, target: index, one a row) -> loss,    torch.nn.functional.
//                         one a row; ignore_index, label_smoothing  cross_entropy(reduction='none')
//   cross_entropy_mean    (x, target) -> loss, one for the batch:   cross_entropy(reduction=
//                         the mean over the rows not ignored        'mean'), no class weights
//   cross_entropy_sum     (x, target) -> loss, one for the batch    cross_entropy(reduction='sum')
//   argmax                (x) -> index, one a row                   torch.argmax(x, -1)
//   topk                  (x) -> (values, indices), k a row         torch.topk(x, k, -1)
// (weight and bias: N elements shared by every row).
//
//   osvs::RowwiseKernel("my_softmax_backward", osvs::Where::Device)
//       .op(osvs::RowwiseOp::SoftmaxBackward)
//       .types({osvs::DType::F32, osvs::DType::F32}, {osvs::DType::F32})
//       .run([](const osvs::RowwiseProblem& p) {
//         my_backward(p.in<float>(0), p.in<float>(1), p.out<float>(0), p.rows, p.cols, ...);
//       })
//       .accuracy(osvs::RowwiseAccuracy::bound(2, 0, 0x1p-23, "my derivation"));
//
// The laws (rowwise_laws.h): accuracy within the declared contract, empty (fully masked) rows,
// special values (NaN and infinities), determinism, batch invariance, strided layouts and
// permutation equivariance, shift and scale invariance where the op has them. An op that
// reduces the batch (cross_entropy_mean, cross_entropy_sum) is judged on its one value: the
// batch's conventions (every row ignored, no row), invariance under a permutation of the rows
// and of every row's columns, determinism, strided rows, shift invariance.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/api/dtype.h"
#include "osvs/api/kernel_declaration.h"
#include "osvs/api/registry.h"

namespace osvs {

/// What a row-wise kernel computes (rowwise_ops.h defines each).
enum class RowwiseOp {
  SoftmaxBackward,
  LogSoftmaxBackward,
  Logsumexp,
  LayerNorm,
  RmsNorm,
  MeanVar,
  MeanVarUnbiased,
  CrossEntropy,
  Argmax,
  TopK,
  CrossEntropyMean,
  CrossEntropySum
};

/// Every op, in declaration order.
inline constexpr RowwiseOp kRowwiseOps[] = {
    RowwiseOp::SoftmaxBackward,  RowwiseOp::LogSoftmaxBackward,
    RowwiseOp::Logsumexp,        RowwiseOp::LayerNorm,
    RowwiseOp::RmsNorm,          RowwiseOp::MeanVar,
    RowwiseOp::MeanVarUnbiased,  RowwiseOp::CrossEntropy,
    RowwiseOp::Argmax,           RowwiseOp::TopK,
    RowwiseOp::CrossEntropyMean, RowwiseOp::CrossEntropySum};

/// "softmax_backward", "log_softmax_backward", "logsumexp", "layer_norm", "rms_norm",
/// "mean_var", "mean_var_unbiased", "cross_entropy", "argmax", "topk", "cross_entropy_mean",
/// "cross_entropy_sum".
const char* to_string(RowwiseOp op);

/// How many elements an array holds for a launch of `rows` rows of `cols` elements.
enum class Extent {
  Element,  ///< cols a row, at the array's row stride
  Row,      ///< one a row (a row's reduced value), at the array's row stride
  Column,   ///< cols in all, shared by every row (stride 0): LayerNorm's weight and bias
  K,        ///< the launch's k a row, at the array's row stride: top-k's values and indices
  Batch,    ///< one for the whole launch (stride 0): a batch reduction's value
};

/// An array of an op: its name, extent and whether it holds indices (an integer type: i32 or
/// i64) rather than values (f32, bf16, f16).
struct RowwiseArray {
  std::string name;
  Extent extent = Extent::Element;
  bool index = false;
  /// The elements a row of it holds: cols, 1 for Extent::Row and Extent::Batch, k for
  /// Extent::K.
  std::int64_t width(std::int64_t cols, std::int64_t k = 0) const {
    return extent == Extent::Row || extent == Extent::Batch ? 1 : extent == Extent::K ? k : cols;
  }
  /// The rows it holds in a launch of `rows` rows: 1 for a Column and a Batch array.
  std::int64_t rows_of(std::int64_t rows) const {
    return extent == Extent::Column || extent == Extent::Batch ? 1 : rows;
  }
  /// Whether its rows may be padded (row strides > width): not a Column or Batch array's one.
  bool paddable() const { return extent != Extent::Column && extent != Extent::Batch; }
};

/// An op's input and output arrays, in the order a launch holds them: softmax_backward (y, dy)
/// -> (dx), log_softmax_backward (z, dy) -> (dx), logsumexp (x) -> (lse: Row), layer_norm
/// (x, weight: Column, bias: Column) -> (y), rms_norm (x, weight: Column) -> (y), mean_var (x)
/// -> (mean: Row, var: Row), cross_entropy (x, target: Row index) -> (loss: Row), argmax (x) ->
/// (index: Row index), topk (x) -> (values: K, indices: K index), cross_entropy_mean and
/// cross_entropy_sum (x, target: Row index) -> (loss: Batch). Input 0 is always an Element
/// array of values, the one whose rows the laws draw.
struct RowwiseSignature {
  std::vector<RowwiseArray> inputs;
  std::vector<RowwiseArray> outputs;
};

const RowwiseSignature& signature(RowwiseOp op);

/// One array of a launch: its first element, its element type and its row stride (elements).
struct RowArrayIn {
  const void* ptr = nullptr;
  DType type = DType::F32;
  std::int64_t stride = 0;
};
struct RowArrayOut {
  void* ptr = nullptr;
  DType type = DType::F32;
  std::int64_t stride = 0;
};

/// The scalar parameters of a launch, each read by the ops named (the others ignore it).
struct RowwiseParams {
  /// layer_norm and rms_norm: the epsilon added to the variance (mean square), exactly this
  /// float; 0 for the other ops.
  float eps = 0;
  /// cross_entropy (and its batch reductions): the weight eps of the uniform distribution mixed
  /// into the target, in [0, 1] (torch's label_smoothing), exactly this float.
  float label_smoothing = 0;
  /// cross_entropy: a row whose target is this value has loss 0 (torch's default -100); the
  /// batch reductions do not count it.
  std::int64_t ignore_index = -100;
  /// topk: how many of a row's largest elements, 1 <= k <= cols.
  std::int64_t k = 0;
};

/// One launch: `rows` rows of `cols` elements; element (i, j) of input a at
/// inputs[a].ptr + i * inputs[a].stride + j (stride 0 for a Column array: every row reads the
/// same cols elements), of output b likewise (j = 0 only, for a Row output; j < k for a K one).
/// The kernel writes the width (cols, 1 or k) elements of each row of each output and nothing
/// else; a Batch output is one element, at outputs[b].ptr (stride 0), written whatever the
/// number of rows: a batch reduction is launched with rows = 0 too (its empty batch, whose
/// value is a convention). stream: the cudaStream_t to launch on (Where::Device) or null
/// (Where::Host).
struct RowwiseProblem : Launch, RowwiseParams {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<RowArrayIn> inputs;    ///< in the op's order (signature(op))
  std::vector<RowArrayOut> outputs;  ///< in the op's order

  template <class T>
  const T* in(std::size_t a) const {
    return typed<T>(inputs[a].ptr);
  }
  template <class T>
  T* out(std::size_t b) const {
    return typed<T>(outputs[b].ptr);
  }
};

/// The accuracy contract of every output element o_i of a row of n elements:
///   |o_i - exact_i| <= ulps * ulp_out(exact_i) + (cond_rel + cond_rel_per_element * n) * cond_i
/// where ulp_out is the ulp of the output type (subnormal grid included) and cond_i the op's
/// condition term (rowwise_ops.h; softmax backward |y_i| (|dy_i| + sum_j |y_j dy_j|), logsumexp
/// 1, the norms' and cross-entropy's in docs/semantics.md §11). A contract in ulps alone is
/// wrong where the output cancels (dy_i - sum_j y_j dy_j near 0): there an error of a few
/// roundings of the sum is many ulps of dx. docs/semantics.md §11 derives the terms for osvs's
/// own kernels. Index outputs (argmax's, topk's) and the values topk selects have no contract:
/// they are exact, under the declared tie rule. A batch reduction's one value is held to the
/// same form with n the batch's element count rows * cols and cond the batch's (rowwise_ops.h:
/// the mean, or the sum, of the counted rows' 1 + loss_i): the per-row errors and the sum over
/// the rows, gamma_(rows - 1) of it, both scale with it.
struct RowwiseAccuracy {
  bool declared = false;
  double ulps = 0;
  double cond_rel = 0;
  double cond_rel_per_element = 0;
  std::string derivation;  ///< where the bound is derived ("" for a declared, not derived, one)

  static RowwiseAccuracy none() { return {}; }
  static RowwiseAccuracy bound(double ulps, double cond_rel, double cond_rel_per_element,
                               std::string derivation = "") {
    return {true, ulps, cond_rel, cond_rel_per_element, std::move(derivation)};
  }
  /// "2 ulp + (0 + 0x1p-52 n) cond", "none declared".
  std::string describe() const;
};

/// Which index argmax and topk return among equal elements (+0 and -0 are equal; NaN, the
/// largest of all, equals NaN).
enum class Ties {
  Lowest,  ///< the lowest index first (torch.argmax's documented rule)
  Any,     ///< any of them (torch.topk's: its order among ties is unspecified)
};

/// What an RMSNorm row holding +-inf (no NaN) gives (docs/semantics.md §11.1): every y_i NaN
/// (the default: no finite mean square, as a LayerNorm row), or the IEEE evaluation of the
/// formula, x_i / sqrt(inf) w_i: +-0 at a finite x_i (NaN where w_i is not finite), NaN at an
/// infinite x_i (inf / inf). LayerNorm's row is NaN under both (its mean is not finite).
enum class InfRow {
  Nan,
  Ieee,
};

/// What cross_entropy_mean gives for a batch with no row counted (every row ignored, or no
/// row): 0 / 0 = NaN (the default: torch's since 1.11), or 0 (torch's before, and engines that
/// guard the division).
enum class MeanOfNone {
  Nan,
  Zero,
};

/// What shapes the laws' cases and which invariances are held bit for bit.
struct RowwiseTraits {
  std::int64_t max_cols = std::int64_t{1} << 16;  ///< longest row the kernel accepts
  bool strided = true;                            ///< accepts row strides > cols (the strided law)
  bool deterministic = true;                      ///< two launches give the same bits
  /// A row's bits depend on neither the batch nor its position; for a batch reduction, its
  /// value's bits do not depend on the order of the rows.
  bool batch_invariant = true;
  bool order_independent = false;  ///< permuting a row permutes its outputs bit for bit
  /// layer_norm, rms_norm with eps = 0: x scaled by a power of two gives the same bits.
  bool scale_invariant = true;
  /// argmax, topk: the tie rule.
  Ties ties = Ties::Lowest;
  /// topk: the k values in descending order (NaN first), else in any order.
  bool sorted = true;
  /// cross_entropy: accepts label_smoothing > 0 (else the laws draw 0 only).
  bool label_smoothing = true;
  /// rms_norm: the convention for a row holding +-inf.
  InfRow inf_row = InfRow::Nan;
  /// cross_entropy_mean: the value of a batch with no row counted.
  MeanOfNone mean_of_none = MeanOfNone::Nan;
};

class RowwiseKernel : public KernelDeclaration<RowwiseKernel, RowwiseProblem> {
 public:
  RowwiseKernel() = default;
  RowwiseKernel(std::string name, Where where) : KernelDeclaration(std::move(name), where) {}

  // --- declaration (each returns *this)
  RowwiseKernel& op(RowwiseOp o) { return (op_ = o, *this); }
  /// The element type of each input and each output, in the op's order.
  RowwiseKernel& types(std::vector<DType> in, std::vector<DType> out) {
    return (in_ = std::move(in), out_ = std::move(out), *this);
  }
  RowwiseKernel& accuracy(RowwiseAccuracy a) { return (accuracy_ = std::move(a), *this); }
  RowwiseKernel& traits(RowwiseTraits t) { return (traits_ = t, *this); }
  RowwiseKernel& max_cols(std::int64_t n) { return (traits_.max_cols = n, *this); }
  RowwiseKernel& strided(bool s) { return (traits_.strided = s, *this); }
  RowwiseKernel& deterministic(bool d) { return (traits_.deterministic = d, *this); }
  RowwiseKernel& batch_invariant(bool b) { return (traits_.batch_invariant = b, *this); }
  RowwiseKernel& order_independent(bool o = true) { return (traits_.order_independent = o, *this); }
  RowwiseKernel& scale_invariant(bool s) { return (traits_.scale_invariant = s, *this); }
  RowwiseKernel& ties(Ties t) { return (traits_.ties = t, *this); }
  RowwiseKernel& sorted(bool s) { return (traits_.sorted = s, *this); }
  RowwiseKernel& label_smoothing(bool l) { return (traits_.label_smoothing = l, *this); }
  RowwiseKernel& inf_row(InfRow r) { return (traits_.inf_row = r, *this); }
  RowwiseKernel& mean_of_none(MeanOfNone m) { return (traits_.mean_of_none = m, *this); }

  // --- reading the declaration
  RowwiseOp op() const { return op_; }
  const std::vector<DType>& in_types() const { return in_; }
  const std::vector<DType>& out_types() const { return out_; }
  const RowwiseAccuracy& accuracy() const { return accuracy_; }
  const RowwiseTraits& traits() const { return traits_; }

 private:
  RowwiseOp op_ = RowwiseOp::SoftmaxBackward;
  std::vector<DType> in_{DType::F32, DType::F32};
  std::vector<DType> out_{DType::F32};
  RowwiseAccuracy accuracy_;
  RowwiseTraits traits_;
};

/// "lowest", "any".
const char* to_string(Ties t);
/// "nan", "ieee".
const char* to_string(InfRow r);
/// "nan", "zero".
const char* to_string(MeanOfNone m);

/// Why a row-wise kernel's declaration is unusable, or "": no name or callable, types that do
/// not match the op's arrays (a value type for an index array or the reverse), a contract with a
/// negative or non-finite term, max_cols < 1, a convention the op does not have (inf_row ieee
/// for an op other than rms_norm and layer_norm, mean_of_none zero for one other than
/// cross_entropy_mean), or a skip / known defect naming no row-wise law (registry.h's
/// register_kernel refuses it).
std::string declaration_problem(const RowwiseKernel& k);

}  // namespace osvs

/// Registers the RowwiseKernel returned by the function body that follows:
///   OSVS_REGISTER_ROWWISE_KERNEL(my_backward) { return osvs::RowwiseKernel(...)...; }
#define OSVS_REGISTER_ROWWISE_KERNEL(id)                                                      \
  OSVS_DETAIL_REGISTER(::osvs::RowwiseKernel, ::osvs::register_kernel<::osvs::RowwiseKernel>, \
                       rowwise_kernel, id)
