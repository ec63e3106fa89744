#include "osvs/api/runner.h"

#include <cmath>
#include <cstring>
#include <exception>

#include "guarded_output.h"
#include "sentinel.h"

namespace osvs {
namespace {

/// The checks after a launch (see runner.h), in the order a user wants to hear them.
void check_memory(const RowKernel& k, const RowProblem& p, const std::vector<unsigned char>& x0,
                  const std::vector<unsigned char>& x, const std::vector<unsigned char>& y) {
  const std::string who = "kernel '" + k.name() + "' ";
  if (x != x0) throw KernelFailure(who + "modified its input x");
  const std::size_t es = size_of(p.y_type);
  const std::size_t body = y.size() - 2 * kGuardBytes;
  for (std::size_t b = 0; b < kGuardBytes; b += es)
    if (!is_sentinel(p.y_type, y.data() + b))
      throw KernelFailure(who + "wrote before its output (" + std::to_string(kGuardBytes - b) +
                          " bytes before y)");
  for (std::size_t b = 0; b < kGuardBytes; b += es)
    if (!is_sentinel(p.y_type, y.data() + kGuardBytes + body + b))
      throw KernelFailure(who + "wrote past the end of its output (" + std::to_string(b) +
                          " bytes after the last element)");
  check_rows_written(who, "y", p.y_type, y.data() + kGuardBytes, p.rows, p.cols, p.y_stride);
}

void run_on_host(const RowKernel& k, RowProblem p, std::vector<unsigned char>& x,
                 std::vector<unsigned char>& y) {
  p.x_ptr = x.data();
  p.y_ptr = y.data() + kGuardBytes;
  k(p);
}

}  // namespace

bool runnable(const RowKernel& k, std::string* why_not) {
  if (k.where() == Where::Host) return true;
  return device_available(why_not);
}

RowOutputs run_row_kernel(const RowKernel& k, const Rows& rows, Layout layout) {
  RowProblem p;
  p.rows = static_cast<std::int64_t>(rows.size());
  p.cols = rows.empty() ? 0 : static_cast<std::int64_t>(rows.front().size());
  p.x_type = k.in_type();
  p.y_type = k.out_type();
  if (layout.x_pad < 0 || layout.y_pad < 0) throw std::invalid_argument("negative row padding");
  if ((layout.x_pad || layout.y_pad) && !k.traits().strided)
    throw std::invalid_argument("kernel '" + k.name() + "' does not declare strided rows");
  if (p.cols > k.traits().max_cols)
    throw std::invalid_argument("rows of " + std::to_string(p.cols) + " elements exceed kernel '" +
                                k.name() + "''s max_cols " + std::to_string(k.traits().max_cols));
  p.x_stride = p.cols + layout.x_pad;
  p.y_stride = p.cols + layout.y_pad;

  // Input image: each row in the kernel's type, padding filled with NaN.
  std::vector<unsigned char> x = input_rows_image("x", p.x_type, rows, p.cols, p.x_stride);
  const std::vector<unsigned char> x0 = x;

  const std::size_t ys = size_of(p.y_type);
  std::vector<unsigned char> y(static_cast<std::size_t>(p.rows * p.y_stride) * ys +
                               2 * kGuardBytes);
  fill_sentinel(p.y_type, y.data(), y.size());

  try {
    if (k.where() == Where::Host)
      run_on_host(k, p, x, y);
    else
      detail::run_on_device("kernel '" + k.name() + "'", {&x, &y},
                            [&](const std::vector<unsigned char*>& image, void* stream) {
                              RowProblem q = p;
                              q.x_ptr = image[0];
                              q.y_ptr = image[1] + kGuardBytes;
                              q.stream = stream;
                              k(q);
                            });
  } catch (const KernelFailure&) {
    throw;
  } catch (const DeviceUnavailable&) {
    throw;
  } catch (const std::exception& e) {
    throw KernelFailure("kernel '" + k.name() + "' threw: " + e.what());
  } catch (...) {
    throw KernelFailure("kernel '" + k.name() + "' threw a non-standard exception");
  }
  check_memory(k, p, x0, x, y);

  RowOutputs out;
  out.rows = p.rows;
  out.cols = p.cols;
  out.y.resize(static_cast<std::size_t>(p.rows * p.cols));
  for (std::int64_t i = 0; i < p.rows; ++i)
    load_from(p.y_type, y.data() + kGuardBytes + static_cast<std::size_t>(i * p.y_stride) * ys,
              out.y.data() + i * p.cols, p.cols);
  return out;
}

}  // namespace osvs
