// The testbed's white-box half: every operator under test (osvs/api/combine.h) through the suite's
// combine laws, on the CPU model and on the GPU.
#pragma once

#include <filesystem>
#include <optional>

namespace osvs::testbed {

/// Registers one GoogleTest test per operator under test, combine law and executor (cpu, gpu),
/// and one replay test per operator.
void register_combine_tests();

/// Replays a combine regression file (the suite's case format); nullopt when `file` is not one.
/// Otherwise the exit status: 0 when it shows what it expects, 1 when not, 2 when it cannot run.
std::optional<int> replay_combine_file(const std::filesystem::path& file);

}  // namespace osvs::testbed
