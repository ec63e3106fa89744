// Helpers shared by the property implementations: building batches from a Case, hex formatting,
// bitwise comparison of outputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/kernels/executor.h"
#include "osvs/kernels/hex.h"
#include "osvs/properties/case.h"
#include "osvs/properties/verdict.h"

namespace osvs::props {

/// A float as a C99 hex literal ("0x1.8p+3", "-inf", "nan"); a value as hex and 9 digits
/// ("0x1.8p+3 (12)"); an error or bound to 9 digits ("0.5"): osvs/kernels/hex.h.
using osvs::digits9;
using osvs::hex;
using osvs::readable;

/// A state as "(m, d)" in hex.
std::string hex(State s);

/// Bits of a float, so that NaN == NaN of the same payload and -0 != +0.
std::uint32_t bits(float x);

/// A batch of the Case's configuration (kernel, combine, block) holding `rows` (all of
/// one length; throws otherwise).
SoftmaxBatch batch_of(const Case& c, const std::vector<std::vector<float>>& rows);

/// The exp accuracy (ulps) the bounds use for results of `ex`.
double exp_ulp(const Executor& ex);

/// Row i of a softmax result as a pointer to its first output.
inline const float* row_out(const SoftmaxResult& r, std::int64_t cols, std::int64_t i) {
  return r.y.data() + i * cols;
}

/// How NaNs compare: by their bits (one executor against itself) or any NaN against any NaN
/// (two executors, whose generated NaNs differ in sign and payload).
enum class NanBits { Exact, AnyNan };

/// The first position where two outputs or states differ bitwise, as a failing Verdict; holds
/// when they are bitwise equal. `what` names the two sides ("alone vs in batch").
Verdict compare_bitwise(const SoftmaxResult& a, const SoftmaxResult& b, std::int64_t cols,
                        const std::string& what, NanBits nan_bits = NanBits::Exact);

/// Whether `ex` is the CPU model itself: a law that compares the executor with the CPU model, or
/// two launches with each other, has no second party there (the model is a pure function of the
/// batch) and is not run.
bool is_cpu_model(const Executor& ex);

/// The verdict of a law that needs a second party, run on the CPU model: not run, with the reason.
Verdict needs_second_party(const std::string& law);

}  // namespace osvs::props
