#include "osvs/formal/gappa/run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace osvs::formal::gappa {
namespace {

std::optional<std::string> on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::filesystem::path p = std::filesystem::path(dir) / name;
    if (!dir.empty() && access(p.c_str(), X_OK) == 0) return p.string();
  }
  return std::nullopt;
}

/// Runs a shell command (the caller sends stderr where it wants it: the paths osvs passes have no
/// spaces or quotes, build folders and script names it made).
RunResult run(const std::string& command) {
  RunResult r;
  const auto start = std::chrono::steady_clock::now();
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) {
    r.output = "could not start: " + command;
    return r;
  }
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) r.output.append(buffer, n);
  const int status = pclose(pipe);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.proven = r.status == 0;
  return r;
}

}  // namespace

std::optional<std::string> find_gappa() {
  if (const char* g = std::getenv("OSVS_GAPPA"); g && *g) return std::string(g);
  return on_path("gappa");
}

std::optional<std::string> find_coq_gappa() {
  const std::optional<std::string> coqc = on_path("coqc");
  if (!coqc) return std::nullopt;
  // libcoq-gappa installs Gappa's Coq library beside Flocq in Coq's user-contrib
  const RunResult where = run(*coqc + " -where 2>&1");
  if (where.status != 0) return std::nullopt;
  std::string lib = where.output.substr(0, where.output.find('\n'));
  if (!std::filesystem::exists(std::filesystem::path(lib) / "user-contrib" / "Gappa"))
    return std::nullopt;
  return coqc;
}

RunResult run_gappa(const std::string& gappa, const std::string& script) {
  // A goal Gappa cannot prove may send it searching for many minutes (a planted script did, for
  // more than 10): kTimeLimitSeconds bounds each run, and a run stopped there is no proof.
  RunResult r =
      run("timeout " + std::to_string(kTimeLimitSeconds) + " " + gappa + " " + script + " 2>&1");
  if (r.status == 124) r.output += "gappa ran past " + std::to_string(kTimeLimitSeconds) + " s\n";
  return r;
}

RunResult check_with_coq(const std::string& gappa, const std::string& coqc,
                         const std::string& script, const std::string& certificate) {
  RunResult made = run(gappa + " -Bcoq " + script + " 2>&1 > " + certificate);
  if (!made.proven) return made;
  RunResult checked = run(coqc + " -q " + certificate + " 2>&1");
  checked.seconds += made.seconds;
  return checked;
}

}  // namespace osvs::formal::gappa
