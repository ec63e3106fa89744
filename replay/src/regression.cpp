// Writing regression files: content-derived ids, write-once files, provenance of the finding.
#include "osvs/replay/regression.h"

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "osvs/build_stamp.h"
#include "osvs/kernels/stable_hash.h"
#include "osvs/replay/case_io.h"

#ifndef OSVS_SOURCE_ROOT
#define OSVS_SOURCE_ROOT "."
#endif
#ifndef OSVS_NVCC_VERSION
#define OSVS_NVCC_VERSION ""
#endif

namespace osvs {
namespace {

/// A property name becomes a directory name: refuse anything that could leave the root.
void check_property_name(const std::string& name) {
  if (name.empty() || name == "." || name == "..")
    throw std::invalid_argument("regression property name \"" + name + "\" is not a file name");
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '-' || c == '.'))
      throw std::invalid_argument("regression property name \"" + name +
                                  "\" may use only letters, digits, '_', '-' and '.'");
}

}  // namespace

std::string regression_id(const RegressionRecord& r) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx",
                static_cast<unsigned long long>(fnv1a64(canonical_case_text(r.property, r.input))));
  return buf;
}

std::filesystem::path write_regression(const RegressionRecord& r,
                                       const std::filesystem::path& root) {
  check_property_name(r.property);
  const std::filesystem::path dir = root / r.property;
  const std::filesystem::path target = dir / (regression_id(r) + ".json");
  std::filesystem::create_directories(dir);
  write_file_once(target, serialize_regression(r));
  return target;
}

bool write_file_once(const std::filesystem::path& target, const std::string& text) {
  if (std::filesystem::exists(target)) return false;  // same name: the same case, already saved
  // Write a private temporary (named by the process and the thread), then link it to the final
  // name: link() fails rather than replace an existing file, so a concurrent writer of the same
  // case (another process of a pytest-xdist or ctest run) cannot be overwritten, and no reader
  // ever sees a partly written file.
  std::string temp_name = ".";
  temp_name.append(target.filename().string())
      .append(".tmp.")
      .append(std::to_string(::getpid()))
      .append(".")
      .append(std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())));
  const std::filesystem::path temp = target.parent_path() / temp_name;
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) throw std::runtime_error("cannot write " + temp.string());
  }
  const int linked = ::link(temp.c_str(), target.c_str());
  const int link_errno = errno;
  std::error_code ignored;
  std::filesystem::remove(temp, ignored);
  if (linked != 0 && link_errno != EEXIST)
    throw std::system_error(link_errno, std::generic_category(),
                            "cannot create " + target.string());
  return linked == 0;
}

std::filesystem::path default_regression_root() {
  if (const char* dir = std::getenv("OSVS_REGRESSION_DIR"); dir && *dir) return dir;
  if (const char* src = std::getenv("OSVS_SOURCE_DIR"); src && *src)
    return std::filesystem::path(src) / "reports" / "regressions";
  return std::filesystem::path(OSVS_SOURCE_ROOT) / "reports" / "regressions";
}

Provenance make_provenance(const Executor& executor, std::string found_by) {
  Provenance p;
  p.osvs_commit = build_commit();  // OSVS_BUILD_COMMIT, or OSVS_COMMIT where set (build_stamp.h)
  p.date = utc_now_iso8601();
  p.executor = executor.name();
  p.device = executor.describe();
  p.nvcc = executor.is_gpu() ? OSVS_NVCC_VERSION : "";
  p.found_by = std::move(found_by);
  return p;
}

}  // namespace osvs
