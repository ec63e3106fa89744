#include "osvs/audit/plan.h"

#include <algorithm>
#include <stdexcept>

#include "builtin_shapes.h"
#include "osvs/api/row_layouts.h"
#include "osvs/kernels/block_schedule.h"

namespace osvs::audit {
namespace {

/// Powers of two and odd sizes around the warp (32), the block (256) and the lesson's 1000.
const std::vector<std::int64_t> kCpuSizes = {1,    7,    32,   33,    255,  256,
                                             1000, 1024, 4097, 32768, 65537};
/// The GPU adds rows long enough that a block strides far (up to 2^24, the range).
const std::vector<std::int64_t> kGpuExtraSizes = {(1 << 20) + 1, 1 << 22, 1 << 24};
const std::vector<std::int64_t> kQuickSizes = {1, 33, 256, 1000, 4097};
const std::vector<int> kQuickBlocks = {32, 256};

/// Elements audited per configuration when no budget is given (at least one row each).
constexpr std::int64_t kCpuElementsPerConfig = std::int64_t{1} << 15;
constexpr std::int64_t kGpuElementsPerConfig = std::int64_t{1} << 20;
/// Rows of the GPU's extra sizes are audited by one CPU thread each (the oracle works row by
/// row), so they run at the lesson's block size and the largest one only.
/// At most this many rows per configuration: for very short rows the per-row cost of the oracle
/// dominates (N = 1 gives y = 1 exactly, which the fast path leaves to MPFR), and more rows of
/// one element add little.
constexpr std::int64_t kMaxRowsPerConfig = 4096;
const std::vector<int> kLongRowBlocks = {256, 1024};
constexpr std::int64_t kQuickElementsPerConfig = std::int64_t{1} << 11;

/// The fast kernel's declared layout lengths, read off the declaration its registry entries
/// carry (builtin_shapes.h, from its plan): every edge (row_layouts.h), or in a quick plan each
/// layout's first length.
std::vector<std::int64_t> fast_layout_sizes(bool quick) {
  RowKernel k("osvs.fast", Where::Host);
  builtin::declare_fast_layouts(k);
  std::vector<std::int64_t> out;
  if (quick)
    for (const RowLayout& l : k.traits().layouts) out.push_back(l.from);
  else
    for (const LayoutLength& l : layout_lengths(k)) out.push_back(l.cols);
  return out;
}

std::vector<KernelUnderTest> pick_kernels(const AuditOptions& opt) {
  for (const auto& k : opt.kernels)
    if (!parse_kernel(k)) throw std::invalid_argument("unknown kernel '" + k + "'");
  for (const auto& c : opt.combines) {
    const auto kind = parse_combine(c);
    if (!kind || std::find(std::begin(kAllCombines), std::end(kAllCombines), *kind) ==
                     std::end(kAllCombines))
      throw std::invalid_argument("unknown combine '" + c + "' (seed or hardened)");
  }
  const auto wanted = [](const std::vector<std::string>& list, const char* name) {
    return list.empty() || std::find(list.begin(), list.end(), name) != list.end();
  };
  // Every built-in kernel with each combine it folds with: a kernel that folds with none (the
  // 3-pass) once, under the field the executor ignores (seed); one that merges with the hardened
  // combine only (the fast kernel) unless --combine names only the seed combine.
  std::vector<KernelUnderTest> out;
  for (const auto& [kernel, name] : kKernelNames) {
    if (!wanted(opt.kernels, name)) continue;
    const SoftmaxKernelFns& facts = builtin_softmax_kernel(kernel);
    if (!facts.folds_with_combine) {
      out.push_back({kernel, CombineKind::Seed});
      continue;
    }
    for (CombineKind c : kAllCombines)
      if (wanted(opt.combines, to_string(c)) &&
          (!facts.hardened_combine_only || c == CombineKind::Hardened))
        out.push_back({kernel, c});
  }
  if (out.empty()) throw std::invalid_argument("--kernel and --combine select no kernel");
  return out;
}

std::vector<int> pick_blocks(const AuditOptions& opt) {
  for (int b : opt.blocks)
    if (!is_supported_block(b))
      throw std::invalid_argument("block size " + std::to_string(b) +
                                  " not supported (32, 64, 128, 256, 512, 1024)");
  if (!opt.blocks.empty()) return opt.blocks;
  if (opt.quick) return kQuickBlocks;
  return {std::begin(kSupportedBlocks), std::end(kSupportedBlocks)};
}

std::vector<const InputFamily*> pick_families(const AuditOptions& opt) {
  std::vector<const InputFamily*> out;
  for (const auto& name : opt.families) {
    const InputFamily* f = find_family(name);
    if (!f) throw std::invalid_argument("unknown input family '" + name + "'");
    out.push_back(f);
  }
  if (out.empty())
    for (const InputFamily& f : all_families()) out.push_back(&f);
  return out;
}

}  // namespace

std::string KernelUnderTest::label() const {
  const SoftmaxKernelFns& f = facts();
  if (!f.folds_with_combine || f.hardened_combine_only) return f.name;
  return std::string(f.name) + "/" + to_string(combine);
}

Plan make_plan(const AuditOptions& opt, bool gpu) {
  Plan p;
  p.kernels = pick_kernels(opt);
  p.blocks = pick_blocks(opt);
  p.families = pick_families(opt);
  p.sizes = opt.quick ? kQuickSizes : kCpuSizes;
  if (gpu && !opt.quick)
    p.sizes.insert(p.sizes.end(), kGpuExtraSizes.begin(), kGpuExtraSizes.end());
  if (!opt.cols.empty()) {  // the user's row lengths, smallest first (see below)
    p.sizes = opt.cols;
    std::sort(p.sizes.begin(), p.sizes.end());
    p.sizes.erase(std::unique(p.sizes.begin(), p.sizes.end()), p.sizes.end());
  }

  // A kernel whose plan picks its threads (the fast kernel) also at its declared layouts'
  // lengths (unless --cols names the lengths).
  std::vector<std::int64_t> fast_sizes = p.sizes;
  if (opt.cols.empty())
    for (std::int64_t n : fast_layout_sizes(opt.quick)) fast_sizes.push_back(n);
  std::sort(fast_sizes.begin(), fast_sizes.end());
  fast_sizes.erase(std::unique(fast_sizes.begin(), fast_sizes.end()), fast_sizes.end());
  const auto has = [](const std::vector<std::int64_t>& v, std::int64_t n) {
    return std::binary_search(v.begin(), v.end(), n);
  };
  std::vector<std::int64_t> sorted_sizes = p.sizes;
  std::sort(sorted_sizes.begin(), sorted_sizes.end());

  // Smallest rows first, so that a time budget cuts the longest rows, never a whole kernel.
  for (std::int64_t n : fast_sizes)
    for (const InputFamily* f : p.families)
      for (const KernelUnderTest& k : p.kernels)
        for (int b : p.blocks) {
          const bool own_block = k.facts().plans_own_block;
          if (!has(own_block ? fast_sizes : sorted_sizes, n)) continue;
          const bool long_row = n > kCpuSizes.back();
          const bool lesson_block =
              std::find(kLongRowBlocks.begin(), kLongRowBlocks.end(), b) != kLongRowBlocks.end();
          // A plan that picks its own threads (fast_plan.h): one block size suffices.
          if (own_block) {
            if (b != p.blocks.front()) continue;
          } else if (long_row && !lesson_block && opt.blocks.empty()) {
            continue;
          }
          p.configs.push_back({k, b, n, f, 0});
        }
  // The element budget is shared by the configurations planned (at least one row each).
  std::int64_t per_config = opt.quick ? kQuickElementsPerConfig
                            : gpu     ? kGpuElementsPerConfig
                                      : kCpuElementsPerConfig;
  if (opt.budget.elements)
    per_config = *opt.budget.elements / static_cast<std::int64_t>(p.configs.size());
  for (Config& c : p.configs) {
    c.rows = std::clamp<std::int64_t>(per_config / c.n, 1, kMaxRowsPerConfig);
    p.elements += c.rows * c.n;
  }
  p.search.rounds =
      opt.search_rounds >= 0 ? opt.search_rounds : (opt.quick ? kQuickSearchRounds : kSearchRounds);
  if (opt.search_seconds >= 0) p.search.seconds = opt.search_seconds;
  return p;
}

}  // namespace osvs::audit
