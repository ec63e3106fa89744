// The laws of a state reduction (osvs/api/reduction_laws.h). Every law builds schedules of the
// case's row (kernels/cases.h HarnessCase), runs them through the kernel in one launch and judges
// the states (bit for bit) or the finalised results (against the exact reference, within the
// declared tolerance).
#include "osvs/api/reduction_laws.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "osvs/api/kind.h"
#include "osvs/api/law_names.h"
#include "osvs/kernels/hex.h"

namespace osvs {
namespace {

/// The most chunks the exact laws pair up (8 chunks: 28 pairs, 56 schedules).
constexpr std::size_t kMaxPairedChunks = 8;

/// h with an empty chunk appended (its index: the old chunk count), its slots holding the chunks
/// `slots` in order and merged by `merges` into slot 0.
HarnessCase reslotted(const HarnessCase& h, std::vector<std::int32_t> slots,
                      std::vector<Merge> merges) {
  HarnessCase out = h;
  out.chunk_offsets.push_back(out.chunk_offsets.back());
  out.slot_chunk = std::move(slots);
  out.merges = std::move(merges);
  out.root = 0;
  return out;
}

std::int32_t chunks_of(const HarnessCase& h) {
  return static_cast<std::int32_t>(h.chunk_offsets.size() - 1);
}

/// "(m 0x1p+0 (1), d 0x1p+1 (2))".
std::string fields_text(const std::vector<FieldSpec>& specs, const std::vector<std::uint64_t>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < specs.size(); ++i)
    s += (i ? ", " : "") + specs[i].name + " " + field_text(specs[i].type, v[i]);
  return s + ")";
}

std::string row_text(const std::vector<float>& row, std::size_t first, std::size_t last) {
  std::string s = "[";
  for (std::size_t j = first; j < last && j < first + 8; ++j)
    s += (j > first ? ", " : "") + hex(row[j]);
  return s + (last > first + 8 ? ", ... (" + std::to_string(last - first) + " elements)]" : "]");
}

std::string chunk_text(const HarnessCase& h, std::int32_t c) {
  const auto i = static_cast<std::size_t>(c);
  return "chunk " + std::to_string(c) + " " +
         row_text(h.row, static_cast<std::size_t>(h.chunk_offsets[i]),
                  static_cast<std::size_t>(h.chunk_offsets[i + 1]));
}

/// Why a finalised result differs from the exact reference of `row` by more than the tolerance
/// for `depth` combines, or "": a NaN reference asks for a NaN, an infinite one (or one that
/// overflows the field's type) for the same infinity, a finite one for a finite result within
/// the tolerance.
std::string result_problem(const ReductionKernel& k, std::span<const float> row, int depth,
                           const std::vector<std::uint64_t>& result, Evidence* worst) {
  const std::vector<double> exact = k.exact()(row);
  const auto& specs = k.result_fields();
  if (exact.size() != specs.size())
    throw KernelFailure("reduction '" + k.name() + "': its exact reference gives " +
                        std::to_string(exact.size()) + " values for " +
                        std::to_string(specs.size()) + " result fields");
  const ReductionShape shape{row, depth, &exact};
  for (std::size_t f = 0; f < specs.size(); ++f) {
    const double obs = field_value(specs[f].type, result[f]);
    const double ex = exact[f];
    const double in_type = specs[f].type == FieldType::F32 ? static_cast<float>(ex) : ex;
    const double tol = k.tolerance(f, shape);
    bool ok;
    if (std::isnan(ex))
      ok = std::isnan(obs);
    else if (std::isinf(in_type))
      ok = obs == in_type;
    else
      ok = std::isfinite(obs) && std::fabs(obs - ex) <= tol;
    if (ok) continue;
    if (worst) *worst = {specs[f].name, obs, ex, std::fabs(obs - ex), tol};
    const bool is_float = specs[f].type == FieldType::F32 || specs[f].type == FieldType::F64;
    return specs[f].name + " = " + field_text(specs[f].type, result[f]) + ", exact " +
           (is_float ? readable(ex) : digits9(ex)) + ", error " + digits9(std::fabs(obs - ex)) +
           " > tolerance " + digits9(tol) + " (depth " + std::to_string(depth) + ")";
  }
  return "";
}

std::string commutative_excluded(const ReductionKernel& k) {
  return k.bitwise_commutative() ? "" : k.name() + " does not claim bitwise commutativity";
}

std::string identity_excluded(const ReductionKernel& k) {
  return k.exact_identity() ? "" : k.name() + " does not claim an exact identity";
}

std::string nothing_excluded(const ReductionKernel&) {
  return "";
}

/// The pairs (i, j), i != j, of the first kMaxPairedChunks chunks, as two-slot schedules.
std::vector<HarnessCase> pair_schedules(const HarnessCase& h) {
  std::vector<HarnessCase> out;
  const std::int32_t n = std::min<std::int32_t>(chunks_of(h), kMaxPairedChunks);
  for (std::int32_t i = 0; i < n; ++i)
    for (std::int32_t j = i + 1; j < n; ++j) {
      out.push_back(reslotted(h, {i, j}, {{0, 1}}));
      out.push_back(reslotted(h, {j, i}, {{0, 1}}));
    }
  return out;
}

Verdict check_commutativity(const ReductionKernel& k, const ReductionCase& c) {
  const HarnessCase& h = c.schedule;
  const std::vector<HarnessCase> schedules = pair_schedules(h);
  if (schedules.empty()) return Verdict::vacuous("fewer than two chunks: no pair to swap");
  const ReductionOutputs out = run_reduction_kernel(k, schedules);
  for (std::size_t p = 0; p < schedules.size(); p += 2) {
    if (out.states[p] == out.states[p + 1]) continue;
    const HarnessCase& s = schedules[p];
    return Verdict::fail("a (+) b != b (+) a for a = " + chunk_text(h, s.slot_chunk[0]) +
                         ", b = " + chunk_text(h, s.slot_chunk[1]) + ": " +
                         fields_text(k.state_fields(), out.states[p]) + " vs " +
                         fields_text(k.state_fields(), out.states[p + 1]));
  }
  return Verdict::pass();
}

Verdict check_identity(const ReductionKernel& k, const ReductionCase& c) {
  const HarnessCase& h = c.schedule;
  const std::int32_t empty = chunks_of(h);  // reslotted appends it
  std::vector<HarnessCase> schedules;
  const std::int32_t n = std::min<std::int32_t>(empty, kMaxPairedChunks);
  for (std::int32_t i = 0; i <= n; ++i) {
    const std::int32_t chunk = i == n ? empty : i;  // the empty chunk last: e (+) e == e
    schedules.push_back(reslotted(h, {chunk}, {}));
    schedules.push_back(reslotted(h, {chunk, empty}, {{0, 1}}));
    schedules.push_back(reslotted(h, {empty, chunk}, {{0, 1}}));
  }
  const ReductionOutputs out = run_reduction_kernel(k, schedules);
  for (std::size_t s = 0; s < schedules.size(); s += 3)
    for (std::size_t side = 1; side <= 2; ++side) {
      if (out.states[s + side] == out.states[s]) continue;
      const std::int32_t chunk = schedules[s].slot_chunk[0];
      const std::string what = chunk == empty ? "the identity" : chunk_text(h, chunk);
      return Verdict::fail(std::string(side == 1 ? "s (+) identity" : "identity (+) s") +
                           " != s for s = " + what + ": " +
                           fields_text(k.state_fields(), out.states[s + side]) + " vs " +
                           fields_text(k.state_fields(), out.states[s]));
    }
  return Verdict::pass();
}

Verdict judge_results(const ReductionKernel& k, const HarnessCase& h, const char* order) {
  const ReductionOutputs out = run_reduction_kernel(k, {h});
  Evidence worst;
  const std::string why = result_problem(k, h.row, schedule_depth(h), out.results[0], &worst);
  if (why.empty()) return Verdict::pass();
  return Verdict::fail(std::string(order) + " of " + row_text(h.row, 0, h.row.size()) + ": " + why,
                       {worst});
}

Verdict check_accuracy(const ReductionKernel& k, const ReductionCase& c) {
  return judge_results(k, whole_row_schedule(c.schedule.row), "the left-to-right fold");
}

Verdict check_associativity(const ReductionKernel& k, const ReductionCase& c) {
  return judge_results(k, c.schedule, "the case's partition and merge tree");
}

/// A schedule of `row` cut into chunks of one element each.
HarnessCase singles(std::vector<float> row) {
  HarnessCase h;
  for (std::int64_t i = 0; i <= static_cast<std::int64_t>(row.size()); ++i)
    h.chunk_offsets.push_back(i);
  h.row = std::move(row);
  return h;
}

/// On the grid of the case's row (the special values): each value alone, and each pair of them
/// as a row of two elements merged as two chunks in both orders, against the reference's
/// conventions; the two orders (where commutativity is claimed) and the identity on either side
/// (where claimed) bit for bit. Each class of failure is a finding of its own.
Verdict check_special_values(const ReductionKernel& k, const ReductionCase& c) {
  const std::vector<float>& grid = c.schedule.row;
  std::vector<HarnessCase> schedules;
  for (float x : grid) {
    const HarnessCase one = singles({x});
    schedules.push_back(reslotted(one, {0}, {}));
    schedules.push_back(reslotted(one, {0, 1}, {{0, 1}}));
    schedules.push_back(reslotted(one, {1, 0}, {{0, 1}}));
  }
  const std::size_t pairs_at = schedules.size();
  for (std::size_t i = 0; i < grid.size(); ++i)
    for (std::size_t j = i + 1; j < grid.size(); ++j) {
      const HarnessCase two = singles({grid[i], grid[j]});
      schedules.push_back(reslotted(two, {0, 1}, {{0, 1}}));
      schedules.push_back(reslotted(two, {1, 0}, {{0, 1}}));
    }
  const ReductionOutputs out = run_reduction_kernel(k, schedules);
  std::vector<Finding> findings;
  std::vector<Evidence> evidence;
  Evidence worst;
  const auto state = [&](std::size_t s) { return fields_text(k.state_fields(), out.states[s]); };
  for (std::size_t s = 0; s < pairs_at; s += 3) {
    const std::vector<float>& row = schedules[s].row;
    if (const std::string why = result_problem(k, row, 1, out.results[s], &worst); !why.empty()) {
      add_finding(findings, {"conventions of one element", "[" + hex(row[0]) + "]: " + why});
      evidence.push_back(worst);
    }
    for (std::size_t side = 1; k.exact_identity() && side <= 2; ++side)
      if (out.states[s + side] != out.states[s])
        add_finding(findings, {"identity on special values",
                               std::string(side == 1 ? "s (+) identity" : "identity (+) s") +
                                   " != s for s = [" + hex(row[0]) + "]: " + state(s + side) +
                                   " vs " + state(s)});
  }
  for (std::size_t s = pairs_at; s < schedules.size(); s += 2) {
    const std::vector<float>& row = schedules[s].row;
    const std::string pair = "[" + hex(row[0]) + "] (+) [" + hex(row[1]) + "]";
    for (std::size_t order = 0; order < 2; ++order)
      if (const std::string why = result_problem(k, row, 2, out.results[s + order], &worst);
          !why.empty()) {
        add_finding(findings, {"conventions of two elements",
                               (order ? "the swapped " : "") + pair + ": " + why});
        evidence.push_back(worst);
      }
    if (k.bitwise_commutative() && out.states[s] != out.states[s + 1])
      add_finding(findings,
                  {"commutativity on special values",
                   pair + " = " + state(s) + " but the swapped merge gives " + state(s + 1)});
  }
  if (findings.empty()) return Verdict::pass();
  const std::string first = findings.front().explanation;
  return Verdict::fail(first, std::move(evidence), std::move(findings));
}

std::string cpu_model_excluded(const ReductionKernel& k) {
  return k.cpu_model().empty() ? k.name() + " declares no CPU model" : "";
}

/// The case's schedule, its left-to-right fold and its first chunks alone, through k and through
/// the CPU model it names: the same state and result bits.
Verdict check_cpu_model(const ReductionKernel& k, const ReductionCase& c) {
  const ReductionKernel* model = ReductionKind::find_kernel(k.cpu_model());
  if (model == nullptr)
    return Verdict::fail(k.name() + "'s CPU model '" + k.cpu_model() +
                         "' is not a registered reduction");
  if (model->state_fields() != k.state_fields() || model->result_fields() != k.result_fields())
    return Verdict::fail(k.name() + " and its CPU model '" + model->name() +
                         "' declare other state or result fields");
  const HarnessCase& h = c.schedule;
  std::vector<HarnessCase> schedules = {h, whole_row_schedule(h.row)};
  std::vector<std::string> what = {"the case's partition and merge tree", "the left-to-right fold"};
  for (std::int32_t i = 0; i < std::min<std::int32_t>(chunks_of(h), kMaxPairedChunks); ++i) {
    schedules.push_back(chunk_schedule(h, static_cast<std::size_t>(i)));
    what.push_back(chunk_text(h, i) + " alone");
  }
  const ReductionOutputs got = run_reduction_kernel(k, schedules);
  const ReductionOutputs want = run_reduction_kernel(*model, schedules);
  for (std::size_t s = 0; s < schedules.size(); ++s) {
    const bool state = got.states[s] != want.states[s];
    if (!state && got.results[s] == want.results[s]) continue;
    const auto& fields = state ? k.state_fields() : k.result_fields();
    const auto& ours = state ? got.states[s] : got.results[s];
    const auto& theirs = state ? want.states[s] : want.results[s];
    return Verdict::fail(what[s] + " of " + row_text(h.row, 0, h.row.size()) + ": " +
                         (state ? "state " : "result ") + fields_text(fields, ours) + " but " +
                         model->name() + " gives " + fields_text(fields, theirs));
  }
  return Verdict::pass();
}

}  // namespace

