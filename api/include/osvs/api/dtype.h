// Element types of the public API: osvs/kernels/dtype.h (the conversions live with the kernels,
// the lowest layer, so that generators, the fuzz decoder and the runner share one of each).
#pragma once

#include "osvs/kernels/dtype.h"
