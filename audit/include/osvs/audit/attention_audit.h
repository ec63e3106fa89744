// The audit's attention section: osvs's merge-states and split-KV decode kernels swept over
// generated cases (head_dim 1 .. 256, o in f32 / bf16 / f16, base e and 2, empty splits, masks)
// and judged against the MPFR attention reference and the derived bounds (docs/semantics.md §8).
// Every case's tightness (worst error / bound) is kept; a violation fails the release gate.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace osvs::audit {

/// One law of the section over its cases.
struct AttentionLawAudit {
  std::string law;                ///< "merge_accuracy", "decode_partition_invariance", ...
  int cases = 0;                  ///< generated cases judged against the bound
  int vacuous = 0;                ///< cases outside the law's domain (not judged)
  double worst_tightness = 0;     ///< max over cases of worst error / bound (<= 1 when it holds)
  std::vector<double> tightness;  ///< per judged case, in generation order (for the plot)
  std::int64_t violations = 0;    ///< cases outside the bound
  std::string first_violation;    ///< the first one, explained
};

struct AttentionAudit {
  std::string executor;  ///< "cpu" or "cuda", and its description
  std::string not_run;   ///< why the section did not run ("" when it did)
  std::vector<AttentionLawAudit> laws;
  double seconds = 0;

  bool passes() const;
};

/// Runs the section on the executor named by `executor` (cpu, cuda or best), `cases` generated
/// cases per law from `seed` (FNV-1a of the seed and the law's name: the same cases on every
/// platform and in every run).
AttentionAudit audit_attention(const std::string& executor, std::uint64_t seed, int cases);

}  // namespace osvs::audit
