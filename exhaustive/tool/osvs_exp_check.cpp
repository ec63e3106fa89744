// osvs_exp_check: measures exps against the correctly rounded result over every binary32 input (or
// a strided subset), writes exp-check.json / exp-check.md / verified.json and exits 1, printing the
// counterexample, when an exp exceeds its declared accuracy.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "osvs/exhaustive/device_exps.h"
#include "osvs/exhaustive/double_exp_check.h"
#include "osvs/exhaustive/report.h"
#include "osvs/kernels/hd.h"
#include "tool_main.h"

namespace ex = osvs::exhaustive;

namespace {

struct Options {
  std::vector<std::string> names;
  bool host_only = false;
  std::uint64_t stride = 1;
  std::string at;
  double declared_max_ulp = -1;
  std::string out;
  unsigned threads = 0;
  bool double_exps = false;
  bool double_only = false;
  std::uint64_t double_stride = 64;
  std::uint64_t gaps = 4'000'000;
  std::string driver;
};

std::vector<ex::ExpUnderTest> selected(const Options& o, const ex::DeviceDescription& device) {
  std::vector<ex::ExpUnderTest> exps;
  if (!o.names.empty()) {
    for (const std::string& n : o.names) exps.push_back(ex::find_exp(n));
  } else {
    for (const ex::ExpUnderTest& e : ex::exps_under_test()) {
      if (e.side == ex::Side::Device && (o.host_only || !device.present)) continue;
      exps.push_back(e);
    }
    if (!o.host_only && !device.present)
      std::cerr << "device exps skipped: " << device.why_absent << "\n";
  }
  for (ex::ExpUnderTest& e : exps) {
    if (e.side == ex::Side::Device && !device.present)
      throw std::runtime_error(e.name + " needs a device: " + device.why_absent);
    if (o.declared_max_ulp >= 0) {
      e.declared.max_ulp = o.declared_max_ulp;  // a planted declaration (tests)
      e.declared.constant += " (overridden)";
    }
  }
  return exps;
}

ex::InputRange input_range(const Options& o) {
  ex::InputRange r;
  r.stride = o.stride;
  if (!o.at.empty()) {
    const float x = std::strtof(o.at.c_str(), nullptr);
    r.first = osvs::float_bits(x);
    r.end = r.first + 1;
  }
  return r;
}

void declare_options(CLI::App& app, Options& o) {
  app.add_option("--exp", o.names,
                 "exps to measure (default: every host exp, and every device "
                 "exp where a device is present)");
  app.add_flag("--host-only", o.host_only, "leave the device exps out");
  app.add_option("--stride", o.stride, "measure every N-th bit pattern (1: all 2^32)")
      ->check(CLI::PositiveNumber);
  app.add_option("--at", o.at, "measure one input only (a hex float, e.g. 0x1.5p+3)");
  app.add_option("--declared-max-ulp", o.declared_max_ulp,
                 "replace the declared max_ulp (a planted declaration)");
  app.add_option("--out", o.out, "folder for exp-check.json, exp-check.md and verified.json");
  app.add_option("--threads", o.threads, "host threads (default: all)");
  app.add_flag("--double", o.double_exps, "also measure glibc's double exp and exp2");
  app.add_flag("--double-only", o.double_only, "measure glibc's double exp and exp2 only");
  app.add_option("--double-stride", o.double_stride, "float stride of the double measurement");
  app.add_option("--gaps", o.gaps, "pseudo-random gaps x - m for the double exp");
  app.add_option("--driver", o.driver, "driver version for the provenance (nvidia-smi's)");
}

int run(const Options& o) {
  const ex::DeviceDescription device = ex::describe_device();
  ex::MeasureSettings settings;
  settings.range = input_range(o);
  settings.threads = o.threads;
  settings.progress = settings.range.count() > (std::uint64_t{1} << 28);
  ex::Report report;
  report.provenance = ex::current_provenance(settings.range, o.driver);
  if (o.double_only) report.provenance.inputs = "none of the float exps (--double-only)";
  if (!o.double_only) report.exps = ex::measure(selected(o, device), settings);
  if (o.double_exps || o.double_only) {
    ex::InputRange floats;
    floats.stride = o.double_stride;
    for (const ex::ExpBase b : {ex::ExpBase::E, ex::ExpBase::Two}) {
      report.double_exps.push_back(ex::check_double_exp_on_floats(b, floats, o.threads));
      report.double_exps.push_back(ex::check_double_exp_against_long_double(b, o.threads));
    }
    report.double_exps.push_back(ex::check_double_exp_on_gaps(o.gaps, o.threads));
  }
  int status = 0;
  for (const ex::ExpMeasurement& m : report.exps) {
    std::printf(
        "%-22s %-6s max %.4f ulp (normal results), %.4f (subnormal), %llu beyond "
        "declared, %.1f s\n",
        m.exp.name.c_str(), to_string(m.exp.side), m.worst_normal.ulp, m.worst_subnormal.ulp,
        static_cast<unsigned long long>(m.violations), m.seconds);
    if (m.violations > 0) {
      std::printf("COUNTEREXAMPLE %s\n", ex::counterexample(m).c_str());
      status = 1;
    }
  }
  for (const ex::DoubleExpCheck& c : report.double_exps) {
    std::printf("glibc %-5s (double) max %.4f ulp over %llu arguments (%s), %.1f s\n",
                to_string(c.base), c.max_ulp, static_cast<unsigned long long>(c.samples),
                c.domain.c_str(), c.seconds);
    if (c.max_ulp > 1) {  // the documented figure the oracle's kExpGapRelErr rests on
      std::printf("COUNTEREXAMPLE glibc %s(%a): %.4f ulp, documented 1\n", to_string(c.base),
                  c.worst_argument, c.max_ulp);
      status = 1;
    }
  }
  if (!o.out.empty()) {
    std::vector<ex::ReportFile> files = {{"exp-check.json", ex::to_json(report)},
                                         {"exp-check.md", ex::to_markdown(report)}};
    if (settings.range.exhaustive())
      files.push_back({"verified.json", ex::to_verified_json(report)});
    ex::write_report_files(o.out, files);
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  return osvs::exhaustive::tool_main<Options>(
      argc, argv, "osvs_exp_check",
      "Measures exps against the correctly rounded result (exhaustive/README.md)", declare_options,
      run);
}
