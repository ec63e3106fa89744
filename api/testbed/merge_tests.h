// The testbed's merge half: every merge law on every registered merge kernel
// (osvs/api/merge_registry.h), tests merge_<kernel>.<law>, and the replay of its saved cases.
#pragma once

#include <filesystem>
#include <optional>

namespace osvs::testbed {

/// Registers one GoogleTest test per merge kernel and merge law, and one replay test per kernel.
void register_merge_tests();

/// Replays a merge regression file; nullopt when `file` is not one. Otherwise the exit status:
/// 0 when it shows what it expects, 1 when not, 2 when it cannot run.
std::optional<int> replay_merge_file(const std::filesystem::path& file);

}  // namespace osvs::testbed
