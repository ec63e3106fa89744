// The kinds of kernels under test. Each kind is a problem type K, and everything that runs,
// records, replays and reports laws is written once over K (regression.h; the testbed's
// law_run.h and kind_tests.h; the Python bindings' py_kind_checks.h):
//   K::Kernel    the declaration a user registers (RowKernel, MergeKernel)
//   K::Case      the values a law is judged on (RowCase, MergeCase)
//   K::Law       a law: name (the one name in C++, Python, files and docs), law (a sentence)
//   K::name      the kind in messages and regression files ("row", "merge")
//   laws(), find_law(name)              every law of the kind, cheapest first
//   kernels(), find_kernel(name)        the registry's entries of the kind
//   check(law, k, c)                    the verdict; a breach the runner reports fails the law
//   excluded(law, k)                    why k's declaration rules the law out, "" when it runs
//   single_case(law)                    the law has one fixed case per kernel
//   summary(c)                          a case's shape in a line (case_summary)
//   describe(k)                         a kernel's declaration in a line or more (--osvs-list)
//   test_prefix                         what the testbed's test suites of the kind start with
// Kind<...> below makes a kind of these from its laws' table: one line a kind, and one more in
// for_each_kind, the one list of kinds (the testbed, the plugins, the regression files and the
// Python bindings go through it and name no kind).
// Each kind also has its case's JSON (api/src/case_json.h) and, in the testbed, its case
// generator and its reductions (api/testbed/kind_cases.h). A new kind is these, its laws
// and its oracle: nothing else.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "osvs/api/attention_laws.h"
#include "osvs/api/combine_laws.h"
#include "osvs/api/merge_laws.h"
#include "osvs/api/merge_runner.h"
#include "osvs/api/reduction_laws.h"
#include "osvs/api/registry.h"
#include "osvs/api/row_laws.h"
#include "osvs/api/rowwise_laws.h"
#include "osvs/kernels/find_by_name.h"

