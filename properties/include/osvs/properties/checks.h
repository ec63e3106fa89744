// The property functions: each takes a Case and an Executor and returns a Verdict. RapidCheck, the
// fuzz harnesses, the replay test and the audit only drive them (registry.h names them).
#pragma once

#include "osvs/kernels/executor.h"
#include "osvs/properties/case.h"
#include "osvs/properties/verdict.h"

namespace osvs {

// --- combine level (Case::states, Case::combine)

/// s (+) (-inf, 0) == s bitwise for every state s of c.states.
Verdict check_identity_right(const Case& c, Executor& ex);
/// (-inf, 0) (+) s == s bitwise for every state s of c.states.
Verdict check_identity_left(const Case& c, Executor& ex);
/// s (+) (-FLT_MAX, 0) == s == (-FLT_MAX, 0) (+) s bitwise for every s of c.states with finite m.
Verdict check_finite_identity(const Case& c, Executor& ex);
/// a (+) b == b (+) a bitwise for the pairs (states[2i], states[2i+1]).
Verdict check_commutativity(const Case& c, Executor& ex);
/// The warp's shuffle tree over the 32 chunk states of schedules[0] on rows[0]: m exact, d within
/// the harness bound of the oracle's d.
Verdict check_warp_reduce(const Case& c, Executor& ex);
/// Two schedules (partition, order, tree) of rows[0]: each root has m exact and d within its
/// harness bound of the oracle's d. Evidence "roots differ bitwise" records the spread.
Verdict check_tree_invariance(const Case& c, Executor& ex);

// --- softmax level (Case::rows as one batch, Case::kernel/combine/block)

/// Every output of every finite row within softmax_bound ulps of the correctly rounded reference.
Verdict check_softmax_accuracy(const Case& c, Executor& ex);
/// |sum of a finite row's outputs - 1| within the sum of the per-element bounds.
Verdict check_softmax_sum(const Case& c, Executor& ex);
/// Every output of a finite row lies in [0, 1].
Verdict check_softmax_range(const Case& c, Executor& ex);
/// softmax(x permuted) == softmax(x) permuted, within the two rows' bounds.
Verdict check_permutation_equivariance(const Case& c, Executor& ex);
/// softmax(x + c) == softmax(x) bitwise, d bitwise equal and m moved to m + c, for a shift c that
/// is exact on every element (vacuous otherwise, and for rows with NaN or +inf).
Verdict check_shift_invariance(const Case& c, Executor& ex);
/// rows[0]'s outputs and state alone are bitwise those it gets at batch_position of batch_rows.
Verdict check_batch_invariance(const Case& c, Executor& ex);
/// Two launches of the same batch give bitwise the same outputs and states. Not run on the CPU
/// model (a pure function of the batch: it would compare the model with itself).
Verdict check_determinism(const Case& c, Executor& ex);
/// The spec's special rows: NaN -> NaN, +inf -> NaN, all -inf -> the kernel's documented value,
/// N = 0 -> no output and the initial state, finite rows with subnormals or FLT_MAX within bound.
Verdict check_special_values(const Case& c, Executor& ex);
/// The executor's outputs equal the CPU model's bitwise (portable exp), else both within bound.
/// Not run on the CPU model itself (no second party).
Verdict check_executor_agreement(const Case& c, Executor& ex);

}  // namespace osvs
