// The row loop of osvs's host row-wise kernels (builtin_softmax_backward.h,
// builtin_row_reductions.h): each row of a launch with every input row loaded as floats (a
// Column array once: it is every row's), handed to the op's row function, and every output row
// it fills (binary32 values) stored in the output's type; a Batch output is the caller's to
// store once, after the loop (store_batch_value).
#pragma once

#include <cstdint>
#include <vector>

#include "osvs/api/rowwise_kernel.h"

namespace osvs::builtin {

/// Calls row(in, out) for each row of p: in[a] holds input a's row (its width: cols, or 1 for a
/// target), out[b] has room for output b's row (its width: cols, 1 or k) and is stored after
/// the call (a Batch output's is not: store_batch_value).
template <class RowFn>
void for_each_host_row(const RowwiseProblem& p, const RowwiseSignature& sig, RowFn row) {
  const auto at = [](const auto& array, std::int64_t i) {
    return static_cast<const unsigned char*>(array.ptr) +
           static_cast<std::size_t>(i * array.stride) * size_of(array.type);
  };
  std::vector<std::vector<float>> in(p.inputs.size()), out(p.outputs.size());
  for (std::size_t a = 0; a < in.size(); ++a) {
    in[a].resize(static_cast<std::size_t>(sig.inputs[a].width(p.cols, p.k)));
    if (sig.inputs[a].extent == Extent::Column)
      load_from(p.inputs[a].type, at(p.inputs[a], 0), in[a].data(), p.cols);
  }
  for (std::size_t b = 0; b < out.size(); ++b)
    out[b].resize(static_cast<std::size_t>(sig.outputs[b].width(p.cols, p.k)));
  for (std::int64_t i = 0; i < p.rows; ++i) {
    for (std::size_t a = 0; a < in.size(); ++a)
      if (sig.inputs[a].extent != Extent::Column)
        load_from(p.inputs[a].type, at(p.inputs[a], i), in[a].data(),
                  static_cast<std::int64_t>(in[a].size()));
    row(in, out);
    for (std::size_t b = 0; b < out.size(); ++b)
      if (sig.outputs[b].extent != Extent::Batch)
        store_as(p.outputs[b].type, out[b].data(),
                 static_cast<unsigned char*>(p.outputs[b].ptr) +
                     static_cast<std::size_t>(i * p.outputs[b].stride) * size_of(p.outputs[b].type),
                 static_cast<std::int64_t>(out[b].size()));
  }
}

/// Stores a batch reduction's value (binary64, rounded through binary32 to the output's type)
/// into Batch output b of p.
inline void store_batch_value(const RowwiseProblem& p, std::size_t b, double value) {
  const auto v = static_cast<float>(value);
  store_as(p.outputs[b].type, &v, p.outputs[b].ptr, 1);
}

}  // namespace osvs::builtin
