// osvs audit --plugin: the audit of kernels of every kind (row kernels, merge kernels) registered
// in plugins (shared libraries built with osvs_add_kernel_plugin). Each kernel is audited in a
// child process of its own (the same osvs program, re-run with --child-kernel), so that a kernel
// that crashes, hangs past its time or poisons the device is reported as failed while the others
// still run; the report is rewritten after every kernel, so nothing already audited is lost.
#pragma once

#include <string>
#include <vector>

#include "osvs/audit/options.h"

namespace osvs::audit {

struct PluginAuditOptions {
  std::vector<std::string> plugins;  ///< shared libraries to load
  std::vector<std::string> kernels;  ///< only these registered names (empty: all of the plugins')
  std::string child_kind = "row";    ///< child mode: the kind (row, merge) ...
  std::string child_kernel;          ///< ... of the one kernel to audit ...
  std::string child_out;             ///< ... and write its JSON here
  double kernel_seconds = 1800;      ///< a child running longer is stopped and reported
};

/// Runs the plugin audit (parent or child mode); returns the exit status: 0 when every kernel
/// passes the gate, 1 otherwise, 2 for unusable plugins.
int run_plugin_audit(const PluginAuditOptions& p, const AuditOptions& o);

}  // namespace osvs::audit
