// The row-wise kind's runner (osvs/api/rowwise_laws.h): every input laid out in its type at its
// row stride, every output between guard zones (guarded_output.h), one launch on the host or the
// device (launch_on_images), then the memory checks the other runners make. A batch
// reduction's output is one element whatever the rows, and its empty batch a launch of no rows.
#include <string>

#include "guarded_output.h"
#include "osvs/api/rowwise_laws.h"
#include "osvs/api/rowwise_ops.h"

namespace osvs {

bool runnable(const RowwiseKernel& k, std::string* why_not) {
  return k.where() == Where::Host || device_available(why_not);
}

namespace {

/// The launch of `rows` rows of `cols` elements (rows = 0: a batch reduction's empty batch).
RowwiseOutputs run_launch(const RowwiseKernel& k, const std::vector<Rows>& inputs,
                          std::int64_t rows, std::int64_t cols, const RowwiseParams& params,
                          const std::vector<std::int64_t>& pads) {
  const RowwiseSignature& sig = signature(k.op());
  const std::size_t n_in = sig.inputs.size(), n_out = sig.outputs.size();
  if (inputs.size() != n_in)
    throw std::invalid_argument(std::string(to_string(k.op())) + " takes " + std::to_string(n_in) +
                                " inputs, the batch has " + std::to_string(inputs.size()));
  if (!pads.empty() && pads.size() != n_in + n_out)
    throw std::invalid_argument("one row padding per array (" + std::to_string(n_in + n_out) +
                                "), not " + std::to_string(pads.size()));
  RowwiseProblem p;
  static_cast<RowwiseParams&>(p) = params;
  p.rows = rows;
  p.cols = cols;
  if (k.op() == RowwiseOp::TopK && (p.k < 1 || p.k > p.cols))
    throw std::invalid_argument("topk's k = " + std::to_string(p.k) + " outside 1 ... " +
                                std::to_string(p.cols) + " (the row's length)");
  if (reads_target(k.op()) && !(p.label_smoothing >= 0 && p.label_smoothing <= 1))
    throw std::invalid_argument("label_smoothing outside [0, 1]");
  if (p.cols > k.traits().max_cols)
    throw std::invalid_argument("rows of " + std::to_string(p.cols) + " elements exceed kernel '" +
                                k.name() + "''s max_cols " + std::to_string(k.traits().max_cols));
  const auto pad = [&](std::size_t a) -> std::int64_t {
    const std::int64_t v = pads.empty() ? 0 : pads[a];
    if (v < 0) throw std::invalid_argument("negative row padding");
    if (v > 0 && !k.traits().strided)
      throw std::invalid_argument("kernel '" + k.name() + "' does not declare strided rows");
    return v;
  };

  std::vector<std::vector<unsigned char>> images;
  for (std::size_t a = 0; a < n_in; ++a) {
    const std::string& name = sig.inputs[a].name;
    const bool shared = sig.inputs[a].extent == Extent::Column;
    if (static_cast<std::int64_t>(inputs[a].size()) != sig.inputs[a].rows_of(p.rows))
      throw std::invalid_argument("input " + name + " has another number of rows" +
                                  (shared ? " (one: it is every row's)" : ""));
    if (!sig.inputs[a].paddable() && pad(a) > 0)
      throw std::invalid_argument("input " + name + " is every row's (stride 0): no padding");
    const std::int64_t width = sig.inputs[a].width(p.cols, p.k);
    const std::int64_t stride = width + pad(a);
    images.push_back(input_rows_image(name, k.in_types()[a], inputs[a], width, stride));
    p.inputs.push_back({nullptr, k.in_types()[a], shared ? 0 : stride});
  }
  const std::vector<std::vector<unsigned char>> inputs_before(images.begin(), images.end());
  for (std::size_t b = 0; b < n_out; ++b) {
    const RowwiseArray& o = sig.outputs[b];
    if (!o.paddable() && pad(n_in + b) > 0)
      throw std::invalid_argument("output " + o.name + " is the batch's one value: no padding");
    const std::int64_t stride = o.paddable() ? o.width(p.cols, p.k) + pad(n_in + b) : 0;
    const std::int64_t elements = o.paddable() ? p.rows * stride : 1;
    images.push_back(guarded_output(k.out_types()[b], static_cast<std::size_t>(elements)));
    p.outputs.push_back({nullptr, k.out_types()[b], stride});
  }
  std::vector<std::vector<unsigned char>*> image_ptrs;
  for (auto& image : images) image_ptrs.push_back(&image);

  const std::string who = "kernel '" + k.name() + "' ";
  launch_on_images("kernel '" + k.name() + "'", k.where() == Where::Device, image_ptrs,
                   [&](const std::vector<unsigned char*>& at, void* stream) {
                     RowwiseProblem q = p;
                     for (std::size_t a = 0; a < n_in; ++a) q.inputs[a].ptr = at[a];
                     for (std::size_t b = 0; b < n_out; ++b)
                       q.outputs[b].ptr = at[n_in + b] + kGuardBytes;
                     q.stream = stream;
                     k(q);
                   });

  for (std::size_t a = 0; a < n_in; ++a)
    if (images[a] != inputs_before[a])
      throw KernelFailure(who + "modified its input " + sig.inputs[a].name);
  RowwiseOutputs out;
  out.rows = p.rows;
  out.cols = p.cols;
  for (std::size_t b = 0; b < n_out; ++b) {
    const auto& image = images[n_in + b];
    const DType t = p.outputs[b].type;
    const std::int64_t width = sig.outputs[b].width(p.cols, p.k);
    const std::int64_t rows_out = sig.outputs[b].rows_of(p.rows);
    const std::int64_t stride = sig.outputs[b].paddable() ? p.outputs[b].stride : width;
    check_guard_zones(who, sig.outputs[b].name.c_str(), t, image);
    check_rows_written(who, sig.outputs[b].name, t, image.data() + kGuardBytes, rows_out, width,
                       stride);
    std::vector<float> values(static_cast<std::size_t>(rows_out * width));
    for (std::int64_t i = 0; i < rows_out; ++i)
      load_from(t, image.data() + kGuardBytes + static_cast<std::size_t>(i * stride) * size_of(t),
                values.data() + i * width, width);
    out.widths.push_back(width);
    out.out.push_back(std::move(values));
  }
  return out;
}

}  // namespace

RowwiseOutputs run_rowwise_kernel(const RowwiseKernel& k, const std::vector<Rows>& inputs,
                                  const RowwiseParams& params,
                                  const std::vector<std::int64_t>& pads) {
  if (inputs.empty() || inputs[0].empty() || inputs[0][0].empty())
    throw std::invalid_argument(
        "a batch of no rows, or of empty rows (a batch reduction's empty "
        "batch: run_rowwise_empty_batch)");
  return run_launch(k, inputs, static_cast<std::int64_t>(inputs[0].size()),
                    static_cast<std::int64_t>(inputs[0][0].size()), params, pads);
}

RowwiseOutputs run_rowwise_empty_batch(const RowwiseKernel& k, std::int64_t cols,
                                       const RowwiseParams& params) {
  const RowwiseSignature& sig = signature(k.op());
  if (!reduces_batch(k.op()))
    throw std::invalid_argument(std::string(to_string(k.op())) +
                                " does not reduce the batch: a launch of no rows has no output");
  if (cols < 1 || cols > k.traits().max_cols)
    throw std::invalid_argument("an empty batch of rows of " + std::to_string(cols) +
                                " elements: 1 ... max_cols");
  std::vector<Rows> none(sig.inputs.size());  // no row of any input (the ops have no Column one)
  return run_launch(k, none, 0, cols, params, {});
}

}  // namespace osvs
