// glibc's double exp / exp2 against MPFR at 160 bits: |e - y| / ulp(y) with ulp(y) = 2^(b - 52),
// b = floor(log2 y) (every y here is a normal double: |x| <= 160). The MPFR value is within
// 2^-159 relative, so the measured error is within 2^-100 ulp of the true one.
#include "osvs/exhaustive/double_exp_check.h"

#include <mpfr.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "mpfr_thread_caches.h"
#include "osvs/kernels/hd.h"
#include "osvs/kernels/stable_hash.h"
#include "thread_count.h"

namespace osvs::exhaustive {
namespace {

double double_ulp_error(double s, ExpBase base) {
  oracle::detail::free_mpfr_caches_at_thread_exit();
  const double e = base == ExpBase::E ? std::exp(s) : std::exp2(s);
  mpfr_t y, d;
  mpfr_inits2(160, y, d, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_d(y, s, MPFR_RNDN);  // exact
  if (base == ExpBase::E)
    mpfr_exp(y, y, MPFR_RNDN);
  else
    mpfr_exp2(y, y, MPFR_RNDN);
  const long b = mpfr_get_exp(y) - 1;  // y in [2^b, 2^(b+1))
  mpfr_set_d(d, e, MPFR_RNDN);
  mpfr_sub(d, d, y, MPFR_RNDN);
  mpfr_abs(d, d, MPFR_RNDN);
  mpfr_mul_2si(d, d, 52 - b, MPFR_RNDN);
  const double err = mpfr_get_d(d, MPFR_RNDN);
  mpfr_clears(y, d, static_cast<mpfr_ptr>(nullptr));
  return err;
}

/// Runs check(i) for i < count on `threads` threads; each returns {argument, error} or a NaN
/// argument for an input outside the domain.
template <class Check>
DoubleExpCheck run(DoubleExpCheck c, std::uint64_t count, unsigned threads, Check check) {
  const auto start = std::chrono::steady_clock::now();
  threads = thread_count(threads);
  std::vector<DoubleExpCheck> parts(threads, c);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (std::uint64_t i = t; i < count; i += threads) {
        const auto [s, err] = check(i);
        if (std::isnan(s)) continue;
        ++parts[t].samples;
        if (err > parts[t].max_ulp) {
          parts[t].max_ulp = err;
          parts[t].worst_argument = s;
        }
      }
    });
  for (std::thread& th : pool) th.join();
  for (const DoubleExpCheck& p : parts) {
    c.samples += p.samples;
    if (p.max_ulp > c.max_ulp) {
      c.max_ulp = p.max_ulp;
      c.worst_argument = p.worst_argument;
    }
  }
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return c;
}

struct Checked {
  double argument;
  double error;
};

}  // namespace

DoubleExpCheck check_double_exp_on_floats(ExpBase base, const InputRange& floats,
                                          unsigned threads) {
  DoubleExpCheck c;
  c.base = base;
  c.domain = "float inputs with |x| <= 160, bit patterns " + std::to_string(floats.first) + " to " +
             std::to_string(floats.end) + " step " + std::to_string(floats.stride);
  return run(c, floats.count(), threads, [&](std::uint64_t i) {
    const float x = bits_float(static_cast<std::uint32_t>(floats.first + i * floats.stride));
    if (!(std::fabs(x) <= 160.0f)) return Checked{NAN, 0};
    return Checked{x, double_ulp_error(x, base)};
  });
}

DoubleExpCheck check_double_exp_against_long_double(ExpBase base, unsigned threads) {
  DoubleExpCheck c;
  c.base = base;
  c.domain = "every float input with |x| <= 160, against glibc's long double (x87) function";
  return run(c, std::uint64_t{1} << 32, threads, [base](std::uint64_t i) {
    const float x = bits_float(static_cast<std::uint32_t>(i));
    if (!(std::fabs(x) <= 160.0f)) return Checked{NAN, 0};
    const double e = base == ExpBase::E ? std::exp(double{x}) : std::exp2(double{x});
    const long double l = base == ExpBase::E ? std::exp(static_cast<long double>(x))
                                             : std::exp2(static_cast<long double>(x));
    // |e - l| in ulps of the double binade of l (a normal double: |x| <= 160).
    const long double ulp = std::ldexp(1.0L, std::ilogb(l) - 52);
    return Checked{x, static_cast<double>(std::fabs(static_cast<long double>(e) - l) / ulp)};
  });
}

DoubleExpCheck check_double_exp_on_gaps(std::uint64_t count, unsigned threads) {
  DoubleExpCheck c;
  c.domain = "gaps fl64(x - m) >= -128 of pseudo-random floats x <= m (SplitMix64, seed 0)";
  return run(c, count, threads, [](std::uint64_t i) {
    // m: any sign, binade in [2^-8, 2^12); x = m - g with g a random float in [0, 128).
    const std::uint64_t r = splitmix64_mix(i);
    const auto m_bits =
        static_cast<std::uint32_t>(((r >> 32) & 0x807fffffu) | ((119u + (r >> 40) % 20u) << 23));
    const float m = bits_float(m_bits);
    const float g = static_cast<float>(static_cast<double>(r & 0xffffffu) * 0x1p-24 * 128.0);
    const float x = m - g;  // a float below m, rounded once
    const double s = static_cast<double>(x) - static_cast<double>(m);
    if (!(s >= -128.0 && s <= 0.0)) return Checked{NAN, 0};
    return Checked{s, double_ulp_error(s, ExpBase::E)};
  });
}

}  // namespace osvs::exhaustive
