// The audit of registered kernels of every kind (osvs audit --plugin): for a row kernel, a
// deterministic sweep of input families x row lengths judged against the exact outputs and the
// kernel's contract and conventions; for every kind, every law of the kind on a fixed number of
// generated cases (the one law run of api/testbed/law_run.h, unshrunk). Each kernel is
// audited in a process of its own by the command line, so that one that crashes or poisons the
// device is reported and the others still run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/api/attention_kernel.h"
#include "osvs/api/combine_kernel.h"
#include "osvs/api/merge_kernel.h"
#include "osvs/api/reduction_kernel.h"
#include "osvs/api/row_kernel.h"
#include "osvs/api/rowwise_kernel.h"

namespace osvs {

struct KernelAuditOptions {
  std::uint64_t seed = 20261130;  ///< every input of the sweep derives from it (FNV-1a, SplitMix64)
  bool quick = false;             ///< a small sweep (CI)
  int law_cases = 100;            ///< generated cases per law
  /// Seconds of shrinking a failing invariance gets (its minimal case goes into the determinism
  /// certificate); the other laws report their first counterexample unshrunk.
  double invariance_shrink_seconds = 10;
};

/// One (family, n) cell of the sweep.
struct RowSweepCell {
  std::string family;
  std::int64_t n = 0;
  std::int64_t rows = 0;
  std::int64_t elements = 0;
  double worst_ulp = 0;         ///< finite rows, in ulps of the output type
  double worst_ratio = -1;      ///< worst distance / tolerance (-1: no contract)
  std::int64_t violations = 0;  ///< elements outside the contract or the conventions
  std::string first_violation;  ///< the first one, explained
};

/// One law on one kernel in an audit (audit_law.h): the plugin audit's laws and the attention
/// section's alike.
struct LawOutcome {
  std::string law;
  std::string status;  ///< holds, fails, not judged, known defect shown, known defect missing,
                       ///< skipped
  std::string detail;
  /// An invariance (a law across calls, KindLaw::bitwise): what it asks of this kernel,
  /// "bitwise" (the same bits from every call) or "contract" (every call within the contract,
  /// as the declaration allows); "" for a law of one call. The determinism certificate lists
  /// these (determinism_certificate.h).
  std::string asks;
  int cases = 0;             ///< cases judged
  int vacuous = 0;           ///< generated cases outside the law's domain
  int shape_classes = 0;     ///< their distinct shape classes (kind.h), 0 where a kind has none
  std::string minimal_case;  ///< a failure: its case (an invariance's shrunk within the budget)

  /// A failure the kernel does not declare (fails, or a declared known defect that did not show).
  bool breaks_gate() const { return status == "fails" || status == "known defect missing"; }
  /// The law did not run: skipped by the declaration or outside what it can judge.
  bool not_run() const { return status == "skipped" || status == "not judged"; }
};

struct KernelAudit {
  std::string kind = "row";  ///< the kernel's kind (osvs/api/kind.h): row, merge, attention
  std::string kernel;
  std::string declaration;          ///< op, types, where, contract, conventions in one line
  std::string contract;             ///< the contract's description ("none declared" included)
                                    ///< (a merge kernel's is the derived merge bound)
  std::string status;               ///< passes, violations, no contract, failed, unavailable
  std::string error;                ///< failed / unavailable: why
  std::vector<RowSweepCell> sweep;  ///< row kernels only
  std::vector<LawOutcome> laws;
  double seconds = 0;
};

/// Audits one kernel of any kind (osvs/api/kind.h: RowKernel, MergeKernel, AttentionKernel,
/// ReductionKernel, RowwiseKernel, CombineKernel), never throwing for the kernel's faults (they
/// become status "failed"): every law of its kind within its declaration; besides,
///   a row kernel           the sweep of input families x row lengths against its contract and
///                          conventions;
///   an attention kernel    the attention kernels section's measure (attention_kernels_audit.h)
///                          as one more line of its laws ("accuracy distribution"), which fails
///                          its gate likewise;
///   a combine operator     on its side (CPU model or GPU harness): its bitwise laws, the warp's
///                          shuffle tree within its derived bound;
///   a merge kernel, a state reduction, a row-wise kernel: their laws alone (the derived merge
///                          bound, the declared tolerance, the declared contract).
template <class Kernel>
KernelAudit audit_kernel(const Kernel& k, const KernelAuditOptions& o);

/// Whether the release gate passes for this kernel (status "passes").
bool gate_passes(const KernelAudit& a);

/// JSON form (one kernel) and back; the child process hands its result to the parent this way.
std::string to_json(const KernelAudit& a);
KernelAudit kernel_audit_from_json(const std::string& text);

/// The markdown report of a set of audited kernels, with a provenance header.
std::string plugin_audit_markdown(const std::vector<KernelAudit>& audits,
                                  const std::string& provenance);

/// The JSON report of a set of audited kernels (deterministic apart from the "seconds" fields).
std::string plugin_audit_json(const std::vector<KernelAudit>& audits,
                              const std::string& provenance);

}  // namespace osvs
