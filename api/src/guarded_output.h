// What the merge and attention runners share: an output image (its elements between two guard
// zones, all holding the sentinel, sentinel.h), the check of those zones after the launch, and
// the launch itself on the host or the device with what the kernel throws named.
#pragma once

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
