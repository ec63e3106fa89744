#include "osvs/audit/plugin_audit.h"
#include "osvs/build_stamp.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "osvs/api/kind.h"
#include "osvs/api/plugin.h"
#include "osvs/api/registry.h"
#include "osvs/api/runner.h"
#include "osvs/audit/determinism_certificate.h"
#include "osvs/audit/kernel_audit.h"
#include "osvs/audit/plot.h"

extern char** environ;

namespace osvs::audit {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

KernelAuditOptions kernel_audit_options(const AuditOptions& o) {
  KernelAuditOptions r;
  r.seed = o.seed;
  r.quick = o.quick;
  r.law_cases = o.quick ? 30 : 100;
  return r;
}

/// A plugin kernel to audit: its kind and name.
using Entry = PluginKernel;  // a kernel of a plugin: its kind and its name

/// The kernel of kind `kind` named `name` in the registry, audited; std::runtime_error when
/// there is none.
KernelAudit audit_registered(const std::string& kind, const std::string& name,
                             const KernelAuditOptions& o) {
  return visit_kind(kind, [&](auto k) {
    using Kernel = typename decltype(k)::Kernel;
    const Kernel* kernel = find_registered<Kernel>(name);
    if (!kernel) throw std::runtime_error("no " + kind + " kernel '" + name + "' in the plugins");
    return audit_kernel(*kernel, o);
  });
}

/// The child: load the plugins, audit one kernel, write its JSON.
int run_child(const PluginAuditOptions& p, const AuditOptions& o) {
  for (const auto& plugin : p.plugins) load_kernel_plugin(plugin);
  write_file(p.child_out,
             to_json(audit_registered(p.child_kind, p.child_kernel, kernel_audit_options(o))));
  return 0;
}

/// What a child that did not deliver a report did: killed by a signal, timed out, or exited.
std::string child_failure(int status, bool timed_out, const std::string& log) {
  std::string why =
      timed_out ? "did not finish within its time and was stopped"
      : WIFSIGNALED(status)
          ? std::string("crashed (signal ") + std::to_string(WTERMSIG(status)) + ", " +
                strsignal(WTERMSIG(status)) + ")"
          : "exited with status " + std::to_string(WEXITSTATUS(status)) + " without a report";
  return log.empty() ? why : why + ": " + log;
}

/// Audits kernel `name` in a child process; its report, or a "failed" entry saying why not.
KernelAudit audit_in_child(const Entry& e, const PluginAuditOptions& p, const AuditOptions& o,
                           const fs::path& work) {
  const std::string& name = e.name;
  const fs::path json_out = work / (e.kind + "." + name + ".json");
  const fs::path log = work / (e.kind + "." + name + ".log");
  fs::remove(json_out);
  std::vector<std::string> args = {fs::read_symlink("/proc/self/exe").string(), "audit"};
  for (const auto& plugin : p.plugins) args.insert(args.end(), {"--plugin", plugin});
  args.insert(args.end(), {"--child-kind", e.kind, "--child-kernel", name, "--child-out",
                           json_out.string(), "--seed", std::to_string(o.seed)});
  if (o.quick) args.push_back("--quick");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&files, 1, 2);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  KernelAudit failed;
  failed.kind = e.kind;
  failed.kernel = name;
  failed.status = "failed";
  if (spawned != 0) {
    failed.error = std::string("cannot start the audit process: ") + strerror(spawned);
    return failed;
  }
  int status = 0;
  bool timed_out = false;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(p.kernel_seconds);
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (!timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0 && fs::exists(json_out)) {
    try {
      return kernel_audit_from_json(read_file(json_out));
    } catch (const std::exception& e) {
      failed.error = std::string("unreadable report: ") + e.what();
      return failed;
    }
  }
  std::string tail = read_file(log);
  if (tail.size() > 600) tail = "..." + tail.substr(tail.size() - 600);
  failed.error = child_failure(status, timed_out, tail);
  return failed;
}

std::string provenance(const PluginAuditOptions& p, const AuditOptions& o) {
  std::string plugins;
  for (const auto& pl : p.plugins) plugins += (plugins.empty() ? "" : ", ") + pl;
  std::string device;
  const bool gpu = device_available(&device);
  return fmt::format("Audited {} by osvs {} (seed {}, {} sweep) on {}; plugins: {}.",
                     utc_now_iso8601(), build_commit(), o.seed, o.quick ? "quick" : "full",
                     gpu ? "a machine with a CUDA device" : device, plugins);
}

}  // namespace

int run_plugin_audit(const PluginAuditOptions& p, const AuditOptions& o) {
  if (!p.child_kernel.empty()) return run_child(p, o);
  std::vector<Entry> entries;
  try {
    for (const auto& plugin : p.plugins) {
      const PluginKernels loaded = load_kernel_plugin(plugin);
      for (const PluginKernel& k : loaded.kernels) entries.push_back({k.kind, k.name});
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "osvs audit: {}\n", e.what());
    return 2;
  }
  if (!p.kernels.empty()) {
    std::vector<Entry> chosen;
    for (const auto& k : p.kernels) {
      const std::size_t before = chosen.size();
      for (const Entry& e : entries)
        if (e.name == k) chosen.push_back(e);  // every kind's kernel of that name
      if (chosen.size() == before) {
        fmt::print(stderr, "osvs audit: no kernel '{}' in the plugins\n", k);
        return 2;
      }
    }
    entries = chosen;
  }
  const fs::path out =
      o.out.empty() ? fs::path("osvs-reports") / "audit" / "plugins" : fs::path(o.out);
  const fs::path work = out / "kernels";
  fs::create_directories(work);
  const std::string prov = provenance(p, o);
  std::vector<KernelAudit> audits;
  bool gate = true;
  for (const Entry& e : entries) {
    fmt::print("osvs audit: {} kernel {} ...\n", e.kind, e.name);
    std::fflush(stdout);
    audits.push_back(audit_in_child(e, p, o, work));
    const auto& a = audits.back();
    gate = gate && gate_passes(a);
    fmt::print("osvs audit: {}: {}{} ({:.1f} s)\n", e.name, a.status,
               a.error.empty() ? "" : " - " + a.error.substr(0, 300), a.seconds);
    write_file(out / "audit.md",
               plugin_audit_markdown(audits, prov) + certificate_markdown(audits));
    write_file(out / "audit.json", plugin_audit_json(audits, prov));
    write_file(out / "certificate.json", certificate_json(audits, nlohmann::ordered_json(prov)));
  }
  if (o.plots) {
    std::string message;
    try {
      draw_plugin_plots(out, &message);
    } catch (const std::exception& e) {
      message = std::string("plots not drawn: ") + e.what();
    }
    fmt::print("osvs audit: {}\n", message);
  }
  fmt::print("osvs audit: release gate {} ({} kernels); report in {}\n", gate ? "passes" : "FAILS",
             audits.size(), (out / "audit.md").string());
  return gate ? 0 : 1;
}

}  // namespace osvs::audit
