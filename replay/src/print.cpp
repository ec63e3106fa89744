// Readable printing of records and outcomes with fmt (header-only).
#include "osvs/replay/print.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "osvs/replay/hex_float.h"

namespace osvs {
namespace {

/// Rows longer than this print their first and last elements only.
constexpr std::size_t kShownElements = 16;

/// "0x1.8p+3 (12)": exact hex for copying, decimal (9 significant digits: round-trips a float) for
/// reading.
std::string hex_and_decimal(double x) {
  return fmt::format("{} ({:.9g})", format_hex_double(x), x);
}

std::string format_state(State s) {
  return fmt::format("(m {}, d {})", hex_and_decimal(s.m), hex_and_decimal(s.d));
}

void append_row(std::string& out, const std::string& label, const std::vector<float>& row) {
  fmt::format_to(std::back_inserter(out), "  {} ({} elements)\n", label, row.size());
  for (std::size_t j = 0; j < row.size(); ++j) {
    const bool shown = row.size() <= kShownElements || j < kShownElements / 2 ||
                       j >= row.size() - kShownElements / 2;
    if (shown)
      fmt::format_to(std::back_inserter(out), "    [{}] {}\n", j, hex_and_decimal(row[j]));
    else if (j == kShownElements / 2)
      fmt::format_to(std::back_inserter(out), "    ... {} more ...\n", row.size() - kShownElements);
  }
}

void append_schedule(std::string& out, std::size_t index, const HarnessCase& h) {
  fmt::format_to(std::back_inserter(out), "  schedule {}: chunk offsets [{}]\n", index,
                 fmt::join(h.chunk_offsets, ", "));
  fmt::format_to(std::back_inserter(out), "    slots start from chunks [{}]\n",
                 fmt::join(h.slot_chunk, ", "));
  for (const Merge& m : h.merges)
    fmt::format_to(std::back_inserter(out), "    slot[{}] = slot[{}] (+) slot[{}]\n", m.dst, m.dst,
                   m.src);
  fmt::format_to(std::back_inserter(out), "    result in slot[{}]\n", h.root);
}

void append_input(std::string& out, const Case& c) {
  fmt::format_to(std::back_inserter(out), "  kernel {}, combine {}, block {}{}\n",
                 to_string(c.kernel), to_string(c.combine), c.block,
                 c.mutant.empty() ? "" : fmt::format(", kernel mutation {}", c.mutant));
  for (std::size_t i = 0; i < c.rows.size(); ++i)
    append_row(out, fmt::format("row {}", i), c.rows[i]);
  if (c.state_format != DType::F32)
    fmt::format_to(std::back_inserter(out),
                   "  states stored in {}, the combine's arithmetic rounded to it\n",
                   to_string(c.state_format));
  for (std::size_t i = 0; i < c.states.size(); ++i)
    fmt::format_to(std::back_inserter(out), "  state {} = {}\n", i, format_state(c.states[i]));
  for (std::size_t i = 0; i < c.schedules.size(); ++i) append_schedule(out, i, c.schedules[i]);
  if (!c.permutation.empty())
    fmt::format_to(std::back_inserter(out), "  permutation [{}]\n", fmt::join(c.permutation, ", "));
  if (c.shift != 0.0f)
    fmt::format_to(std::back_inserter(out), "  shift {}\n", hex_and_decimal(c.shift));
  if (c.batch_rows != 1 || c.batch_position != 0)
    fmt::format_to(std::back_inserter(out), "  row 0 sits at position {} of a batch of {} rows\n",
                   c.batch_position, c.batch_rows);
}

const char* expectation_text(Expectation e) {
  return e == Expectation::Holds ? "holds (a fixed bug that must stay fixed)"
                                 : "violates (a documented defect that must still reproduce)";
}

}  // namespace

std::string format_evidence(const std::vector<Evidence>& evidence) {
  std::string out;
  for (const Evidence& e : evidence)
    fmt::format_to(std::back_inserter(out),
                   "    {}: observed {}, reference {}, error {:.6g} ulp, bound {:.6g} ulp{}\n",
                   e.what, hex_and_decimal(e.observed), hex_and_decimal(e.reference), e.ulp_error,
                   e.bound, e.ulp_error > e.bound ? "  <-- exceeds the bound" : "");
  return out;
}

std::string format_record(const RegressionRecord& r) {
  std::string out;
  fmt::format_to(std::back_inserter(out), "  property {}{}\n", r.property,
                 r.needs_gpu ? " (GPU only)" : "");
  append_input(out, r.input);
  fmt::format_to(std::back_inserter(out), "  expectation: {}\n", expectation_text(r.expectation));
  if (!r.note.empty()) fmt::format_to(std::back_inserter(out), "  note: {}\n", r.note);
  const Provenance& p = r.provenance;
  fmt::format_to(std::back_inserter(out), "  found {} by {} on {} ({}){}{}\n", p.date, p.found_by,
                 p.executor, p.device, p.nvcc.empty() ? "" : ", " + p.nvcc,
                 p.osvs_commit.empty() ? "" : ", commit " + p.osvs_commit);
  if (!p.rc_reproduce.empty() || !p.rc_seed.empty())
    fmt::format_to(std::back_inserter(out), "  rapidcheck seed {} reproduce {}\n", p.rc_seed,
                   p.rc_reproduce);
  fmt::format_to(std::back_inserter(out), "  when found: {}{}\n",
                 r.verdict.holds()   ? "held"
                 : r.verdict.fails() ? "failed"
                                     : to_string(r.verdict.status),
                 r.verdict.explanation.empty() ? "" : ": " + r.verdict.explanation);
  out += format_evidence(r.verdict.evidence);
  return out;
}

std::string format_outcome(const ReplayOutcome& o) {
  std::string out = fmt::format("{}\n", o.file.string());
  if (o.record) out += format_record(*o.record);
  if (o.verdict) {
    fmt::format_to(std::back_inserter(out), "  now: {}{}\n", to_string(o.verdict->status),
                   o.verdict->explanation.empty() ? "" : ": " + o.verdict->explanation);
    out += format_evidence(o.verdict->evidence);
  }
  fmt::format_to(std::back_inserter(out), "  => {}{}\n", to_string(o.status),
                 o.message.empty() ? "" : ": " + o.message);
  return out;
}

std::string format_summary(const ReplaySummary& s) {
  return fmt::format("{} met, {} stale, {} regressed, {} skipped, {} errors: {}", s.met, s.stale,
                     s.regressed, s.skipped, s.errors,
                     s.all_acceptable() ? "every expectation met" : "EXPECTATIONS NOT MET");
}

}  // namespace osvs
