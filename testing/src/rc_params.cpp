#include "osvs/testing/rc_params.h"

#include <cstdlib>

namespace osvs::testing {

void use_rc_params_unless_set(const char* params) {
  setenv("RC_PARAMS", params, /*overwrite=*/0);
}

}  // namespace osvs::testing
