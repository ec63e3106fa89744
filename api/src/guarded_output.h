// What the merge and attention runners share: an output image (its elements between two guard
// zones, all holding the sentinel, sentinel.h), the check of those zones after the launch, and
// the launch itself on the host or the device with what the kernel throws named.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "osvs/api/runner.h"  // KernelFailure
#include "sentinel.h"

namespace osvs {

/// n elements of type t between two guard zones of kGuardBytes, all holding the sentinel.
inline std::vector<unsigned char> guarded_output(DType t, std::size_t n) {
  std::vector<unsigned char> out(n * size_of(t) + 2 * kGuardBytes);
  fill_sentinel(t, out.data(), out.size());
  return out;
}

/// Throws KernelFailure naming `who` and the output `what` when the kernel wrote into a guard
/// zone of `image` (made by guarded_output), and how far from the output.
inline void check_guard_zones(const std::string& who, const char* what, DType t,
                              const std::vector<unsigned char>& image) {
  const std::size_t es = size_of(t);
  const std::size_t body = image.size() - 2 * kGuardBytes;
  for (std::size_t b = 0; b < kGuardBytes; b += es) {
    if (!is_sentinel(t, image.data() + b))
      throw KernelFailure(who + "wrote before its output " + what + " (" +
                          std::to_string(kGuardBytes - b) + " bytes before it)");
    if (!is_sentinel(t, image.data() + kGuardBytes + body + b))
      throw KernelFailure(who + "wrote past the end of its output " + what + " (" +
                          std::to_string(b) + " bytes after the last element)");
  }
}

/// The image of an input of rows (each `cols` elements, exactly values of type t) at row stride
/// `stride`, the padding holding NaN so that a kernel that reads it as data gives NaN rows.
/// std::invalid_argument naming `what` for rows of another length or a value not exact in t.
inline std::vector<unsigned char> input_rows_image(const std::string& what, DType t,
                                                   const std::vector<std::vector<float>>& rows,
                                                   std::int64_t cols, std::int64_t stride) {
  const std::size_t es = size_of(t);
  std::vector<unsigned char> image(rows.size() * static_cast<std::size_t>(stride) * es);
  std::vector<float> staged(static_cast<std::size_t>(stride), std::nanf(""));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (static_cast<std::int64_t>(r.size()) != cols)
      throw std::invalid_argument("rows of different lengths (" + std::to_string(r.size()) +
                                  " vs " + std::to_string(cols) + ")");
    for (std::int64_t j = 0; j < cols; ++j) {
      const float v = r[static_cast<std::size_t>(j)];
      const float q = round_to(t, v);
      if (std::memcmp(&q, &v, sizeof v) != 0 && !(std::isnan(q) && std::isnan(v)))
        throw std::invalid_argument(what + "[" + std::to_string(i) + "][" + std::to_string(j) +
                                    "] is not exactly a " + to_string(t) + " value");
      staged[static_cast<std::size_t>(j)] = v;
    }
    store_as(t, staged.data(), image.data() + i * static_cast<std::size_t>(stride) * es, stride);
  }
  return image;
}

/// Throws KernelFailure naming `who` when an output of `rows` rows of `cols` elements at row
/// stride `stride`, whose elements start at `body` (after the guard zone), has an element of a
/// row left unwritten (still the sentinel) or an element of a row's padding written: "left
/// y[1][3] unwritten", "wrote into row 0's padding (column 5) (outside the output)" (`what`
/// names the array).
inline void check_rows_written(const std::string& who, const std::string& what, DType t,
                               const unsigned char* body, std::int64_t rows, std::int64_t cols,
                               std::int64_t stride) {
  const std::size_t es = size_of(t);
  const auto where = [&](std::int64_t e) {
    const std::int64_t row = e / stride, col = e % stride;
    if (col >= cols)
      return "row " + std::to_string(row) + "'s padding (column " + std::to_string(col) + ")";
    return what + "[" + std::to_string(row) + "][" + std::to_string(col) + "]";
  };
  for (std::int64_t e = 0; e < rows * stride; ++e) {
    const bool sentinel = is_sentinel(t, body + static_cast<std::size_t>(e) * es);
    const bool padding = e % stride >= cols;
    if (padding && !sentinel)
      throw KernelFailure(who + "wrote into " + where(e) + " (outside the output)");
    if (!padding && sentinel) throw KernelFailure(who + "left " + where(e) + " unwritten");
  }
}

/// Calls `launch` on the images: with their host addresses and no stream (Where::Host), or
/// through detail::run_on_device. Anything the kernel throws becomes a KernelFailure naming
/// `who` ("merge kernel 'x'"); DeviceUnavailable passes through.
inline void launch_on_images(const std::string& who, bool on_device,
                             const std::vector<std::vector<unsigned char>*>& images,
                             const detail::DeviceLaunch& launch) {
  try {
    if (on_device) {
      detail::run_on_device(who, images, launch);
    } else {
      std::vector<unsigned char*> host;
      for (std::vector<unsigned char>* image : images) host.push_back(image->data());
      launch(host, nullptr);
    }
  } catch (const KernelFailure&) {
    throw;
  } catch (const DeviceUnavailable&) {
    throw;
  } catch (const std::exception& e) {
    throw KernelFailure(who + " threw: " + e.what());
  } catch (...) {
    throw KernelFailure(who + " threw a non-standard exception");
  }
}

}  // namespace osvs
