// The audit's section per registered attention kernel (issue 30): every kernel of the attention
// kind's registry (osvs's own, a test's, a plugin's) run on the cases its declaration takes (the
// attention kind's generator, api/testbed/attention_cases.cpp, from a seed derived from the
// audit's, plus a few larger realistic shapes fitted to the declaration, attention_shapes.h) and
// measured against the exact attention with the accuracy law's own measure
// (osvs/api/attention_accuracy.h): the distribution of every o element's error in ulps of its
// magnitude M, of the lse's in f32 ulps, of error / contract, the worst cases, and the verdicts of
// the kind's other laws. A kernel outside its contract, or failing a law it does not declare a
// known defect, fails the release gate.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/api/attention_kernel.h"
#include "osvs/audit/error_stats.h"
#include "osvs/audit/kernel_audit.h"  // LawOutcome

namespace osvs::audit {

/// Order statistics of a set of per-element measures (nearest rank: the smallest value with at
/// least q of the set at or below it; exact, not a histogram edge).
struct Quantiles {
  std::int64_t count = 0;
  double p50 = 0, p99 = 0, p99_9 = 0, max = 0;
};

/// The quantiles of `values` (NaN counts as +inf).
Quantiles quantiles_of(std::vector<double> values);

/// One of a kernel's worst cases: the case in a line and its element of largest error / contract.
struct AttentionWorstCase {
  std::string source;       ///< "generated 17" (its index in generation order) or a realistic shape
  std::string summary;      ///< case_summary: sequences and lengths, heads, head_dims, type, mask
  std::string element;      ///< "o[token 3][head 1][2]" or "lse[token 3][head 1]"
  std::string got;          ///< the kernel's value, readable() (hex float and 9 digits)
  std::string exact;        ///< the exact value correctly rounded, readable()
  double ulps = 0;          ///< its error in ulps of its magnitude
  double allowed_ulps = 0;  ///< the contract at it, in the same ulps
  double tightness = 0;     ///< ulps / allowed_ulps
};

/// The section of one kernel.
struct AttentionKernelAccuracy {
  std::string kernel;
  std::string declaration;  ///< kernel_summary: types, masks, gqa, pages, lse, contract
  std::string not_run;      ///< why it was not run ("no device: ..."), "" when it ran
  std::string error;        ///< the section could not finish (the oracle threw): fails the gate
  int generated_cases = 0;  ///< generated cases measured
  int vacuous_cases = 0;    ///< generated cases outside the declaration (not measured)
  int realistic_cases = 0;  ///< realistic shapes measured
  int failed_cases = 0;     ///< cases the kernel could not run (a runner breach, a throw)
  std::string first_failed_case;
  std::int64_t o_elements = 0, lse_elements = 0;
  Quantiles o_ulps;        ///< every o element's error in ulps of its magnitude M (output type)
  Quantiles lse_ulps;      ///< every lse's error in f32 ulps of max(|lse|, 1)
  Quantiles tightness;     ///< every element's error / contract (o and lse)
  ErrorStats o_histogram;  ///< o_ulps binned (error_stats.h): the plot's distribution
  std::int64_t over_contract = 0;  ///< elements outside the contract
  bool accuracy_excused = false;   ///< the kernel declares accuracy a known defect or skips it
  std::vector<AttentionWorstCase> worst;  ///< the worst cases by tightness, worst first
  std::vector<LawOutcome> laws;           ///< every law but accuracy (audit_law.h)
  double seconds = 0;

  /// Within its contract (or excused), every case run, something measured, no error, and no law
  /// failing that is not a declared known defect; a kernel not run passes (the report says why).
  bool passes() const;
};

struct AttentionKernelsAudit {
  std::string not_run;                           ///< why the section did not run ("" when it did)
  int cases = 0;                                 ///< generated cases per kernel and law
  std::vector<AttentionKernelAccuracy> kernels;  ///< in registration order
  double seconds = 0;

  bool passes() const;
};

struct AttentionKernelsOptions {
  std::uint64_t seed = 20240607;  ///< the audit's seed; each kernel's and law's derive from it
  int cases = 40;                 ///< generated cases per kernel for accuracy and for each law
  bool realistic = true;          ///< also the realistic shapes (attention_shapes.h)
  bool laws = true;               ///< also the kind's other laws (false: the caller runs them)
  bool device = false;            ///< the audit runs on a GPU: device kernels run too
  /// Seconds of shrinking a failing invariance gets (its minimal case for the certificate).
  double invariance_shrink_seconds = 10;
  int threads = 1;  ///< threads computing the exact attention
};

/// The section over `kernels` (the registry's attention kernels in the audit).
AttentionKernelsAudit audit_attention_kernels(const std::vector<AttentionKernel>& kernels,
                                              const AttentionKernelsOptions& o);

/// Generated cases per kernel and law when the options ask for none (AuditOptions::
/// attention_cases): a count, so the section is the same in every run.
inline constexpr int kAttentionKernelCases = 300;
inline constexpr int kQuickAttentionKernelCases = 25;

/// The worst cases kept per kernel.
inline constexpr std::size_t kAttentionWorstCases = 3;

}  // namespace osvs::audit
