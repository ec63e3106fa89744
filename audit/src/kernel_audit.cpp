#include "osvs/audit/kernel_audit.h"

#include <rapidcheck.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <type_traits>

#include "attention_kernels_markdown.h"
#include "audit_law.h"
#include "json_parts.h"
#include "osvs/api/kind.h"
#include "osvs/api/row_judge.h"
#include "osvs/api/row_laws.h"
#include "osvs/api/row_layouts.h"
#include "osvs/api/runner.h"
#include "osvs/audit/families.h"
#include "osvs/kernels/hex.h"
#include "osvs/kernels/stable_hash.h"

namespace osvs {
namespace {

using audit::json;
using audit::number;
using audit::number_of;

/// The family of rows that exercise the declared conventions (the sweep's other families are
/// audit/families.h's, finite and never fully masked).
constexpr const char* kConventionsFamily = "conventions";

/// Every family of the sweep: the audit's input families, then the conventions.
std::vector<std::string> families() {
  std::vector<std::string> f;
  for (const audit::InputFamily& family : audit::all_families()) f.push_back(family.name);
  f.push_back(kConventionsFamily);
  return f;
}

/// x exact in k's input type, and inside the range where an f16 kernel's results stay finite.
float exact_in_type(const RowKernel& k, float x) {
  const float limit = k.in_type() == DType::F16 || k.out_type() == DType::F16
                          ? 16384.0f
                          : max_finite_of(k.in_type());
  return round_to(k.in_type(), std::isnan(x) || std::isinf(x) ? x : std::clamp(x, -limit, limit));
}

/// Row `row` of the conventions family: each row one special case the declaration rules on.
void conventions_row(const RowKernel& k, std::mt19937_64& rng, std::int64_t row, float* x,
                     std::int64_t n) {
  const float inf = std::numeric_limits<float>::infinity();
  std::normal_distribution<float> normal;
  for (std::int64_t j = 0; j < n; ++j) {
    switch (row % 6) {
      case 0:  // a NaN among normal values
        x[j] = j == 0 ? std::nanf("") : exact_in_type(k, normal(rng));
        break;
      case 1:  // +inf among normal values
        x[j] = j == 0 ? inf : exact_in_type(k, normal(rng));
        break;
      case 2:  // fully masked
        x[j] = -inf;
        break;
      case 3:  // partly masked
        x[j] = j % 2 ? -inf : exact_in_type(k, normal(rng));
        break;
      case 4:  // the type's largest magnitudes
        x[j] = (rng() & 1 ? 1 : -1) * max_finite_of(k.in_type()) *
               (k.out_type() == DType::F16 ? 0.25f : 1.0f);
        break;
      default:  // subnormal and tiny values
        x[j] = exact_in_type(k, std::ldexp(std::uniform_real_distribution<float>()(rng), -130));
    }
  }
}

/// The rows of one sweep cell, from a seed that depends on nothing but the audit's seed, the
/// kernel, the family and n (stable_hash.h).
Rows draw_rows(const RowKernel& k, const std::string& family, std::int64_t rows, std::int64_t n,
               std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Rows out(static_cast<std::size_t>(rows), std::vector<float>(static_cast<std::size_t>(n)));
  const audit::InputFamily* f = audit::find_family(family);
  for (std::int64_t i = 0; i < rows; ++i) {
    float* x = out[static_cast<std::size_t>(i)].data();
    if (!f) {
      conventions_row(k, rng, i, x, n);
      continue;
    }
    f->fill(rng, x, n);
    for (std::int64_t j = 0; j < n; ++j) x[j] = exact_in_type(k, x[j]);
  }
  return out;
}

/// The sweep's row lengths: a fixed set and the kernel's declared layouts (row_layouts.h), every
/// edge of each, or in a quick sweep each layout's first length.
std::vector<std::int64_t> lengths(const RowKernel& k, bool quick) {
  std::vector<std::int64_t> all =
      quick ? std::vector<std::int64_t>{1, 33, 257, 1000, 4097}
            : std::vector<std::int64_t>{1,   2,    7,    32,   33,    255,   256,
                                        257, 1000, 1024, 4097, 32768, 262144};
  if (quick)
    for (const RowLayout& l : k.traits().layouts) all.push_back(l.from);
  else
    for (const LayoutLength& l : layout_lengths(k)) all.push_back(l.cols);
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  std::vector<std::int64_t> out;
  for (std::int64_t n : all)
    if (n <= k.traits().max_cols) out.push_back(n);
  return out;
}

RowSweepCell sweep_cell(const RowKernel& k, const std::string& family, std::int64_t n,
                        const KernelAuditOptions& o) {
  RowSweepCell cell;
  cell.family = family;
  cell.n = n;
  const std::int64_t budget = o.quick ? (std::int64_t{1} << 14) : (std::int64_t{1} << 20);
  cell.rows = std::max<std::int64_t>(1, std::min<std::int64_t>(16, budget / n));
  if (family == kConventionsFamily) cell.rows = std::max<std::int64_t>(cell.rows, 6);
  const Rows rows = draw_rows(
      k, family, cell.rows, n,
      fnv1a64(std::to_string(o.seed) + "/" + k.name() + "/" + family + "/" + std::to_string(n)));
  const RowOutputs out = run_row_kernel(k, rows);
  for (std::int64_t i = 0; i < cell.rows; ++i) {
    const auto j = api::judge_row(k, rows[i].data(), n, out.row(i), "row " + std::to_string(i));
    cell.elements += n;
    if (!j.special) {
      cell.worst_ulp = std::max(cell.worst_ulp, j.worst_ulp);
      if (j.judged) cell.worst_ratio = std::max(cell.worst_ratio, j.worst_ratio);
    }
    if (j.violations && cell.first_violation.empty()) cell.first_violation = j.verdict.explanation;
    cell.violations += j.violations;
  }
  return cell;
}

/// What every kind's audit does around its own parts: the kernel's availability, `parts` (the
/// sweep and the laws; a throw is status "failed"), the status from their findings and the time.
template <class Kernel, class Parts>
KernelAudit audited(const Kernel& k, KernelAudit a, bool contract_declared, const Parts& parts) {
  const auto start = std::chrono::steady_clock::now();
  a.kernel = k.name();
  std::string why;
  if (!runnable(k, &why)) {
    a.status = "unavailable";
    a.error = why;
    return a;
  }
  try {
    parts(a);
  } catch (const std::exception& e) {
    a.status = "failed";
    a.error = e.what();
  }
  if (a.status.empty()) {
    bool broken = false;
    for (const auto& c : a.sweep) broken = broken || c.violations > 0;
    for (const auto& l : a.laws) broken = broken || l.breaks_gate();
    a.status = broken ? "violations" : contract_declared ? "passes" : "no contract";
  }
  a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return a;
}

std::string declaration_of(const RowKernel& k) {
  std::ostringstream s;
  s << to_string(k.op()) << " " << to_string(k.in_type()) << "->" << to_string(k.out_type())
    << " on " << to_string(k.where()) << "; masked rows -> "
    << (k.conventions().masked == MaskedRow::NaN ? "NaN" : "0") << ", +inf rows -> "
    << (k.conventions().pos_inf == PosInfRow::NaN ? "NaN" : "limit");
  if (k.conventions().flush_subnormal_outputs) s << "; subnormal outputs may be flushed to 0";
  if (k.conventions().error_floor > 0)
    s << "; error floor " << readable(k.conventions().error_floor);
  return s.str();
}

/// The contract a kind's kernel is audited against, in words.
template <class K>
std::string contract_of(const typename K::Kernel& k) {
  if constexpr (std::is_same_v<K, RowKind>)
    return k.accuracy().describe();
  else if constexpr (std::is_same_v<K, MergeKind>)
    return "the derived merge bound (docs/semantics.md)";
  else if constexpr (std::is_same_v<K, AttentionKind>)
    return "declared: " + describe(k.accuracy()) + " (docs/semantics.md §9)";
  else if constexpr (std::is_same_v<K, ReductionKind>)
    return k.has_tolerance() ? "derived in " + k.bound_derivation() : std::string("exact results");
  else if constexpr (std::is_same_v<K, RowwiseKind>)
    return "declared: " + k.accuracy().describe();
  else if constexpr (std::is_same_v<K, CombineOperatorKind>)
    return "bitwise laws; the warp's derived bound (docs/semantics.md §5)";
  else
    static_assert(!std::is_same_v<K, K>, "contract_of: say in words what this kind is held to");
}

/// The main audit's measure of an attention kernel (attention_kernels_audit.h), its laws left to
/// the law runs: one more line of the law table, and the gate.
void add_accuracy_distribution(const AttentionKernel& k, const KernelAuditOptions& o,
                               KernelAudit& a) {
  if (a.status == "unavailable" || a.status == "failed") return;
  audit::AttentionKernelsOptions m;
  m.seed = o.seed;
  m.cases = o.law_cases;
  m.laws = false;
  m.device = true;  // (runnable, or audited() said "unavailable")
  const audit::AttentionKernelAccuracy s = audit::audit_attention_kernels({k}, m).kernels.front();
  a.laws.push_back(
      {"accuracy distribution", s.passes() ? "holds" : "fails", audit::attention_kernel_line(s)});
  if (!s.passes() && a.status == "passes") a.status = "violations";
}

/// The audit of a kernel of kind K: its declaration in a line, the row kernels' sweep, every law
/// of the kind, an attention kernel's accuracy distribution.
template <class K>
KernelAudit audit_of_kind(const typename K::Kernel& k, const KernelAuditOptions& o) {
  constexpr bool row = std::is_same_v<K, RowKind>;
  KernelAudit a;
  a.kind = K::name;
  if constexpr (row)
    a.declaration = declaration_of(k);
  else
    a.declaration = K::describe(k);
  a.contract = contract_of<K>(k);
  bool contract_declared = true;
  if constexpr (row) contract_declared = k.accuracy().declared();
  a = audited(k, std::move(a), contract_declared, [&](KernelAudit& out) {
    if constexpr (row)
      for (const std::string& f : families())
        for (std::int64_t n : lengths(k, o.quick)) out.sweep.push_back(sweep_cell(k, f, n, o));
    for (const auto& law : K::laws()) out.laws.push_back(audit_law<K>(k, law, o));
  });
  if constexpr (std::is_same_v<K, AttentionKind>) add_accuracy_distribution(k, o, a);
  return a;
}

}  // namespace

template <class Kernel>
KernelAudit audit_kernel(const Kernel& k, const KernelAuditOptions& o) {
  std::optional<KernelAudit> a;  // the kind whose kernels these are (for_each_kind's list)
  for_each_kind([&](auto kind) {
    using K = decltype(kind);
    if constexpr (std::is_same_v<typename K::Kernel, Kernel>) a = audit_of_kind<K>(k, o);
  });
  return std::move(*a);
}

// The header declares the template; its kinds' kernels are compiled here.
template KernelAudit audit_kernel(const RowKernel&, const KernelAuditOptions&);
template KernelAudit audit_kernel(const MergeKernel&, const KernelAuditOptions&);
template KernelAudit audit_kernel(const AttentionKernel&, const KernelAuditOptions&);
template KernelAudit audit_kernel(const ReductionKernel&, const KernelAuditOptions&);
template KernelAudit audit_kernel(const RowwiseKernel&, const KernelAuditOptions&);
template KernelAudit audit_kernel(const CombineKernel&, const KernelAuditOptions&);

bool gate_passes(const KernelAudit& a) {
  return a.status == "passes";
}

// A plugin audit's JSON: KernelAudit by its list of fields (json_parts.h's record_json and
// record_of find these by argument-dependent lookup, hence in namespace osvs), a sweep cell by a
// writer and a reader of its own.

static json json_value(const RowSweepCell& c) {
  return {{"family", c.family},
          {"n", c.n},
          {"rows", c.rows},
          {"elements", c.elements},
          {"worst_ulp", number(c.worst_ulp)},
          {"worst_ratio", number(c.worst_ratio)},
          {"violations", c.violations},
          {"first_violation", c.first_violation}};
}

static void read_value(const json& c, RowSweepCell& cell) {
  cell = {c.at("family"),
          c.at("n"),
          c.at("rows"),
          c.at("elements"),
          number_of(c.at("worst_ulp")),
          number_of(c.at("worst_ratio")),
          c.at("violations"),
          c.at("first_violation")};
}

static void json_fields(audit::RecordOf<KernelAudit> auto& a, auto& io) {
  io("kind", a.kind);
  io("kernel", a.kernel);
  io("declaration", a.declaration);
  io("contract", a.contract);
  io("status", a.status);
  io("error", a.error);
  io("sweep", a.sweep);
  io("laws", a.laws);
  io("seconds", a.seconds);
}

std::string to_json(const KernelAudit& a) {
  return audit::record_json(a).dump(1) + "\n";
}

KernelAudit kernel_audit_from_json(const std::string& text) {
  return audit::record_of<KernelAudit>(json::parse(text));
}

std::string plugin_audit_json(const std::vector<KernelAudit>& audits,
                              const std::string& provenance) {
  json all = json::array();
  bool gate = true;
  for (const auto& a : audits) {
    all.push_back(audit::record_json(a));
    gate = gate && gate_passes(a);
  }
  return json{{"provenance", provenance}, {"gate", gate ? "passes" : "fails"}, {"kernels", all}}
             .dump(1) +
         "\n";
}

std::string plugin_audit_markdown(const std::vector<KernelAudit>& audits,
                                  const std::string& provenance) {
  std::ostringstream md;
  bool gate = true;
  for (const auto& a : audits) gate = gate && gate_passes(a);
  md << "# osvs audit of registered kernels\n\n"
     << provenance << "\n\n"
     << "**Release gate: " << (gate ? "passes" : "fails") << "**\n\n"
     << "Plots (drawn where gnuplot is installed; `osvs audit --plot DIR` draws them later): "
        "`worst_vs_n.png`, `contract_ratio_vs_n.png`.\n\n"
     << "| kernel | kind | declaration | contract | status | worst ulp | worst / contract | "
        "violations |\n"
     << "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const auto& a : audits) {
    double worst = 0, ratio = -1;
    std::int64_t violations = 0;
    for (const auto& c : a.sweep) {
      worst = std::max(worst, c.worst_ulp);
      ratio = std::max(ratio, c.worst_ratio);
      violations += c.violations;
    }
    const std::string status = a.status == "no contract" ? "no contract declared" : a.status;
    md << "| " << a.kernel << " | " << a.kind << " | " << a.declaration << " | " << a.contract
       << " | **" << status << "**" << (a.error.empty() ? "" : ": " + a.error) << " | "
       << (a.sweep.empty() ? "not run" : digits9(worst)) << " | "
       << (a.sweep.empty() ? "not run"
           : ratio < 0     ? "no contract"
                           : digits9(ratio))
       << " | " << violations << " |\n";
  }
  for (const auto& a : audits) {
    md << "\n## " << a.kernel << "\n\n" << a.declaration << "; contract: " << a.contract << "\n\n";
    if (!a.error.empty()) md << "**" << a.status << "**: " << a.error << "\n\n";
    if (!a.sweep.empty()) {
      md << "| family | n | rows | worst ulp | worst / contract | violations | first violation |\n"
         << "| --- | --- | --- | --- | --- | --- | --- |\n";
      for (const auto& c : a.sweep)
        md << "| " << c.family << " | " << c.n << " | " << c.rows << " | " << digits9(c.worst_ulp)
           << " | " << (c.worst_ratio < 0 ? std::string("no contract") : digits9(c.worst_ratio))
           << " | " << c.violations << " | " << c.first_violation << " |\n";
    }
    if (!a.laws.empty()) {
      md << "\n| law | status | detail |\n| --- | --- | --- |\n";
      for (const auto& l : a.laws)
        md << "| " << l.law << " | " << l.status << " | " << l.detail << " |\n";
    }
  }
  return md.str();
}

}  // namespace osvs
