// RapidCheck generators of regression records for the round-trip test: every field populated,
// floats drawn from all bit patterns and from the special values a file must carry exactly.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include <rapidcheck.h>

#include "osvs/kernels/dtype.h"
#include "osvs/replay/regression.h"

namespace osvs::testing {

inline float float_from_bits(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

/// Any float: half uniform bit patterns, half special and boundary values.
inline rc::Gen<float> any_float() {
  const float nan = float_from_bits(0x7fc00000u);
  const float negative_nan = float_from_bits(0xffc00000u);
  return rc::gen::oneOf(
      rc::gen::map(rc::gen::arbitrary<std::uint32_t>(), float_from_bits),
      rc::gen::element(0.0f, -0.0f, INFINITY, -INFINITY, nan, negative_nan,
                       float_from_bits(0x7fc00001u), float_from_bits(0xff800001u), FLT_MAX,
                       -FLT_MAX, FLT_MIN, std::numeric_limits<float>::denorm_min(),
                       -std::numeric_limits<float>::denorm_min(), float_from_bits(0x007fffffu)));
}

/// Any double: uniform bit patterns or specials.
inline rc::Gen<double> any_double() {
  return rc::gen::oneOf(
      rc::gen::map(rc::gen::arbitrary<std::uint64_t>(),
                   [](std::uint64_t u) {
                     double x;
                     std::memcpy(&x, &u, sizeof x);
                     return x;
                   }),
      rc::gen::element(0.0, -0.0, INFINITY, -INFINITY, std::numeric_limits<double>::quiet_NaN(),
                       DBL_MAX, std::numeric_limits<double>::denorm_min()));
}

/// Text with quotes, backslashes and control characters (JSON must escape them); ASCII only,
/// since JSON text is UTF-8.
inline rc::Gen<std::string> any_text() {
  return rc::gen::container<std::string>(rc::gen::inRange<char>(1, 127));
}

inline rc::Gen<std::vector<float>> any_floats() {
  return rc::gen::container<std::vector<float>>(any_float());
}

inline rc::Gen<State> any_state() {
  return rc::gen::build<State>(rc::gen::set(&State::m, any_float()),
                               rc::gen::set(&State::d, any_float()));
}

inline rc::Gen<HarnessCase> any_schedule() {
  return rc::gen::build<HarnessCase>(
      rc::gen::set(&HarnessCase::row, any_floats()),
      rc::gen::set(&HarnessCase::chunk_offsets, rc::gen::arbitrary<std::vector<std::int64_t>>()),
      rc::gen::set(&HarnessCase::slot_chunk, rc::gen::arbitrary<std::vector<std::int32_t>>()),
      rc::gen::set(&HarnessCase::merges,
                   rc::gen::container<std::vector<Merge>>(rc::gen::build<Merge>(
                       rc::gen::set(&Merge::dst, rc::gen::arbitrary<std::int32_t>()),
                       rc::gen::set(&Merge::src, rc::gen::arbitrary<std::int32_t>())))),
      rc::gen::set(&HarnessCase::root, rc::gen::arbitrary<std::int32_t>()));
}

/// x as a value of t, bits kept where they fit: rounded (round_to) if a number; a NaN's payload
/// cut to t's significand (which may leave an infinity: a value of t too).
inline float value_in(DType t, float x) {
  if (!std::isnan(x)) return round_to(t, x);
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return float_from_bits(u & ~((1u << (24 - precision_of(t))) - 1));
}

/// c with its states stored in t: every field made a value of t.
inline Case stored_in(Case c, DType t) {
  c.state_format = t;
  for (State& s : c.states) s = State{value_in(t, s.m), value_in(t, s.d)};
  return c;
}

inline rc::Gen<Case> any_float32_case() {
  return rc::gen::build<Case>(
      rc::gen::set(&Case::kernel, rc::gen::element(KernelKind::TwoPass, KernelKind::ThreePass)),
      rc::gen::set(&Case::combine, rc::gen::element(CombineKind::Seed, CombineKind::Hardened)),
      rc::gen::set(&Case::block, rc::gen::arbitrary<int>()),
      rc::gen::set(&Case::rows, rc::gen::container<std::vector<std::vector<float>>>(any_floats())),
      rc::gen::set(&Case::states, rc::gen::container<std::vector<State>>(any_state())),
      rc::gen::set(
          &Case::schedules,
          rc::gen::resize(8, rc::gen::container<std::vector<HarnessCase>>(any_schedule()))),
      rc::gen::set(&Case::permutation, rc::gen::arbitrary<std::vector<std::int64_t>>()),
      rc::gen::set(&Case::shift, any_float()),
      rc::gen::set(&Case::batch_position, rc::gen::arbitrary<std::int64_t>()),
      rc::gen::set(&Case::batch_rows, rc::gen::arbitrary<std::int64_t>()));
}

/// Any case, its states stored in f32, bf16 or fp16 (Case::state_format).
inline rc::Gen<Case> any_case() {
  return rc::gen::apply(stored_in, any_float32_case(),
                        rc::gen::element(DType::F32, DType::BF16, DType::F16));
}

inline rc::Gen<Verdict> any_verdict() {
  return rc::gen::build<Verdict>(
      rc::gen::set(&Verdict::status,
                   rc::gen::element(VerdictStatus::Holds, VerdictStatus::Fails,
                                    VerdictStatus::Vacuous, VerdictStatus::NotRun)),
      rc::gen::set(&Verdict::explanation, any_text()),
      rc::gen::set(&Verdict::evidence,
                   rc::gen::container<std::vector<Evidence>>(
                       rc::gen::build<Evidence>(rc::gen::set(&Evidence::what, any_text()),
                                                rc::gen::set(&Evidence::observed, any_double()),
                                                rc::gen::set(&Evidence::reference, any_double()),
                                                rc::gen::set(&Evidence::ulp_error, any_double()),
                                                rc::gen::set(&Evidence::bound, any_double())))));
}

inline rc::Gen<Provenance> any_provenance() {
  return rc::gen::build<Provenance>(
      rc::gen::set(&Provenance::osvs_commit, any_text()),
      rc::gen::set(&Provenance::date, any_text()), rc::gen::set(&Provenance::executor, any_text()),
      rc::gen::set(&Provenance::device, any_text()), rc::gen::set(&Provenance::nvcc, any_text()),
      rc::gen::set(&Provenance::rc_reproduce, any_text()),
      rc::gen::set(&Provenance::rc_seed, any_text()),
      rc::gen::set(&Provenance::found_by, any_text()),
      rc::gen::set(&Provenance::solver, any_text()),
      rc::gen::set(&Provenance::any_exp, rc::gen::arbitrary<bool>()));
}

/// A record with a non-empty property name (the reader refuses an empty one).
inline rc::Gen<RegressionRecord> any_record() {
  return rc::gen::build<RegressionRecord>(
      rc::gen::set(&RegressionRecord::property, rc::gen::nonEmpty(any_text())),
      rc::gen::set(&RegressionRecord::input, any_case()),
      rc::gen::set(&RegressionRecord::verdict, any_verdict()),
      rc::gen::set(&RegressionRecord::expectation,
                   rc::gen::element(Expectation::Holds, Expectation::Violates)),
      rc::gen::set(&RegressionRecord::needs_gpu, rc::gen::arbitrary<bool>()),
      rc::gen::set(&RegressionRecord::provenance, any_provenance()),
      rc::gen::set(&RegressionRecord::note, any_text()));
}

}  // namespace osvs::testing
