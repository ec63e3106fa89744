// osvs's own combine operators and mutants, as registry entries (combine_kind.h names them).
// Compiled by nvcc in a CUDA build, so that each entry carries its device launchers; by the host
// compiler otherwise (host orders only). The mutants' defects are the words of combine_mutants.h.
#include "osvs/kernels/combine_entry.h"

namespace osvs::builtin_combine {

constexpr CombineOperator seed =
    combine_operator<SeedCombine, true>(OSVS_COMBINE_DEVICE_OPS(SeedCombine, true));
constexpr CombineOperator hardened =
    combine_operator<HardenedCombine>(OSVS_COMBINE_DEVICE_OPS(HardenedCombine, false));

constexpr CombineOperator overwrite_m = combine_operator<MutantOverwriteM>(
    OSVS_COMBINE_DEVICE_OPS(MutantOverwriteM, false), &seed,
    "m overwritten before d is rescaled: the rescale factor of d1 becomes exp(0) = 1");
constexpr CombineOperator no_rescale = combine_operator<MutantNoRescale>(
    OSVS_COMBINE_DEVICE_OPS(MutantNoRescale, false), &seed, "d never rescaled: d = d1 + d2");
constexpr CombineOperator naive_identity = combine_operator<MutantNaiveIdentity>(
    OSVS_COMBINE_DEVICE_OPS(MutantNaiveIdentity, false), &seed,
    "initial state (-inf, 0) with the unguarded formula: -inf - -inf = NaN");
constexpr CombineOperator unordered_ties = combine_operator<MutantUnorderedTies>(
    OSVS_COMBINE_DEVICE_OPS(MutantUnorderedTies, false), &hardened,
    "hardened combine without its tie rule: the first operand's m on ties (+0 vs -0)");
constexpr CombineOperator fast_exp =
    combine_operator<MutantFastExp>(OSVS_COMBINE_DEVICE_OPS(MutantFastExp, false), &hardened,
                                    "__expf instead of expf (error grows with |x - m|)");

}  // namespace osvs::builtin_combine
