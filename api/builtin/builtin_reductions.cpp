// osvs's own state reductions registered through the public API (builtin_reductions.h).
#include "builtin_reductions.h"

OSVS_REGISTER_REDUCTION(osvs_logsumexp) {
  return osvs::builtin::logsumexp_kernel<osvs::builtin::LogsumexpReduction>("osvs.logsumexp");
}

OSVS_REGISTER_REDUCTION(osvs_welford) {
  return osvs::builtin::welford_kernel<osvs::builtin::WelfordReduction>("osvs.welford");
}
