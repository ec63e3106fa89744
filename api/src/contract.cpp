#include "contract.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "exact_outputs.h"
#include "osvs/kernels/cases.h"
#include "osvs/kernels/exp.h"
#include "osvs/kernels/hex.h"
#include "osvs/oracle/bounds.h"

namespace osvs::api {

double finite_range(const float* row, std::int64_t n) {
  double lo = INFINITY, hi = -INFINITY;
  for (std::int64_t j = 0; j < n; ++j)
    if (std::isfinite(row[j])) {
      lo = std::min(lo, static_cast<double>(row[j]));
      hi = std::max(hi, static_cast<double>(row[j]));
    }
  return hi >= lo ? hi - lo : 0;
}

namespace {

/// The verified figure (kernels/exp.h) of the exp a derived bound assumes for `row`.
double derived_exp_ulp(const DerivedShape& s, Where where, const float* row, std::int64_t n) {
  if (s.exp.empty()) return kexp_max_ulp(where == Where::Device);
  if (s.exp == "cuda_expf") return CUDA_EXPF_MAX_ULP;
  if (s.exp == "glibc_expf") return GLIBC_EXPF_MAX_ULP;
  if (s.exp == "portable_expf") return PORTABLE_EXP_MAX_ULP;
  // __expf at a = x_j - m (or m_1 - m when a state is rescaled): a <= 0 and |a| at most the
  // row's finite range, so the figure at that range holds for every exp the kernel takes. Past
  // |a| = 104, e^a < 2^-150 rounds to 0 and __expf gives 0 or a subnormal within the figure at
  // 104 (measured: at most 31.4 ulp on subnormal results, kernels/exp.h), so the range is
  // capped there: the figure stays at most 2.5 + floor(1.173 * 104) = 123.5 ulp (a row with
  // +-FLT_MAX made it 8e38 ulp, and the bound's arithmetic negative).
  const double a = std::min(finite_range(row, n), 104.0);
  return CUDA_FAST_EXPF_MAX_ULP + std::floor(CUDA_FAST_EXPF_ULP_PER_ABS_X * a);
}

}  // namespace

std::optional<std::vector<double>> tolerance_ulps(const RowKernel& k, const float* row,
                                                  std::int64_t n) {
  const Accuracy& a = k.accuracy();
  const double slack = reference_slack_ulps(k.out_type());
  switch (a.kind()) {
    case Accuracy::Kind::None:
      return std::nullopt;
    case Accuracy::Kind::Ulps:
      return std::vector<double>(static_cast<std::size_t>(n),
                                 a.ulps_for(n, finite_range(row, n)) + slack);
    case Accuracy::Kind::Derived: {
      if (const std::string why = derived_contract_problem(k); !why.empty())
        throw std::invalid_argument("kernel '" + k.name() + "': " + why);
      const DerivedShape& s = a.shape();
      // The exp's accuracy: the declared exp's verified figure, else where the kernel runs
      // decides (CUDA expf on the device, the host's expf in a host kernel; kernels/exp.h).
      auto bound = oracle::softmax_bound(*parse_kernel(s.kernel), *parse_combine(s.combine),
                                         s.block, row, n, derived_exp_ulp(s, k.where(), row, n));
      for (double& t : bound.y_ulp) {
        // A bound is a number of ulps >= 0; anything else is a fault of the derivation's inputs,
        // never a contract to judge by.
        if (!(t >= 0))
          throw std::logic_error("kernel '" + k.name() + "': the derived bound came out as " +
                                 readable(t) + " ulp (" + a.describe() + ")");
        t += slack;
      }
      return bound.y_ulp;
    }
  }
  return std::nullopt;
}

}  // namespace osvs::api
