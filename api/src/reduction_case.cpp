// The reduction kind's case (a row and a schedule of it), its summaries, and the runner that
// hands schedules to a reduction kernel (on the host, or through reduction_device_runner.h on
// the device) and checks what it wrote (osvs/api/reduction_laws.h).
#include <algorithm>
#include <sstream>
#include <string>

#include "guarded_output.h"
#include "osvs/api/kind.h"
#include "osvs/api/runner.h"
#include "reduction_device_runner.h"

namespace osvs {

std::string schedule_problem(const HarnessCase& h) {
  const auto n = static_cast<std::int64_t>(h.row.size());
  if (h.chunk_offsets.size() < 2 || h.chunk_offsets.front() != 0 || h.chunk_offsets.back() != n)
    return "chunk offsets must run from 0 to the row's length " + std::to_string(n);
  if (!std::is_sorted(h.chunk_offsets.begin(), h.chunk_offsets.end()))
    return "chunk offsets must not decrease";
  const auto chunks = static_cast<std::int32_t>(h.chunk_offsets.size() - 1);
  const auto slots = static_cast<std::int32_t>(h.slot_chunk.size());
  for (std::int32_t c : h.slot_chunk)
    if (c < 0 || c >= chunks)
      return "a slot names chunk " + std::to_string(c) + " of " + std::to_string(chunks);
  for (const Merge& m : h.merges)
    if (m.dst < 0 || m.dst >= slots || m.src < 0 || m.src >= slots || m.dst == m.src)
      return "a merge names slots " + std::to_string(m.dst) + " <- " + std::to_string(m.src) +
             " of " + std::to_string(slots);
  if (h.root < 0 || h.root >= slots) return "the root names no slot";
  return "";
}

int schedule_depth(const HarnessCase& h) {
  std::vector<int> depth;
  for (std::int32_t c : h.slot_chunk)
    depth.push_back(static_cast<int>(h.chunk_offsets[static_cast<std::size_t>(c) + 1] -
                                     h.chunk_offsets[static_cast<std::size_t>(c)]));
  for (const Merge& m : h.merges)
    depth[static_cast<std::size_t>(m.dst)] =
        std::max(depth[static_cast<std::size_t>(m.dst)], depth[static_cast<std::size_t>(m.src)]) +
        1;
  return depth.empty() ? 0 : depth[static_cast<std::size_t>(h.root)];
}

HarnessCase whole_row_schedule(std::vector<float> row) {
  HarnessCase out;
  out.chunk_offsets = {0, static_cast<std::int64_t>(row.size())};
  out.row = std::move(row);
  out.slot_chunk = {0};
  out.root = 0;
  return out;
}

HarnessCase chunk_schedule(const HarnessCase& h, std::size_t i) {
  return whole_row_schedule(std::vector<float>(h.row.begin() + h.chunk_offsets[i],
                                               h.row.begin() + h.chunk_offsets[i + 1]));
}

std::string case_summary(const ReductionCase& c) {
  const HarnessCase& h = c.schedule;
  std::ostringstream s;
  s << h.row.size() << " element(s) in " << (h.chunk_offsets.size() - 1) << " chunk(s), "
    << h.merges.size() << " merge(s), depth " << schedule_depth(h);
  return s.str();
}

std::string kernel_summary(const ReductionKernel& k) {
  std::ostringstream s;
  const auto list = [&s](const std::vector<FieldSpec>& fs) {
    for (std::size_t i = 0; i < fs.size(); ++i)
      s << (i ? ", " : "") << fs[i].name << " " << to_string(fs[i].type);
  };
  s << "state reduction on " << to_string(k.where()) << ", state (";
  list(k.state_fields());
  s << ") -> result (";
  list(k.result_fields());
  s << "), claims" << (k.bitwise_commutative() ? " bitwise commutativity" : "")
    << (k.exact_identity() ? " exact identity" : "")
    << (!k.bitwise_commutative() && !k.exact_identity() ? " no exact law" : "")
    << ", domain |x| <= " << readable(k.max_abs()) << ", "
    << (k.has_tolerance() ? "tolerance derived in " + k.bound_derivation() : "exact results");
  return s.str();
}

bool runnable(const ReductionKernel& k, std::string* why_not) {
  return k.where() == Where::Host || device_available(why_not);
}

ReductionOutputs run_reduction_kernel(const ReductionKernel& k,
                                      const std::vector<HarnessCase>& schedules) {
  for (const HarnessCase& h : schedules)
    if (const std::string why = schedule_problem(h); !why.empty())
      throw std::invalid_argument("reduction schedule: " + why);
  std::vector<std::uint64_t> states, results;
  ReductionProblem p;
  p.schedules = &schedules;
  p.states = &states;
  p.results = &results;
  // What the kernel throws is named as every runner names it (guarded_output.h); the device
  // half launches through the same function.
  if (k.where() == Where::Host)
    launch_on_images("reduction '" + k.name() + "'", false, {},
                     [&](const std::vector<unsigned char*>&, void*) { k(p); });
  else if (!schedules.empty())
    run_reduction_on_device(k, schedules, states, results);
  const std::size_t ns = k.state_fields().size(), nr = k.result_fields().size();
  if (states.size() != schedules.size() * ns || results.size() != schedules.size() * nr)
    throw KernelFailure("reduction '" + k.name() + "' wrote " + std::to_string(states.size()) +
                        " state and " + std::to_string(results.size()) + " result fields for " +
                        std::to_string(schedules.size()) + " schedules of " + std::to_string(ns) +
                        " and " + std::to_string(nr));
  ReductionOutputs out;
  for (std::size_t i = 0; i < schedules.size(); ++i) {
    out.states.emplace_back(states.begin() + static_cast<std::ptrdiff_t>(i * ns),
                            states.begin() + static_cast<std::ptrdiff_t>((i + 1) * ns));
    out.results.emplace_back(results.begin() + static_cast<std::ptrdiff_t>(i * nr),
                             results.begin() + static_cast<std::ptrdiff_t>((i + 1) * nr));
  }
  return out;
}

}  // namespace osvs
