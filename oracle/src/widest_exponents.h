// MPFR's widest exponent range while an exact reference runs (the softmax backward references
// and the row reductions'), so no intermediate of theirs overflows or underflows short of it.
#pragma once

#include <mpfr.h>

#include "mpfr_thread_caches.h"

namespace osvs::oracle::detail {

/// MPFR's widest exponent range while a reference runs; the caller's restored after.
class WidestExponents {
 public:
  WidestExponents() : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()) {
    free_mpfr_caches_at_thread_exit();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
  }
  ~WidestExponents() {
    mpfr_set_emin(emin_);
    mpfr_set_emax(emax_);
  }
  WidestExponents(const WidestExponents&) = delete;
  WidestExponents& operator=(const WidestExponents&) = delete;

 private:
  mpfr_exp_t emin_, emax_;
};

}  // namespace osvs::oracle::detail
