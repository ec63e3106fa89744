// The attention merge of two (lse, o) partials (merge_states.h, MergeAsWritten or a planted
// policy) as an operator formal/'s laws take, for head_dim 1.
//
// One component of o is the whole algebra: every component of a row runs the same merge_lse and
// its own merge_o, which reads no other component (merge_model.h, and the device kernel's one
// thread per component), so a law of one component is the law of every component. In float32
// (the kernels' merge) o is float32 (DType::F32); with bf16 / fp16 o the CPU model and the kernel
// round the same float result to the o type (round_attn), which keeps commutativity, and keeps
// identity for an o that is a value of its type (exact), but that rounding is not part of the
// proofs. In a bf16 / fp16 proof (formal/README.md, "bf16 and fp16 states") both lse and o are
// stored in the format and every step of the merge rounds to it: a merge that computes in the
// format, which no kernel of kernels/ is yet.
//
// The state (lse, o_0) is carried in the laws' two-float State (m holds lse, d holds o_0), so that
// prove.h's queries, domains and counterexamples serve it unchanged; the domain `partial`
// (domain.h) reads it so.
//
//   symbolic   combine(SymState, SymState) runs merge_lse and merge_o, the kernels' own source,
//              over formal/'s Sym (its exp and log uninterpreted: exp_facts.h, log_facts.h), in
//              the proof's format
//   concrete   float32: combine(State, State) is the CPU model itself (merge_states_model_with) on
//              one row of head_dim 1, so that a counterexample is replayed where the kernel is
//              modelled; bf16 / fp16: the same template as the symbolic side over kernels'
//              NarrowState (narrow_float.h: each operation rounded once to the format, the
//              host's exp and log rounded to it)
//
// The laws are the ones merge_states.h and docs/semantics.md §8 state as exact (bitwise):
// commutativity, and identity on either side for the empty partial (lse = -inf) whatever its o
// holds (its o is never read); two empty partials give the documented empty result (-inf, +0).
#pragma once

#include "osvs/formal/sym_ops.h"
#include "osvs/formal/sym_state.h"
#include "osvs/kernels/attention/merge_model.h"

namespace osvs::formal {

template <LseBase kBase, class Policy = MergeAsWritten>
struct AttentionMergeOf {
  static constexpr const char* kName =
      kBase == LseBase::E ? "attention_merge" : "attention_merge_base2";
  static constexpr bool kBitwiseCommutative = true;  // merge_states.h, "Exact laws"
  static constexpr bool kExactIdentity = true;

  /// The documented empty result (lse = -inf, o = +0): what empty (+) empty must give.
  static State initial() { return {-__builtin_huge_valf(), 0.0f}; }
  /// The empty partial whose o is `free`'s: the identity is every such partial.
  template <class S>
  static S identity_from(const S& free) {
    return S{-__builtin_huge_valf(), free.d};
  }

  /// S is SymState (the proof) or kernels' NarrowState (a bf16 / fp16 partial, every operation
  /// rounded to the format: a narrow counterexample's concrete side): merge_lse and merge_o over
  /// S's scalar, the kernels' own source.
  template <class S>
  static S combine(const S& a, const S& b) {
    const auto m = merge_lse<Policy>(a.m, b.m, kBase);
    return {m.lse, merge_o<Policy>(m, a.d, b.d)};
  }
  /// float32: the CPU model itself, so that a counterexample is replayed where the kernel is
  /// modelled (the same source with F = float, o rounded to DType::F32: exact).
  static State combine(State a, State b) {
    const auto partial = [](State s) { return AttnStates{1, 1, DType::F32, {s.m}, {s.d}}; };
    const AttnStates out = merge_states_model_with<Policy>(partial(a), partial(b), kBase);
    return {out.lse.front(), out.o.front()};
  }
};

using AttentionMerge = AttentionMergeOf<LseBase::E>;
using AttentionMergeBase2 = AttentionMergeOf<LseBase::Two>;

}  // namespace osvs::formal
