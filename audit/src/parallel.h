// The audit's parallel loops: osvs/kernels/parallel_for.h, under the audit's namespace.
#pragma once

#include "osvs/kernels/parallel_for.h"

namespace osvs::audit {

using osvs::index_loop_on;
using osvs::parallel_for;
using osvs::worker_count;

}  // namespace osvs::audit
