#include "attention_kernels_markdown.h"

#include <fmt/format.h>

#include "osvs/kernels/hex.h"

namespace osvs::audit {
namespace {

/// "p50 / p99 / p99.9 / max", each with 9 significant digits.
std::string spread(const Quantiles& q) {
  if (q.count == 0) return "—";
  return digits9(q.p50) + " / " + digits9(q.p99) + " / " + digits9(q.p99_9) + " / " +
         digits9(q.max);
}

const char* verdict(const AttentionKernelAccuracy& k) {
  return !k.error.empty()     ? "**fail**"
         : !k.not_run.empty() ? "not run"
         : k.passes()         ? "pass"
                              : "**fail**";
}

std::string worst_table(const AttentionKernelAccuracy& k) {
  if (k.worst.empty()) return "";
  std::string s =
      "Worst cases (largest error ÷ contract of a case's elements):\n\n"
      "| case | shape | element | kernel | exact (rounded) | ulp of M | contract (ulp) | "
      "tightness |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const AttentionWorstCase& w : k.worst)
    s += fmt::format("| {} | {} | `{}` | `{}` | `{}` | {} | {} | {} |\n", w.source, w.summary,
                     w.element, w.got, w.exact, digits9(w.ulps), digits9(w.allowed_ulps),
                     digits9(w.tightness));
  return s + "\n";
}

std::string law_table(const AttentionKernelAccuracy& k) {
  std::string s =
      "| law | cases | vacuous | shape classes | status | note |\n| --- | --- | --- | --- | --- | "
      "--- |\n";
  s += fmt::format("| accuracy | {} | {} | | {} | {} |\n", k.generated_cases + k.realistic_cases,
                   k.vacuous_cases,
                   k.over_contract > 0
                       ? "elements outside the contract: " + std::to_string(k.over_contract)
                       : "holds",
                   k.accuracy_excused ? "declared a known defect or skipped" : "measured above");
  for (const LawOutcome& l : k.laws) {
    if (l.not_run()) {
      s += fmt::format("| {} | — | — | — | {} | {} |\n", l.law, l.status, l.detail);
      continue;
    }
    const bool failed = l.status == "fails" || l.status == "known defect shown";
    s += fmt::format(
        "| {} | {} | {} | {} | {} | {} |\n", l.law, l.cases, l.vacuous, l.shape_classes, l.status,
        failed ? (l.minimal_case.empty() ? "" : l.minimal_case + ": ") + l.detail : "");
  }
  return s;
}

}  // namespace

std::string attention_kernel_line(const AttentionKernelAccuracy& k) {
  if (!k.not_run.empty()) return "not run: " + k.not_run;
  if (!k.error.empty()) return "the measure could not finish: " + k.error;
  std::string s = fmt::format(
      "{} + {} cases (generated + realistic), {} o and {} lse elements; o ulp of M p50 / p99 / "
      "p99.9 / max {}; lse f32 ulp {}; error / contract {}; {} outside the contract",
      k.generated_cases, k.realistic_cases, k.o_elements, k.lse_elements, spread(k.o_ulps),
      spread(k.lse_ulps), spread(k.tightness), k.over_contract);
  if (k.failed_cases > 0)
    s +=
        fmt::format("; {} case(s) did not run, the first: {}", k.failed_cases, k.first_failed_case);
  if (!k.worst.empty()) {
    const AttentionWorstCase& w = k.worst.front();
    s += fmt::format("; worst: {} ({}), {} = {}, exact {}, {} ulp against {}", w.source, w.summary,
                     w.element, w.got, w.exact, digits9(w.ulps), digits9(w.allowed_ulps));
  }
  return s;
}

std::string attention_kernels_markdown(const AttentionKernelsAudit& a) {
  if (!a.not_run.empty()) return "Not run: " + a.not_run + ".\n";
  std::string s = fmt::format(
      "Every kernel of the attention kind's registry (`OSVS_REGISTER_ATTENTION_KERNEL`: osvs's "
      "own, a plugin's), on {} cases of the kind's generator fitted to its declaration (the "
      "properties' generator, `api/testbed/attention_cases.cpp`, seeded from the audit's seed, "
      "the kernel and the law) and on realistic shapes it takes, in each of its in types (a "
      "causal varlen prefill of 128 × 256 and 192 × 192 queries × keys, 4 query heads over 2 kv "
      "heads, head_dim 64 — or the declared ones nearest —; a sliding window of 64 keys over 256; "
      "four decode steps over 77 … 256 keys, paged where it reads pages; `audit/src/"
      "attention_shapes.cpp`), against the exact attention (certified double-double, MPFR where "
      "that cannot decide). Every o element's error is in "
      "ulps of its "
      "magnitude M = Σ p_j |v_j| in the output type, every lse's in f32 ulps of max(|lse|, 1), "
      "and tightness is error ÷ the declared contract at the element (≤ 1 within it): the "
      "`accuracy` law's own measure (`api/include/osvs/api/attention_accuracy.h`); a backward "
      "kernel's o columns count its dq, dk, dv and delta elements, each in ulps of its "
      "magnitude (docs/semantics.md §9.4). Quantiles "
      "are exact (nearest rank). The other laws run on {} generated cases each. A kernel "
      "outside its contract, or failing a law it does not declare a known defect, fails the "
      "release.\n\n"
      "| kernel | verdict | cases | o elements | o: ulp of M, p50 / p99 / p99.9 / max | lse "
      "elements | lse: f32 ulp, p50 / p99 / p99.9 / max | tightness, p50 / p99 / p99.9 / max | "
      "outside the contract |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
      a.cases, a.cases);
  std::string details;
  for (const AttentionKernelAccuracy& k : a.kernels) {
    details += fmt::format("### {}\n\n{}\n\n", k.kernel, k.declaration);
    if (!k.not_run.empty()) {
      s += fmt::format("| {} | not run | | | | | | | |\n", k.kernel);
      details += "Not run: " + k.not_run + "\n\n";
      continue;
    }
    s += fmt::format("| {} | {} | {} + {} | {} | {} | {} | {} | {} | {} |\n", k.kernel, verdict(k),
                     k.generated_cases, k.realistic_cases, k.o_elements, spread(k.o_ulps),
                     k.lse_elements, spread(k.lse_ulps), spread(k.tightness), k.over_contract);
    if (!k.error.empty()) details += "**The section could not finish**: " + k.error + "\n\n";
    if (k.failed_cases > 0)
      details += fmt::format("**{} case(s) did not run**; the first: {}\n\n", k.failed_cases,
                             k.first_failed_case);
    details += worst_table(k) + law_table(k) + "\n";
  }
  return s + "\n![Attention kernels: o error distribution](attention_kernels_ulps.png)\n\n" +
         details;
}

}  // namespace osvs::audit
