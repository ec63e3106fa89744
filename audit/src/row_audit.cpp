#include "osvs/audit/row_audit.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "osvs/kernels/documented.h"
#include "osvs/kernels/hex.h"
#include "osvs/oracle/bounds.h"
#include "osvs/oracle/element_chunks.h"
#include "osvs/oracle/matcher.h"
#include "osvs/oracle/reference.h"
#include "osvs/oracle/ulp.h"

namespace osvs::audit {
namespace {

WorstElement element(const float* x, const float* y, const oracle::RowReference& ref,
                     const oracle::SoftmaxBound& bound, std::int64_t j, double ulp) {
  const auto k = static_cast<std::size_t>(j);
  return {j, x[j], y[j], ref.y[k], ulp, bound.y_ulp[k]};
}

/// A row without a finite answer (NaN, +inf, fully masked, empty): every output must be what the
/// spec and the kernel's documentation say, bit for bit (NaN: any NaN). No ulp statistics.
RowAudit audit_special_row(const KernelUnderTest& kut, const float* x, std::int64_t n,
                           const float* y, const oracle::RowReference& ref) {
  const float expected = ref.kind == oracle::RowKind::AllMasked
                             ? documented_masked_output(kut.kernel, kut.combine)
                             : std::numeric_limits<float>::quiet_NaN();
  RowAudit r;
  for (std::int64_t j = 0; j < n; ++j) {
    const bool ok =
        std::isnan(expected) ? std::isnan(y[j]) : y[j] == expected && !std::signbit(y[j]);
    if (!ok) {
      r.ok = false;
      r.explanation = std::string(oracle::to_string(ref.kind)) + " row: y[" + std::to_string(j) +
                      "] = " + hex(y[j]) + " for x[" + std::to_string(j) + "] = " + hex(x[j]) +
                      ", documented " + hex(expected);
      break;
    }
  }
  return r;
}

/// The reference and the bound of the rows a thread audits, their storage reused from row to row
/// (reference_row_into, softmax_bound_into): a long row's vectors are allocated and faulted in
/// once, not for every row. It keeps the longest row's storage (24 bytes an element) for the
/// thread's life: the sweep's judging thread, or a configuration's row workers.
struct RowScratch {
  oracle::RowReference ref;
  oracle::SoftmaxBound bound;
};

RowScratch& thread_scratch() {
  thread_local RowScratch scratch;
  return scratch;
}

}  // namespace

RowAudit audit_row(const KernelUnderTest& kut, int block, const float* x, std::int64_t n,
                   const float* y, State state, double exp_ulp, ErrorStats* stats,
                   const IndexLoop* loops) {
  RowScratch& scratch = thread_scratch();
  oracle::reference_row_into(scratch.ref, x, n, loops);
  const oracle::RowReference& ref = scratch.ref;
  if (ref.kind != oracle::RowKind::Finite) return audit_special_row(kut, x, n, y, ref);
  oracle::softmax_bound_into(scratch.bound, kut.kernel, kut.combine, block, x, n, exp_ulp, loops);
  const oracle::SoftmaxBound& bound = scratch.bound;
  // The elements' errors per chunk (oracle/element_chunks.h), folded in chunk order with the
  // comparisons of an element-order loop: the same worst elements (ties to the lower index) and,
  // the chunks depending on n only, the same statistics in every run. A row of one chunk adds to
  // *stats directly. The same pass holds each element to the matcher's verdict (the one
  // definition of "within bound" for osvs, matcher.h) and keeps each chunk's first element
  // outside it: the lowest of those is the element match_softmax would explain.
  const std::int64_t chunks = oracle::element_chunk_count(n);
  std::vector<RowAudit> part(static_cast<std::size_t>(chunks));
  std::vector<std::int64_t> first_outside(static_cast<std::size_t>(chunks), -1);
  std::vector<ErrorStats> part_stats(chunks > 1 && stats ? static_cast<std::size_t>(chunks) : 0);
  oracle::run_element_chunks(loops, n, [&](std::int64_t begin, std::int64_t end) {
    const auto c = static_cast<std::size_t>(begin / oracle::kElementChunk);
    RowAudit& r = part[c];
    ErrorStats* s = part_stats.empty() ? stats : &part_stats[c];
    for (std::int64_t j = begin; j < end; ++j) {
      const auto k = static_cast<std::size_t>(j);
      // ref.y[k] lies in the binade ref.y_binade[k] (reference.h): the matcher's distance
      const double ulp = oracle::ulp_distance(y[j], ref.y[k], ref.y_binade[k]);
      const double ratio = oracle::tolerance_ratio(ulp, bound.y_ulp[k]);
      if (s) s->add(ulp);
      if (r.worst_ulp.index < 0 || ulp > r.worst_ulp.ulp)
        r.worst_ulp = element(x, y, ref, bound, j, ulp);
      if (r.worst_ratio.index < 0 || ratio > r.ratio) {
        r.ratio = ratio;
        r.worst_ratio = element(x, y, ref, bound, j, ulp);
      }
      r.y_bound_max = std::max(r.y_bound_max, bound.y_ulp[k]);
      if (first_outside[c] < 0 && !oracle::within_tolerance(ulp, bound.y_ulp[k]))
        first_outside[c] = j;
    }
  });
  RowAudit r;
  r.mpfr_fallbacks = ref.mpfr_fallbacks;
  for (const RowAudit& p : part) {
    if (r.worst_ulp.index < 0 || p.worst_ulp.ulp > r.worst_ulp.ulp) r.worst_ulp = p.worst_ulp;
    if (r.worst_ratio.index < 0 || p.ratio > r.ratio) {
      r.ratio = p.ratio;
      r.worst_ratio = p.worst_ratio;
    }
    r.y_bound_max = std::max(r.y_bound_max, p.y_bound_max);
  }
  for (const ErrorStats& p : part_stats) stats->merge(p);
  for (const std::int64_t j : first_outside) {
    if (j < 0) continue;
    const auto k = static_cast<std::size_t>(j);
    r.ok = false;
    r.explanation = oracle::explain_element(x, n, j, y[j], ref, bound.y_ulp[k]);
    break;
  }
  // m: the maximum is exact in every kernel (fmaxf and the combine's select only copy floats).
  if (!(state.m == ref.m)) {
    r.ok = false;
    r.explanation += "\n  m = " + hex(state.m) + " differs from the row maximum " + hex(ref.m);
  }
  // d: |d_hat - d_ref| / d_ref <= (bound + 2^-48) / (1 - 2^-48) <= bound + 2 * 2^-48 (bound <= 1/2)
  // since the reference d carries a relative error of at most kReferenceRelErr = 2^-48.
  r.d_rel = std::abs(static_cast<double>(state.d) - ref.d) / ref.d;
  r.d_bound = bound.d_rel;
  if (!(r.d_rel <= bound.d_rel + 2 * oracle::kReferenceRelErr)) {
    r.ok = false;
    r.explanation += "\n  d = " + readable(state.d) + ", reference " + readable(ref.d) +
                     ": relative error " + digits9(r.d_rel) + " above its bound " +
                     digits9(bound.d_rel);
  }
  return r;
}

}  // namespace osvs::audit
