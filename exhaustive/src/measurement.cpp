// The measurement loop: inputs in chunks; a device exp is evaluated on the GPU a chunk at a time,
// then host threads compare each output with the exact b^x (exact_exp) and keep the statistics.
#include "osvs/exhaustive/measurement.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include "osvs/exhaustive/device_exps.h"
#include "osvs/kernels/hd.h"
#include "thread_count.h"

namespace osvs::exhaustive {
namespace {

constexpr std::uint64_t kChunk = std::uint64_t{1} << 24;

bool same_value(float a, float b) {
  return a == b || (std::isnan(a) && std::isnan(b));  // -0 == +0: the same real
}

void keep_larger(Sample& kept, const Sample& s) {
  if (s.ulp > kept.ulp) kept = s;
}

/// The kWorstKept largest errors of `worst` together with s (ties keep the first seen).
void keep_worst(std::vector<Sample>& worst, const Sample& s) {
  if (worst.size() == kWorstKept && s.ulp <= worst.back().ulp) return;
  const auto at = std::upper_bound(worst.begin(), worst.end(), s,
                                   [](const Sample& a, const Sample& b) { return a.ulp > b.ulp; });
  worst.insert(at, s);
  if (worst.size() > kWorstKept) worst.pop_back();
}

int input_binade_index(float x) {
  return static_cast<int>(float_bits(x) >> 23);  // sign * 256 + biased exponent
}

/// What one thread accumulates for one exp.
struct Partial {
  ExpMeasurement m;
  void add(const ExpUnderTest& exp, float x, float observed, const ExactExp& ref);
  void merge(const Partial& other);
};

void Partial::add(const ExpUnderTest& exp, float x, float observed, const ExactExp& ref) {
  Sample s{x, observed, ulp_distance(observed, ref)};
  const bool subnormal = std::fabs(ref.rounded) < 0x1p-126f && !ref.nan;
  const bool correct = same_value(observed, ref.rounded);
  BinadeStats& b = m.by_input_binade[static_cast<std::size_t>(input_binade_index(x))];
  ++b.inputs;
  ++m.inputs;
  if (!correct) {
    ++b.not_correctly_rounded;
    ++m.not_correctly_rounded;
  }
  keep_larger(subnormal ? b.worst_subnormal : b.worst_normal, s);
  keep_larger(subnormal ? m.worst_subnormal : m.worst_normal, s);
  keep_worst(m.worst, s);
  if (subnormal && exp.declared.normal_results_only) return;
  const double bound = exp.declared.bound(x);
  // Within the fast path's uncertainty of the bound: decide with the distance from MPFR.
  if (std::fabs(s.ulp - bound) <= ref.uncertainty) s.ulp = mpfr_ulp_distance(observed, x, exp.base);
  const double slope = bound - exp.declared.max_ulp;
  if (s.ulp - slope > m.needed_max_ulp) {
    m.needed_max_ulp = s.ulp - slope;
    m.needed_at = s;
  }
  if (s.ulp > bound) {
    ++m.violations;
    if (m.violations == 1 ||
        s.ulp - bound > m.worst_violation.ulp - exp.declared.bound(m.worst_violation.x))
      m.worst_violation = s;
  }
}

void Partial::merge(const Partial& o) {
  m.inputs += o.m.inputs;
  m.not_correctly_rounded += o.m.not_correctly_rounded;
  for (std::size_t i = 0; i < m.by_input_binade.size(); ++i) {
    BinadeStats& b = m.by_input_binade[i];
    const BinadeStats& ob = o.m.by_input_binade[i];
    b.inputs += ob.inputs;
    b.not_correctly_rounded += ob.not_correctly_rounded;
    keep_larger(b.worst_normal, ob.worst_normal);
    keep_larger(b.worst_subnormal, ob.worst_subnormal);
  }
  keep_larger(m.worst_normal, o.m.worst_normal);
  keep_larger(m.worst_subnormal, o.m.worst_subnormal);
  for (const Sample& s : o.m.worst) keep_worst(m.worst, s);
  if (o.m.needed_max_ulp > m.needed_max_ulp) {
    m.needed_max_ulp = o.m.needed_max_ulp;
    m.needed_at = o.m.needed_at;
  }
  if (o.m.violations > 0) {
    const auto excess = [&](const Sample& s) { return s.ulp - m.exp.declared.bound(s.x); };
    if (m.violations == 0 || excess(o.m.worst_violation) > excess(m.worst_violation))
      m.worst_violation = o.m.worst_violation;
    m.violations += o.m.violations;
  }
}

ExpMeasurement measure_one(const ExpUnderTest& exp, const MeasureSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const InputRange& r = settings.range;
  const unsigned threads = thread_count(settings.threads);
  std::vector<Partial> partials(threads);
  for (Partial& p : partials) p.m.exp = exp;
  const std::uint64_t total = r.count();
  std::vector<float> device_out;
  std::uint64_t next_report = total / 16;
  for (std::uint64_t done = 0; done < total; done += kChunk) {
    const std::uint64_t n = std::min(kChunk, total - done);
    const std::uint64_t first = r.first + done * r.stride;
    if (exp.side == Side::Device) {
      device_out.resize(n);
      evaluate_on_device(exp.device, first, r.stride, n, device_out.data());
    }
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        for (std::uint64_t i = t; i < n; i += threads) {
          const float x = bits_float(static_cast<std::uint32_t>(first + i * r.stride));
          const float observed = exp.side == Side::Device ? device_out[i] : exp.host(x);
          partials[t].add(exp, x, observed, exact_exp(x, exp.base));
        }
      });
    for (std::thread& th : pool) th.join();
    if (settings.progress && done + n >= next_report) {
      std::fprintf(stderr, "  %s: %llu of %llu inputs\n", exp.name.c_str(),
                   static_cast<unsigned long long>(done + n),
                   static_cast<unsigned long long>(total));
      next_report += total / 16;
    }
  }
  for (unsigned t = 1; t < threads; ++t) partials[0].merge(partials[t]);
  ExpMeasurement m = std::move(partials[0].m);
  // The reported worst errors are recomputed exactly (the fast path is within 2^-15 ulp).
  for (Sample& s : m.worst) s.ulp = mpfr_ulp_distance(s.observed, s.x, exp.base);
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return m;
}

}  // namespace

std::vector<ExpMeasurement> measure(const std::vector<ExpUnderTest>& exps,
                                    const MeasureSettings& settings) {
  std::vector<ExpMeasurement> out;
  for (const ExpUnderTest& e : exps) out.push_back(measure_one(e, settings));
  return out;
}

std::string input_binade_label(int index) {
  const char* sign = index >= 256 ? "-" : "+";
  const int field = index % 256;
  if (field == 0) return std::string(sign) + "subnormal or 0";
  if (field == 255) return std::string(sign) + "inf or NaN";
  const int e = field - 127;
  return std::string(sign) + "[2^" + std::to_string(e) + ", 2^" + std::to_string(e + 1) + ")";
}

}  // namespace osvs::exhaustive
