// RowKernel: a black-box softmax or log-softmax kernel under test, declared the way PyTorch's
// OpInfo declares an operator: a name, the callable, its element types, where it runs, the
// conventions it documents for rows the arithmetic leaves open, the accuracy it promises and the
// traits that shape its tests (vector width, block width, which invariances hold bit for bit).
//
// Nothing is inferred: a law that a kernel does not declare is checked within its accuracy
// contract instead of bitwise, and a kernel without an accuracy contract is measured and
// reported, while the release gate says "no contract declared".
//
//   osvs::RowKernel("my_softmax", osvs::Where::Device)
//       .run([](const osvs::RowProblem& p) {
//         my_softmax(p.x<float>(), p.y<float>(), p.rows, p.cols, p.cuda_stream());
//       })
//       .masked_rows(osvs::MaskedRow::Zero)
//       .accuracy(osvs::Accuracy::ulps(4));
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "osvs/api/accuracy.h"
#include "osvs/api/dtype.h"
#include "osvs/api/kernel_declaration.h"

namespace osvs {

/// What the kernel computes for each row x: softmax y_j = e^(x_j) / sum_k e^(x_k), or
/// log-softmax y_j = x_j - log sum_k e^(x_k).
enum class RowOp { Softmax, LogSoftmax };

const char* to_string(RowOp op);

/// One launch: an M x N batch, row-major, row i of x at x + i * x_stride (elements); the kernel
/// writes y_ij at y + i * y_stride + j and nothing else. stream is the cudaStream_t to launch
/// on (Where::Device) or null (Where::Host).
struct RowProblem : Launch {
  const void* x_ptr = nullptr;
  void* y_ptr = nullptr;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t x_stride = 0;
  std::int64_t y_stride = 0;
  DType x_type = DType::F32;
  DType y_type = DType::F32;

  OSVS_DETAIL_TYPED_VIEW(x)
  OSVS_DETAIL_TYPED_VIEW(y)
};

/// What a fully masked row (every element -inf) gives: NaN (0/0, PyTorch's softmax) or the
/// empty sum's limit (softmax 0 and log-softmax -inf, flash-attention's choice).
enum class MaskedRow { NaN, Zero };

/// What a row holding +inf gives: NaN everywhere (PyTorch), or the limit (each +inf element
/// 1/k of the mass, k = number of +inf elements, every other element 0).
enum class PosInfRow { NaN, Limit };

/// The conventions a kernel documents for rows where the arithmetic has no answer of its own.
/// A NaN anywhere in a row always makes the whole row NaN; N = 0 writes nothing.
///
/// flush_subnormal_outputs: an output whose exact value is below the output type's smallest
/// normal may be ±0 (`-use_fast_math`, FTZ): the reference is flushed the same way, and every
/// other output is held to the contract as before. Subnormal inputs need no convention: reading
/// each subnormal x_k as 0 moves every x_k - m by less than 2^-125, so every e^(x_k - m) and
/// softmax y_j by a relative 2^-124 at most, far below half an ulp of any output type; a
/// log-softmax y_j = (x_j - m) - log sum_k e^(x_k - m) moves by less than 2^-123 absolutely,
/// below half an ulp of any |y_j| >= 2^-99, and a smaller |y_j| needs every other term to vanish
/// against x_j's, so x_j is the unique maximum and x_j - m = 0 either way.
/// error_floor: an absolute error up to which any finite output holds (a documented atol), on
/// top of the accuracy contract.
struct Conventions {
  MaskedRow masked = MaskedRow::NaN;
  PosInfRow pos_inf = PosInfRow::NaN;
  bool flush_subnormal_outputs = false;
  double error_floor = 0;
};

/// A path of the kernel's algorithm: rows of `from` elements or more, up to the next layout's
/// `from` (or max_cols), take it, in pieces of `piece` elements each (0: the row is one piece).
/// The laws draw every layout at its edges (row_cases.h: layout_lengths), whatever their length.
struct RowLayout {
  std::string name;
  std::int64_t from = 1;
  std::int64_t piece = 0;
};

/// Traits that shape the generated problems and which laws are held bit for bit.
struct Traits {
  int vector_width = 1;  ///< elements per vector load: row lengths around its multiples
  int block = 0;         ///< elements handled per block/warp step (0: none): lengths around it
  std::int64_t max_cols = std::int64_t{1} << 20;  ///< longest row the kernel accepts
  bool strided = true;                            ///< accepts x_stride, y_stride > cols
  bool deterministic = true;                      ///< two launches give the same bits
  bool batch_invariant = true;         ///< a row's bits do not depend on M or its position
  bool order_independent = false;      ///< permuting a row permutes its outputs bit for bit
  bool exact_shift_invariant = false;  ///< x + c gives the same bits when every x_j + c is exact
  std::vector<RowLayout> layouts;      ///< where the algorithm changes, by ascending `from`
};

using RowKernelFn = std::function<void(const RowProblem&)>;

class RowKernel : public KernelDeclaration<RowKernel, RowProblem> {
 public:
  RowKernel() = default;
  RowKernel(std::string name, Where where) : KernelDeclaration(std::move(name), where) {}

