// The catalogue of exps under test. Each declared figure is read from the constant that the bounds
// use (osvs::kexp_max_ulp and friends), never retyped.
#include "osvs/exhaustive/exps_under_test.h"

#include <cmath>
#include <utility>

#include "osvs/kernels/exp.h"
#include "osvs/kernels/find_by_name.h"
#include "osvs/kernels/portable_exp.h"

namespace osvs::exhaustive {
namespace {

float glibc_expf(float x) {
  return std::exp(x);  // the CPU model's kexp in the default build
}
float glibc_exp2f(float x) {
  return std::exp2(x);  // the host side of exp2f-based combines (examples/combine_operator)
}
float host_portable_expf(float x) {
  return portable_expf(x);
}

DeclaredAccuracy declared(double max_ulp, const char* constant, const char* source) {
  DeclaredAccuracy d;
  d.max_ulp = max_ulp;
  d.constant = constant;
  d.source = source;
  return d;
}

/// What every entry of the catalogue says; host_exp and device_exp add what runs it.
ExpUnderTest entry(const char* name, ExpBase base, Side side, DeclaredAccuracy d,
                   const char* used_by) {
  ExpUnderTest e;
  e.name = name;
  e.base = base;
  e.side = side;
  e.declared = std::move(d);
  e.used_by = used_by;
  return e;
}

ExpUnderTest host_exp(const char* name, ExpBase base, float (*fn)(float), DeclaredAccuracy d,
                      const char* used_by) {
  ExpUnderTest e = entry(name, base, Side::Host, std::move(d), used_by);
  e.host = fn;
  return e;
}

ExpUnderTest device_exp(const char* name, ExpBase base, DeviceExp which, DeclaredAccuracy d,
                        const char* used_by) {
  ExpUnderTest e = entry(name, base, Side::Device, std::move(d), used_by);
  e.device = which;
  return e;
}

std::vector<ExpUnderTest> make_catalogue() {
  const char* cuda_guide = "CUDA Programming Guide, single-precision mathematical functions";
  const char* glibc_manual = "glibc manual, Errors in Math Functions";
  const char* enumeration = "portable_exp.h, enumeration of every float";
  DeclaredAccuracy fast = declared(CUDA_FAST_EXPF_MAX_ULP, "CUDA_FAST_EXPF_MAX_ULP",
                                   "CUDA Programming Guide, intrinsic functions");
  fast.ulp_per_abs_x = CUDA_FAST_EXPF_ULP_PER_ABS_X;
  fast.normal_results_only = true;
  std::vector<ExpUnderTest> c;
  c.push_back(host_exp("glibc_expf", ExpBase::E, glibc_expf,
                       declared(GLIBC_EXPF_MAX_ULP, "GLIBC_EXPF_MAX_ULP", glibc_manual),
                       "the CPU model (kexp, default build)"));
  c.push_back(host_exp("glibc_exp2f", ExpBase::Two, glibc_exp2f,
                       declared(GLIBC_EXP2F_MAX_ULP, "GLIBC_EXP2F_MAX_ULP", glibc_manual),
                       "host side of exp2f combines (examples/combine_operator)"));
  c.push_back(host_exp("portable_expf_host", ExpBase::E, host_portable_expf,
                       declared(PORTABLE_EXP_MAX_ULP, "PORTABLE_EXP_MAX_ULP", enumeration),
                       "the CPU model (kexp, OSVS_PORTABLE_EXP)"));
  c.push_back(device_exp("cuda_expf", ExpBase::E, DeviceExp::Expf,
                         declared(CUDA_EXPF_MAX_ULP, "CUDA_EXPF_MAX_ULP", cuda_guide),
                         "every device kernel (kexp, default build)"));
  c.push_back(device_exp("cuda_exp2f", ExpBase::Two, DeviceExp::Exp2f,
                         declared(CUDA_EXP2F_MAX_ULP, "CUDA_EXP2F_MAX_ULP", cuda_guide),
                         "exp2f combines (examples/combine_operator)"));
  c.push_back(device_exp("cuda_fast_expf", ExpBase::E, DeviceExp::FastExpf, fast,
                         "__expf: examples/fast_softmax, mutant_fast_exp"));
  c.push_back(device_exp("portable_expf_device", ExpBase::E, DeviceExp::PortableExpf,
                         declared(PORTABLE_EXP_MAX_ULP, "PORTABLE_EXP_MAX_ULP", enumeration),
                         "every device kernel (kexp, OSVS_PORTABLE_EXP)"));
  return c;
}

}  // namespace

const char* to_string(Side side) {
  return side == Side::Host ? "host" : "device";
}

double DeclaredAccuracy::bound(float x) const {
  if (ulp_per_abs_x == 0) return max_ulp;
  return max_ulp + std::floor(ulp_per_abs_x * std::fabs(static_cast<double>(x)));
}

const std::vector<ExpUnderTest>& exps_under_test() {
  static const std::vector<ExpUnderTest> catalogue = make_catalogue();
  return catalogue;
}

const ExpUnderTest& find_exp(std::string_view name) {
  return find_by_name(exps_under_test(), name, "unknown exp");
}

}  // namespace osvs::exhaustive