const std::vector<ReductionLaw>& reduction_laws() {
  static const std::vector<ReductionLaw> laws = laws_named<ReductionLaw>(
      {
          {"commutativity", "a (+) b and b (+) a have the same bits for the case's chunk states",
           check_commutativity, commutative_excluded},
          {"identity",
           "identity (+) s and s (+) identity have the bits of s for each chunk state s and for "
           "the identity itself",
           check_identity, identity_excluded},
          {"special_values",
           "each special value alone and each pair of them merged follow the exact reference's "
           "conventions; the claimed exact laws hold on them bit for bit",
           check_special_values, nothing_excluded, true},
          {"accuracy",
           "the left-to-right fold of the row, finalised, is within the declared tolerance of the "
           "exact reference",
           check_accuracy, nothing_excluded},
          {"associativity",
           "the row under the case's partition, chunk order and merge tree, finalised, is within "
           "the declared tolerance of the exact reference",
           check_associativity, nothing_excluded},
          {"cpu_model",
           "the case's schedule, its left-to-right fold and each of its chunks give the state and "
           "result bits of the declared CPU model (a device reduction's claim)",
           check_cpu_model, cpu_model_excluded},
      },
      kReductionLawNames, "reduction_laws()");
  return laws;
}

}  // namespace osvs