namespace osvs {

/// A case's shape in a line: "2 row(s) of 17 elements, padding 1/0".
std::string case_summary(const RowCase& c);
/// "3 partials of 2 row(s) x head_dim 4, bf16, base e".
std::string case_summary(const MergeCase& c);

/// "2 sequence(s) (q x k: 3x5, 1x7), 4 q heads / 2 kv heads, head_dim 8, bf16, causal".
std::string case_summary(const AttentionCase& c);

/// The shape class of an attention case: what it is made of, without its sizes and values
/// ("several sequences, prefill, GQA, bf16, causal bottom-right, paged, softcap"): one sequence
/// or several, whether every query is a decode step (q_len 1), whether a sequence has no key,
/// MHA / GQA / MQA, whether v's head_dim differs from q/k's, the input type, the mask and its
/// alignment, paging and the modifiers (head counts, head_dims, lengths and page sizes are
/// sizes, not classes). The law runs count the classes they judged (LawRun::shape_classes),
/// which the determinism certificate reports beside the cases.
std::string shape_class(const AttentionCase& c);

/// "13 elements in 3 chunks, depth 6".
std::string case_summary(const ReductionCase& c);

/// "2 row(s) of 17 elements, 2 inputs".
std::string case_summary(const RowwiseCase& c);

/// A row kernel's declaration: its op, types, where it runs, its contract, then a line for each
/// of its layouts' lengths.
std::string kernel_summary(const RowKernel& k);
/// A merge kernel's declaration: o types, lse bases, empty partial, layouts, head_dims.
std::string kernel_summary(const MergeKernel& k);
/// An attention kernel's declaration: types, masks, gqa, varlen, pages, lse.
std::string kernel_summary(const AttentionKernel& k);
/// A state reduction's declaration: its state and result fields, claims, domain, bound.
std::string kernel_summary(const ReductionKernel& k);
/// A row-wise kernel's declaration: its op, its arrays' types, where it runs, its contract.
std::string kernel_summary(const RowwiseKernel& k);

/// A string literal as a template argument: a kind's name and test prefix (Kind<"row", "", ...>).
template <std::size_t N>
struct KindText {
  char text[N];
  constexpr KindText(const char (&s)[N]) {  // (implicit: the literal is the argument)
    for (std::size_t i = 0; i < N; ++i) text[i] = s[i];
  }
};

/// A kind: its name, its kernel declaration (its registry is registry.h's for that type), its
/// case and its law (a struct with name, law, check(kernel, case), excluded(kernel) and
/// single_case), and its laws.
template <KindText Name, KindText TestPrefix, class KernelT, class CaseT, class LawT,
          const std::vector<LawT>& (*Laws)()>
struct Kind {
  using Kernel = KernelT;
  using Case = CaseT;
  using Law = LawT;
  static constexpr const char* name = Name.text;
  static constexpr const char* test_prefix = TestPrefix.text;
  static const std::vector<Law>& laws() { return Laws(); }
  static const Law* find_law(std::string_view n) { return find_named(Laws(), n); }
  static const std::vector<Kernel>& kernels() { return registered<Kernel>(); }
  static const Kernel* find_kernel(std::string_view n) { return find_registered<Kernel>(n); }
  /// The law's verdict on c; a breach the runner reports (KernelFailure) fails the law.
  static Verdict check(const Law& law, const Kernel& k, const Case& c) {
    try {
      return law.check(k, c);
    } catch (const KernelFailure& e) {
      return Verdict::fail(e.what());
    }
  }
  static std::string excluded(const Law& law, const Kernel& k) { return law.excluded(k); }
  static bool single_case(const Law& law) { return law.single_case; }
  static std::string summary(const Case& c) { return case_summary(c); }
  static std::string describe(const Kernel& k) { return kernel_summary(k); }
};

// (row kernels' suites are their names: the first kind has no prefix)
using RowKind = Kind<"row", "", RowKernel, RowCase, RowLaw, &row_laws>;
using MergeKind = Kind<"merge", "merge_", MergeKernel, MergeCase, MergeLaw, &merge_laws>;
using AttentionKind =
    Kind<"attention", "attention_", AttentionKernel, AttentionCase, AttentionLaw, &attention_laws>;
using ReductionKind =
    Kind<"reduction", "reduction_", ReductionKernel, ReductionCase, ReductionLaw, &reduction_laws>;
using RowwiseKind =
    Kind<"rowwise", "rowwise_", RowwiseKernel, RowwiseCase, RowwiseLaw, &rowwise_laws>;
/// (CombineKind is the operator's handle, kernels/combine_kind.h: the kind is the operators'.)
using CombineOperatorKind =
    Kind<"combine", "combine_", CombineKernel, CombineCase, CombineLaw, &combine_operator_laws>;

/// f(K{}) for every kind K: the one list of kinds (files, programs and bindings that meet a kind
/// by name go through it). constexpr: the plugins' layout tag is computed over it.
template <class F>
constexpr void for_each_kind(F&& f) {
  f(RowKind{});
  f(MergeKind{});
  f(AttentionKind{});
  f(ReductionKind{});
  f(RowwiseKind{});
  f(CombineOperatorKind{});
}

/// f(K{}) for the kind K named `name`; std::invalid_argument naming the kinds for another name.
template <class F>
auto visit_kind(std::string_view name, F&& f) {
  std::optional<decltype(f(RowKind{}))> out;
  std::string names;
  for_each_kind([&](auto kind) {
    names += (names.empty() ? "" : ", ") + std::string(decltype(kind)::name);
    if (!out && name == decltype(kind)::name) out.emplace(f(kind));
  });
  if (!out)
    throw std::invalid_argument("no kind of kernel named '" + std::string(name) + "' (" + names +
                                ")");
  return std::move(*out);
}

/// Why `law` is left out for `k`, or "" when it runs: a declared skip, a law the declaration
/// rules out, a kernel that cannot run in this process.
template <class K>
std::string why_skipped(const typename K::Kernel& k, const typename K::Law& law) {
  if (auto it = k.skips().find(law.name); it != k.skips().end())
    return k.name() + " declares: " + it->second;
  if (std::string why = K::excluded(law, k); !why.empty()) return why;
  std::string why;
  if (!runnable(k, &why)) return why;
  return "";
}

}  // namespace osvs
