#include "osvs/audit/determinism_certificate.h"

#include <fmt/format.h>

#include "json_parts.h"

namespace osvs::audit {
namespace {

/// The audit ran the kernel: "unavailable" (no device) and "failed" (it threw) certify nothing.
bool ran(const KernelAudit& a) {
  return a.status != "unavailable" && a.status != "failed";
}

std::string verdict_text(const LawOutcome& l) {
  if (l.status == "holds") return l.asks == "bitwise" ? "holds bitwise" : "holds within contract";
  return l.status;
}

/// The markdown cell of a pipe-free text.
std::string cell(std::string s) {
  for (char& c : s)
    if (c == '|' || c == '\n') c = ' ';
  return s;
}

}  // namespace

std::vector<LawOutcome> invariances_of(const KernelAudit& a) {
  std::vector<LawOutcome> out;
  for (const LawOutcome& l : a.laws)
    if (!l.asks.empty()) out.push_back(l);
  return out;
}

bool certificate_passes(const KernelAudit& a) {
  if (!ran(a)) return false;
  for (const LawOutcome& l : invariances_of(a))
    if (l.status == "fails" || l.status == "known defect missing") return false;
  return true;
}

std::vector<KernelAudit> certified_kernels(const AttentionKernelsAudit& a) {
  std::vector<KernelAudit> out;
  for (const AttentionKernelAccuracy& k : a.kernels) {
    KernelAudit c;
    c.kind = "attention";
    c.kernel = k.kernel;
    c.declaration = k.declaration;
    c.status = !k.not_run.empty() ? "unavailable"
               : !k.error.empty() ? "failed"
               : k.passes()       ? "passes"
                                  : "violations";
    c.error = !k.not_run.empty() ? k.not_run : k.error;
    c.laws = k.laws;
    out.push_back(std::move(c));
  }
  return out;
}

std::string certificate_json(const std::vector<KernelAudit>& audits,
                             const nlohmann::ordered_json& provenance) {
  json kernels = json::array();
  bool all = true;
  for (const KernelAudit& a : audits) {
    const std::vector<LawOutcome> inv = invariances_of(a);
    if (inv.empty() && ran(a)) continue;  // a kind without invariances has nothing to certify
    json laws = json::array();
    for (const LawOutcome& l : inv) laws.push_back(record_json(l));
    const bool passes = certificate_passes(a);
    all = all && passes;
    kernels.push_back({{"kind", a.kind},
                       {"kernel", a.kernel},
                       {"declaration", a.declaration},
                       {"status", a.status},
                       {"error", a.error},
                       {"passes", passes},
                       {"invariances", laws}});
  }
  return json{{"osvs_determinism_certificate", 1},
              {"provenance", provenance},
              {"passes", all},
              {"kernels", kernels}}
             .dump(1) +
         "\n";
}

std::string certificate_markdown(const std::vector<KernelAudit>& audits) {
  std::string s;
  for (const KernelAudit& a : audits) {
    const std::vector<LawOutcome> inv = invariances_of(a);
    if (inv.empty()) continue;
    s += fmt::format("\n### {}: {}\n\n", a.kernel,
                     certificate_passes(a) ? "certified" : "**not certified**");
    s += "| invariance | asks | verdict | cases | shape classes | minimal case | detail |\n"
         "| --- | --- | --- | --- | --- | --- | --- |\n";
    for (const LawOutcome& l : inv)
      s += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", l.law,
                       l.asks == "bitwise" ? "the same bits" : "the contract", verdict_text(l),
                       l.cases, l.shape_classes, cell(l.minimal_case), cell(l.detail));
  }
  if (s.empty()) return "";
  return "\n## Determinism certificate\n\n"
         "Every invariance of each kernel's kind: other calls computing the same problem must "
         "give the same bits, or, where the declaration relaxes the law, each be within the "
         "contract. Cases are those the law judged; shape classes count what they were made of "
         "(one sequence or several, decode or prefill, MHA / GQA / MQA, type, mask, paging, "
         "modifiers; sizes and values aside). A failure shows its case shrunk within the audit's "
         "budget. "
         "`certificate.json` holds the same, for a CI to gate on.\n" +
         s;
}

}  // namespace osvs::audit
