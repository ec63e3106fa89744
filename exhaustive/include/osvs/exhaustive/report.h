// What a measurement leaves behind: exp-check.json (everything), exp-check.md (for people) and
// verified.json (the figures the build checks: kernels/src/verified_exp_figures.cpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "osvs/exhaustive/double_exp_check.h"
#include "osvs/exhaustive/measurement.h"

namespace osvs::exhaustive {

/// Where and from what a measurement was made.
struct Provenance {
  std::string date;    ///< UTC, ISO 8601
  std::string commit;  ///< the source commit of the build
  std::string host;    ///< CPU model and thread count
  std::string libc;    ///< "glibc 2.36"
  std::string device;  ///< "NVIDIA H200 (sm 9.0), driver 580.x (CUDA 13000), runtime 13000"
  std::string nvcc;    ///< "nvcc 13.0.48, -arch sm_90, --fmad=true"
  std::string inputs;  ///< "every binary32 input" or the range
};

/// Gathers the provenance of this process (driver: nvidia-smi's driver version, given by the
/// caller since the CUDA runtime reports only the CUDA version it supports).
Provenance current_provenance(const InputRange& range, const std::string& driver);

struct Report {
  Provenance provenance;
  std::vector<ExpMeasurement> exps;
  std::vector<DoubleExpCheck> double_exps;
};

std::string to_json(const Report& r);
std::string to_markdown(const Report& r);
/// The figures of the exhaustive measurements of r (an exp measured on a subset is left out).
std::string to_verified_json(const Report& r);

/// One file a tool leaves behind: its name in the output folder and its text.
struct ReportFile {
  std::string name;
  std::string text;
};

/// Creates `folder` (and its parents) and writes each file into it; throws std::runtime_error
/// naming the file that cannot be written. Shared by osvs_exp_check and osvs_combine_grid.
void write_report_files(const std::filesystem::path& folder, const std::vector<ReportFile>& files);

/// One line naming the worst input against the declaration: "cuda_expf: 1.07 ulp at x = 0x...
/// (observed 0x..., correctly rounded 0x...), declared CUDA_EXPF_MAX_ULP = 2".
std::string counterexample(const ExpMeasurement& m);

}  // namespace osvs::exhaustive
