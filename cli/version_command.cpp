#include "version_command.h"

#include <fmt/format.h>

#include "osvs/build_stamp.h"

#ifndef OSVS_VERSION
#define OSVS_VERSION "unknown"
#endif

namespace osvs::cli {
namespace {

constexpr const char* on_off(bool b) {
  return b ? "ON" : "OFF";
}

#if defined(OSVS_PORTABLE_EXP)
constexpr bool kPortableExpBuild = true;
#else
constexpr bool kPortableExpBuild = false;
#endif
#if defined(OSVS_WITH_CUDA)
constexpr bool kCudaBuild = true;
#else
constexpr bool kCudaBuild = false;
#endif

void print_version() {
  fmt::print("osvs {} (commit {})\n", OSVS_VERSION, recorded_build_commit());
  fmt::print("  portable exp          {}\n", on_off(kPortableExpBuild));
  fmt::print("  CUDA FMA contraction  {}\n", on_off(OSVS_MODEL_FMAD));
  fmt::print("  CUDA executor         {}\n", on_off(kCudaBuild));
}

}  // namespace

void add_version_command(CLI::App& app) {
  app.add_subcommand("version", "Print the version and the build options")->callback(print_version);
}

}  // namespace osvs::cli
