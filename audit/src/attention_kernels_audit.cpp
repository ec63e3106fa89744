#include "osvs/audit/attention_kernels_audit.h"

#include <rapidcheck.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>

#include "attention_shapes.h"
#include "audit_law.h"
#include "kind_cases.h"
#include "law_run.h"
#include "osvs/api/attention_accuracy.h"
#include "osvs/api/kind.h"
#include "osvs/kernels/hex.h"
#include "osvs/kernels/stable_hash.h"
#include "parallel.h"

namespace osvs::audit {
namespace {

/// A case the section measures, and where it comes from.
struct Source {
  std::string name;  ///< "generated 17", "prefill"
  AttentionCase c;
};

/// The seed of kernel k's cases for `law`: the audit's seed, the kernel and the law (FNV-1a, the
/// same cases on every platform and in every run).
std::uint64_t seed_of(std::uint64_t seed, const AttentionKernel& k, const std::string& law) {
  return fnv1a64(std::to_string(seed) + "/attention_kernels/" + k.name() + "/" + law);
}

/// `count` cases of the kind's generator for `law` on k (the testbed's, law_cases), case i from
/// the i-th split of one RapidCheck Random seeded with `seed`, at RapidCheck's nominal size.
std::vector<AttentionCase> generated(const AttentionKernel& k, const AttentionLaw& law,
                                     std::uint64_t seed, int count) {
  const rc::Gen<AttentionCase> gen = testbed::law_cases(k, law);
  rc::Random random(seed);
  std::vector<AttentionCase> out;
  for (int i = 0; i < count; ++i) out.push_back(gen(random.split()).value());
  return out;
}

bool same_floats(const std::vector<float>& a, const std::vector<float>& b) {
  // (bit for bit; an empty vector's data() may be null, which memcmp may not be given)
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

/// a and b have the same exact attention: every value the oracle reads is the same, fp8 K/V's
/// type and scales included (how K/V are paged is not one of them).
bool same_problem(const AttentionCase& a, const AttentionCase& b) {
  return a.seqs == b.seqs && a.heads_q == b.heads_q && a.heads_kv == b.heads_kv &&
         a.head_dim_qk == b.head_dim_qk && a.head_dim_v == b.head_dim_v && a.in_type == b.in_type &&
         std::memcmp(&a.scale, &b.scale, sizeof a.scale) == 0 &&
         std::memcmp(&a.softcap, &b.softcap, sizeof a.softcap) == 0 && a.mask == b.mask &&
         a.base == b.base && same_floats(a.sinks, b.sinks) &&
         same_floats(a.alibi_slopes, b.alibi_slopes) && same_floats(a.q, b.q) &&
         same_floats(a.k, b.k) && same_floats(a.v, b.v) && a.kv_type == b.kv_type &&
         std::memcmp(&a.k_scale, &b.k_scale, sizeof a.k_scale) == 0 &&
         std::memcmp(&a.v_scale, &b.v_scale, sizeof a.v_scale) == 0;
}

/// The exact attention of the cases the section has met: kernels with the same declaration get
/// the same realistic shapes, and the oracle is most of the section's time.
class ExactCache {
 public:
  std::shared_ptr<const AttentionExact> find(const AttentionCase& c) const {
    for (const auto& [known, exact] : entries_)
      if (same_problem(known, c)) return exact;
    return nullptr;
  }
  void add(const AttentionCase& c, std::shared_ptr<const AttentionExact> e) {
    entries_.emplace_back(c, std::move(e));
  }

 private:
  std::vector<std::pair<AttentionCase, std::shared_ptr<const AttentionExact>>> entries_;
};

/// The exact attention of every case, from the cache or computed on `threads` threads (the
/// oracle is a pure function of the case; the kernels themselves run on one thread).
std::vector<std::shared_ptr<const AttentionExact>> exact_of(const std::vector<Source>& cases,
                                                            ExactCache& cache, int threads) {
  std::vector<std::shared_ptr<const AttentionExact>> out(cases.size());
  std::vector<std::int64_t> missing;
  for (std::size_t i = 0; i < cases.size(); ++i)
    if (!(out[i] = cache.find(cases[i].c))) missing.push_back(static_cast<std::int64_t>(i));
  // The largest first, so that the long ones do not end up last on one thread.
  std::stable_sort(missing.begin(), missing.end(), [&](std::int64_t a, std::int64_t b) {
    return cases[a].c.q.size() * cases[a].c.k.size() > cases[b].c.q.size() * cases[b].c.k.size();
  });
  parallel_for(std::ssize(missing), threads, 1, [&](int, std::int64_t begin, std::int64_t end) {
    for (std::int64_t m = begin; m < end; ++m) {
      const AttentionCase& c = cases[static_cast<std::size_t>(missing[m])].c;
      out[static_cast<std::size_t>(missing[m])] =
          std::make_shared<const AttentionExact>(exact_attention(c, c.in_type));
    }
  });
  for (std::int64_t m : missing)
    cache.add(cases[static_cast<std::size_t>(m)].c, out[static_cast<std::size_t>(m)]);
  return out;
}

/// A case's element of largest error / contract, before it is written out.
struct CaseWorst {
  std::size_t source = 0;
  AttentionElementError element;
};

AttentionWorstCase worst_case(const Source& s, const AttentionElementError& e) {
  AttentionWorstCase w;
  w.source = s.name;
  w.summary = case_summary(s.c);
  w.element = attention_element_name(e, s.c);
  w.got = readable(e.got);
  w.exact = readable(e.exact_rounded);
  w.ulps = e.ulps();
  w.allowed_ulps = e.allowed / e.unit;
  w.tightness = e.tightness();
  return w;
}

/// Runs k on every case and measures every element the accuracy law judges.
void measure(const AttentionKernel& k, const std::vector<Source>& cases, ExactCache& cache,
             int threads, AttentionKernelAccuracy& a) {
  // A backward kernel's exact gradients are computed case by case (its cases draw a dout of
  // their own: nothing to share), and its gradient elements fill the o columns.
  const auto exact = k.backward() ? std::vector<std::shared_ptr<const AttentionExact>>{}
                                  : exact_of(cases, cache, threads);
  std::vector<double> o_ulps, lse_ulps, tightness;
  std::vector<CaseWorst> worst;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    AttentionOutputs out;
    try {
      out = run_attention_kernel(k, cases[i].c);
    } catch (const std::exception& e) {  // a runner breach (KernelFailure) or a throw
      if (a.failed_cases++ == 0)
        a.first_failed_case = cases[i].name + " (" + case_summary(cases[i].c) + "): " + e.what();
      continue;
    }
    const auto errors = k.backward() ? attention_grad_errors(k, cases[i].c, out,
                                                             exact_attention_backward(cases[i].c))
                                     : attention_errors(k, cases[i].c, out, *exact[i]);
    for (const AttentionElementError& e : errors) {
      (e.output == AttnOutput::Lse ? lse_ulps : o_ulps).push_back(e.ulps());
      if (e.output != AttnOutput::Lse) a.o_histogram.add(e.ulps());
      tightness.push_back(e.tightness());
      a.over_contract += e.within() ? 0 : 1;
    }
    const auto top = std::max_element(
        errors.begin(), errors.end(),
        [](const auto& x, const auto& y) { return x.tightness() < y.tightness(); });
    if (top != errors.end()) worst.push_back({i, *top});
  }
  a.o_elements = std::ssize(o_ulps);
  a.lse_elements = std::ssize(lse_ulps);
  a.o_ulps = quantiles_of(std::move(o_ulps));
  a.lse_ulps = quantiles_of(std::move(lse_ulps));
  a.tightness = quantiles_of(std::move(tightness));
  // Worst first; equal tightness keeps the case order (no dependence on the sort).
  std::stable_sort(worst.begin(), worst.end(), [](const CaseWorst& x, const CaseWorst& y) {
    return x.element.tightness() > y.element.tightness();
  });
  for (std::size_t w = 0; w < worst.size() && w < kAttentionWorstCases; ++w)
    a.worst.push_back(worst_case(cases[worst[w].source], worst[w].element));
}

/// One law other than accuracy on o.cases generated cases of its own: the audits' one law run
/// (audit_law.h), a failing invariance shrunk for the determinism certificate.
LawOutcome judge_law(const AttentionKernel& k, const AttentionLaw& law,
                     const AttentionKernelsOptions& o) {
  KernelAuditOptions options;
  options.seed = o.seed;
  options.law_cases = o.cases;
  options.invariance_shrink_seconds = o.invariance_shrink_seconds;
  return audit_law<AttentionKind>(k, law, options);
}

AttentionKernelAccuracy audit_kernel(const AttentionKernel& k, const AttentionKernelsOptions& o,
                                     ExactCache& cache) {
  const auto start = std::chrono::steady_clock::now();
  AttentionKernelAccuracy a;
  a.kernel = k.name();
  a.declaration = kernel_summary(k);
  std::string why;
  if (k.where() == Where::Device && !o.device) {
    a.not_run =
        "no device: the audit runs on the CPU executor (`--executor cuda` runs kernels "
        "declared on the device)";
    return a;
  }
  if (!runnable(k, &why)) {
    a.not_run = "no device: " + why;
    return a;
  }
  a.accuracy_excused = k.known_defects().count("accuracy") > 0 || k.skips().count("accuracy") > 0;
  const AttentionLaw* accuracy = AttentionKind::find_law("accuracy");
  std::vector<Source> cases;
  int index = 0;
  for (AttentionCase& c : generated(k, *accuracy, seed_of(o.seed, k, "accuracy"), o.cases)) {
    const std::string name = "generated " + std::to_string(index++);
    if (!undeclared_in(k, c).empty()) {
      ++a.vacuous_cases;  // (the generator draws from the declaration: none expected)
      continue;
    }
    cases.push_back({name, std::move(c)});
  }
  a.generated_cases = static_cast<int>(cases.size());
  if (o.realistic)
    for (NamedAttentionCase& r : realistic_attention_cases(k, o.seed)) {
      cases.push_back({r.name, std::move(r.c)});
      ++a.realistic_cases;
    }
  try {
    measure(k, cases, cache, o.threads, a);
    for (const AttentionLaw& law : AttentionKind::laws())
      if (o.laws && law.name != accuracy->name) a.laws.push_back(judge_law(k, law, o));
  } catch (const std::exception& e) {  // the oracle or the generator: not the kernel's doing
    a.error = e.what();
  }
  a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return a;
}

}  // namespace

Quantiles quantiles_of(std::vector<double> values) {
  Quantiles q;
  q.count = std::ssize(values);
  if (values.empty()) return q;
  for (double& v : values)
    if (std::isnan(v)) v = INFINITY;
  std::sort(values.begin(), values.end());
  const auto rank = [&](double p) {  // nearest rank: ceil(p n), 1-based
    const auto r = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
    return values[std::clamp<std::size_t>(r, 1, values.size()) - 1];
  };
  q.p50 = rank(0.5);
  q.p99 = rank(0.99);
  q.p99_9 = rank(0.999);
  q.max = values.back();
  return q;
}

bool AttentionKernelAccuracy::passes() const {
  if (!error.empty()) return false;
  if (!not_run.empty()) return true;
  if (failed_cases > 0 || o_elements + lse_elements == 0) return false;
  if (over_contract > 0 && !accuracy_excused) return false;
  for (const LawOutcome& l : laws)
    if (l.breaks_gate()) return false;
  return true;
}

bool AttentionKernelsAudit::passes() const {
  for (const AttentionKernelAccuracy& k : kernels)
    if (!k.passes()) return false;
  return true;
}

AttentionKernelsAudit audit_attention_kernels(const std::vector<AttentionKernel>& kernels,
                                              const AttentionKernelsOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  AttentionKernelsAudit r;
  r.cases = o.cases;
  ExactCache cache;
  for (const AttentionKernel& k : kernels) r.kernels.push_back(audit_kernel(k, o, cache));
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace osvs::audit
