#include "osvs/api/testbed.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "json_values.h"
#include "kind_tests.h"
#include "osvs/api/row_layouts.h"
#include "osvs/testing/rc_params.h"
#include "osvs/testing/skip_marker.h"

namespace osvs {
namespace {

/// Replays one regression file of whichever kind it is: the exit status (kind_tests.h).
int replay_file(const std::string& path) {
  std::string text;
  try {
    text = api::read_text(path);
  } catch (const std::exception& e) {
    std::cerr << "osvs: " << e.what() << "\n";
    return 2;
  }
  const std::string kind = regression_kind(text);
  // A file of no kind is read as a row file, whose error says what is wrong with it.
  return visit_kind(kind.empty() ? RowKind::name : kind,
                    [&](auto k) { return testbed::replay_kind_file<decltype(k)>(path, text); });
}

}  // namespace

int run_testbed(int argc, char** argv) {
  int kept = 1;
  std::optional<std::string> replay;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--osvs-replay=", 14) == 0)
      replay = argv[i] + 14;
    else if (std::strcmp(argv[i], "--osvs-list") == 0)
      list = true;
    else if (std::strcmp(argv[i], "--osvs-first-failure") == 0)
      setenv("OSVS_FIRST_FAILURE", "1", 1);  // testbed_settings.h: max_findings()
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  if (list) {
    for_each_kind([](auto kind) {
      using K = decltype(kind);
      for (const auto& k : K::kernels()) std::cout << k.name() << "  " << K::describe(k) << "\n";
    });
    return 0;
  }
  if (replay) return replay_file(*replay);
  testing::use_rc_params_unless_set();  // fixed seed: CI is deterministic
  ::testing::InitGoogleTest(&argc, argv);
  testing::install_skip_marker();
  bool any = false;
  std::string kinds;
  for_each_kind([&](auto kind) {
    using K = decltype(kind);
    any = any || !K::kernels().empty();
    kinds += std::string(K::name) + " kernel, ";
  });
  if (!any) {
    std::cerr << "osvs: no " << kinds.substr(0, kinds.size() - 2)
              << " is registered in this program\n";
    return 2;
  }
  for_each_kind([](auto kind) { testbed::register_kind_tests<decltype(kind)>(); });
  return RUN_ALL_TESTS();
}

}  // namespace osvs
