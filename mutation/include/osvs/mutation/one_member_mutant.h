// How a mutant policy that changes one constant is declared: the original policy (a struct of
// `static constexpr` members the kernel templates read) with that one member set to another value.
// The schedule mutants (block_schedule_mutants.h, fast_schedule_mutants.h), the row reduction
// mutants (row_reduction_mutant_policies.h) and the attention kernels' mutants (api/tests/) are
// declared so; a mutant that changes a type or a function is a struct of its own.
#pragma once

/// OSVS_ONE_MEMBER_MUTANT(Name, Original, member, value): the policy `Name`, which is `Original`
/// with its member `member` set to `value`. The member must be one of Original's (a misspelt one
/// would otherwise add a member no kernel reads, and the mutant would be the original), it keeps
/// its type, and its value must change.
#define OSVS_ONE_MEMBER_MUTANT(Name, Original, member, value)   \
  struct Name : Original {                                      \
    static constexpr decltype(Original::member) member = value; \
  };                                                            \
  static_assert(Name::member != Original::member, #Name " must change " #member " of " #Original)
