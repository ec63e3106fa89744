// What osvs found in cuDNN's softmax on the H200 (reports/gpu/2026-11-30-api/), declared on the
// kernels as known defects: the testbed then requires each finding to show again (a fixed cuDNN
// makes the declaration fail, and the finding is retired), and saves its shrunk case.
#pragma once

#include <osvs/osvs.h>

#include <string>

namespace example {

/// The conventions cuDNN follows and the findings of the mode `name` ("accurate.f32", ...).
osvs::RowKernel& cudnn_as_found(osvs::RowKernel& k, const std::string& name);

}  // namespace example
