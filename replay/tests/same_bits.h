// Field-by-field, bit-by-bit comparison of records for the round-trip test (NaN payloads
// included: files keep them).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "osvs/replay/regression.h"

namespace osvs::testing {

inline bool same_bits(float a, float b) {
  std::uint32_t ua, ub;
  std::memcpy(&ua, &a, sizeof a);
  std::memcpy(&ub, &b, sizeof b);
  return ua == ub;
}

inline bool same_bits(double a, double b) {
  std::uint64_t ua, ub;
  std::memcpy(&ua, &a, sizeof a);
  std::memcpy(&ub, &b, sizeof b);
  return ua == ub;
}

template <class T, class Eq>
bool same_elements(const std::vector<T>& a, const std::vector<T>& b, Eq eq) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!eq(a[i], b[i])) return false;
  return true;
}

inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return same_elements(a, b, [](float x, float y) { return same_bits(x, y); });
}

inline bool same_bits(const State& a, const State& b) {
  return same_bits(a.m, b.m) && same_bits(a.d, b.d);
}

inline bool same_bits(const HarnessCase& a, const HarnessCase& b) {
  return same_bits(a.row, b.row) && a.chunk_offsets == b.chunk_offsets &&
         a.slot_chunk == b.slot_chunk &&
         same_elements(a.merges, b.merges,
                       [](Merge x, Merge y) { return x.dst == y.dst && x.src == y.src; }) &&
         a.root == b.root;
}

inline bool same_bits(const Case& a, const Case& b) {
  return a.kernel == b.kernel && a.combine == b.combine && a.block == b.block &&
         same_elements(a.rows, b.rows,
                       [](const auto& x, const auto& y) { return same_bits(x, y); }) &&
         same_elements(a.states, b.states, [](State x, State y) { return same_bits(x, y); }) &&
         a.state_format == b.state_format &&
         same_elements(a.schedules, b.schedules,
                       [](const auto& x, const auto& y) { return same_bits(x, y); }) &&
         a.permutation == b.permutation && same_bits(a.shift, b.shift) &&
         a.batch_position == b.batch_position && a.batch_rows == b.batch_rows;
}

inline bool same_bits(const Evidence& a, const Evidence& b) {
  return a.what == b.what && same_bits(a.observed, b.observed) &&
         same_bits(a.reference, b.reference) && same_bits(a.ulp_error, b.ulp_error) &&
         same_bits(a.bound, b.bound);
}

inline bool same_bits(const Verdict& a, const Verdict& b) {
  return a.status == b.status && a.explanation == b.explanation &&
         same_elements(a.evidence, b.evidence,
                       [](const auto& x, const auto& y) { return same_bits(x, y); });
}

inline bool same_bits(const Provenance& a, const Provenance& b) {
  return a.osvs_commit == b.osvs_commit && a.date == b.date && a.executor == b.executor &&
         a.device == b.device && a.nvcc == b.nvcc && a.rc_reproduce == b.rc_reproduce &&
         a.rc_seed == b.rc_seed && a.found_by == b.found_by && a.solver == b.solver &&
         a.any_exp == b.any_exp;
}

inline bool same_bits(const RegressionRecord& a, const RegressionRecord& b) {
  return a.property == b.property && same_bits(a.input, b.input) &&
         same_bits(a.verdict, b.verdict) && a.expectation == b.expectation &&
         a.needs_gpu == b.needs_gpu && same_bits(a.provenance, b.provenance) && a.note == b.note;
}

}  // namespace osvs::testing
