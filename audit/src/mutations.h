// The mutations of the targeted search, each a small change to a finite row that keeps it finite.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace osvs::audit {

/// Applies one to three random mutations to `row`; `worst` is the index of the element with the
/// highest error/bound ratio (the climb's focus). The row stays finite and not fully masked.
void mutate_row(std::vector<float>& row, std::int64_t worst, std::mt19937_64& rng);

}  // namespace osvs::audit
