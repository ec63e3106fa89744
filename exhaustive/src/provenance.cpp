// Provenance of a measurement: date, commit, CPU, libc, device, driver and compiler.
#include <gnu/libc-version.h>

#include <fstream>
#include <string>
#include <thread>

#include "osvs/build_stamp.h"
#include "osvs/exhaustive/device_exps.h"
#include "osvs/exhaustive/report.h"

namespace osvs::exhaustive {
namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

}  // namespace

Provenance current_provenance(const InputRange& range, const std::string& driver) {
  Provenance p;
  p.date = utc_now_iso8601();
  p.commit = build_commit();
  p.host = cpu_model() + ", " + std::to_string(std::thread::hardware_concurrency()) + " threads";
  p.libc = std::string("glibc ") + gnu_get_libc_version();
  const DeviceDescription d = describe_device();
  p.device = d.present ? d.name + " (compute capability " + d.compute_capability + "), driver " +
                             (driver.empty() ? "unknown" : driver) + " (CUDA " +
                             std::to_string(d.driver_cuda_version) + "), runtime " +
                             std::to_string(d.runtime_version)
                       : "none (" + d.why_absent + ")";
  p.nvcc = d.nvcc.empty() ? "none" : "nvcc " + d.nvcc + ", sm_" + d.architectures;
  p.inputs = range.exhaustive()
                 ? "every binary32 input (2^32)"
                 : std::to_string(range.count()) + " inputs: bit patterns " +
                       std::to_string(range.first) + " to " + std::to_string(range.end) + " step " +
                       std::to_string(range.stride);
  return p;
}

}  // namespace osvs::exhaustive