  // --- declaration (each returns *this, so a declaration reads as one expression)
  RowKernel& op(RowOp o) { return (op_ = o, *this); }
  RowKernel& softmax() { return op(RowOp::Softmax); }
  RowKernel& log_softmax() { return op(RowOp::LogSoftmax); }
  RowKernel& types(DType in, DType out) { return (in_ = in, out_ = out, *this); }
  RowKernel& masked_rows(MaskedRow m) { return (conventions_.masked = m, *this); }
  RowKernel& pos_inf_rows(PosInfRow p) { return (conventions_.pos_inf = p, *this); }
  /// Outputs whose exact value is subnormal may be flushed to ±0 (Conventions).
  RowKernel& flush_subnormal_outputs(bool f = true) {
    return (conventions_.flush_subnormal_outputs = f, *this);
  }
  /// Any finite output within `abs` of the exact value holds (Conventions).
  RowKernel& error_floor(double abs) { return (conventions_.error_floor = abs, *this); }
  RowKernel& accuracy(Accuracy a) { return (accuracy_ = std::move(a), *this); }
  RowKernel& traits(Traits t) { return (traits_ = t, *this); }
  RowKernel& vector_width(int w) { return (traits_.vector_width = w, *this); }
  RowKernel& block(int b) { return (traits_.block = b, *this); }
  RowKernel& max_cols(std::int64_t n) { return (traits_.max_cols = n, *this); }
  /// Rows of `from` elements or more take the path `name`, in pieces of `piece` (RowLayout).
  RowKernel& layout(std::string name, std::int64_t from, std::int64_t piece = 0) {
    return (traits_.layouts.push_back({std::move(name), from, piece}), *this);
  }
  RowKernel& strided(bool s) { return (traits_.strided = s, *this); }
  RowKernel& order_independent(bool b = true) { return (traits_.order_independent = b, *this); }
  RowKernel& exact_shift_invariant(bool b = true) {
    return (traits_.exact_shift_invariant = b, *this);
  }
  RowKernel& deterministic(bool b) { return (traits_.deterministic = b, *this); }
  RowKernel& batch_invariant(bool b) { return (traits_.batch_invariant = b, *this); }

  // --- reading the declaration
  RowOp op() const { return op_; }
  DType in_type() const { return in_; }
  DType out_type() const { return out_; }
  const Conventions& conventions() const { return conventions_; }
  const Accuracy& accuracy() const { return accuracy_; }
  const Traits& traits() const { return traits_; }

 private:
  RowOp op_ = RowOp::Softmax;
  DType in_ = DType::F32;
  DType out_ = DType::F32;
  Conventions conventions_;
  Accuracy accuracy_ = Accuracy::none();
  Traits traits_;
};

}  // namespace osvs
