// MPFR keeps per-thread caches (constants such as log 2) that it frees only when asked; a worker
// thread that used MPFR would leak them at its exit. The first MPFR call of each thread arms this
// guard, which frees the thread's caches when the thread ends. Shared by the oracle's MPFR path and
// the exhaustive exp measurement (exhaustive/).
#pragma once

#include <mpfr.h>

namespace osvs::oracle::detail {

struct MpfrThreadCaches {
  ~MpfrThreadCaches() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
};

inline void free_mpfr_caches_at_thread_exit() {
  thread_local MpfrThreadCaches guard;
  (void)guard;
}

}  // namespace osvs::oracle::detail
