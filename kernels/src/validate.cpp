#include "osvs/kernels/validate.h"

#include <limits>

#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/combine_operator.h"
#include "osvs/kernels/hex.h"
#include "osvs/kernels/softmax_kernel_fns.h"

namespace osvs {

void validate_shape(KernelKind kernel, CombineKind combine, int block, std::int64_t rows,
                    std::int64_t cols) {
  if (!is_supported_block(block))
    throw InvalidLaunch("block size " + std::to_string(block) +
                        " is not supported (use 32, 64, 128, 256, 512 or 1024)");
  if (rows < 0 || cols < 0)
    throw InvalidLaunch("negative shape " + std::to_string(rows) + "x" + std::to_string(cols));
  if (cols != 0 && rows > std::numeric_limits<std::int64_t>::max() / cols)
    throw InvalidLaunch("rows * cols overflows 64 bits");
  if (cols > std::numeric_limits<std::int32_t>::max())
    throw InvalidLaunch("rows of 2^31 or more elements are not supported (columns are int)");
  if (rows > std::numeric_limits<std::int32_t>::max())
    throw InvalidLaunch("more than 2^31-1 rows: one block per row exceeds the grid limit");
  const SoftmaxKernelFns& facts = builtin_softmax_kernel(kernel);
  if (facts.hardened_combine_only && combine != CombineKind::Hardened)
    throw InvalidLaunch(
        std::string("the ") + facts.name +
        " kernel merges with the hardened combine only (asked: " + to_string(combine) + ")");
  const bool seed_int_indexing = facts.is_combine_two_pass && combine.op().int32_two_pass_index;
  if (seed_int_indexing && rows * cols >= kSeedIndexLimit)
    throw InvalidLaunch("the seed 2-pass kernel indexes with int `row * N`: rows * cols = " +
                        std::to_string(rows * cols) +
                        " >= 2^31 would address the wrong elements; use the hardened kernel");
  if (seed_int_indexing && cols > seed_column_limit(block))
    throw InvalidLaunch(
        "the seed 2-pass kernel loops over columns in int (`col += " + std::to_string(block) +
        "`): N = " + std::to_string(cols) + " > INT32_MAX - " + std::to_string(block) + " = " +
        std::to_string(seed_column_limit(block)) +
        " would overflow the index; use the hardened kernel");
}

void validate_narrow_pairs(const char* executor, DType type, CombineKind op,
                           const std::vector<State>& a, const std::vector<State>& b) {
  const std::string where = std::string(executor) + " combine_pairs_in: ";
  if (type != DType::BF16 && type != DType::F16)
    throw InvalidLaunch(where + "a state is stored in f32, bf16 or f16, not " + to_string(type));
  if (op.op().host.combine_narrow == nullptr)
    throw InvalidLaunch(where + "the combine operator " + to_string(op) +
                        " runs on float32 states only (it declares no kNarrowStates, "
                        "combine_entry.h)");
  if (a.size() != b.size()) throw InvalidLaunch(where + "operand counts differ");
  for (const std::vector<State>* side : {&a, &b})
    for (std::size_t i = 0; i < side->size(); ++i)
      for (const float x : {(*side)[i].m, (*side)[i].d})
        if (!is_value_of(type, x))
          throw InvalidLaunch(where + (side == &a ? "a[" : "b[") + std::to_string(i) + "] holds " +
                              hex(x) + ", which is no " + to_string(type) + " value");
}

void validate(const SoftmaxBatch& b) {
  validate_shape(b.kernel, b.combine, b.block, b.rows, b.cols);
  if (static_cast<std::int64_t>(b.x.size()) != b.rows * b.cols)
    throw InvalidLaunch("input has " + std::to_string(b.x.size()) + " values, shape " +
                        std::to_string(b.rows) + "x" + std::to_string(b.cols) + " needs " +
                        std::to_string(b.rows * b.cols));
}

void validate(const HarnessBatch& b) {
  for (std::size_t i = 0; i < b.cases.size(); ++i) {
    const HarnessCase& c = b.cases[i];
    const std::string where = "harness case " + std::to_string(i) + ": ";
    if (c.chunk_offsets.size() < 2) throw InvalidLaunch(where + "needs at least one chunk");
    if (c.chunk_offsets.front() != 0 ||
        c.chunk_offsets.back() != static_cast<std::int64_t>(c.row.size()))
      throw InvalidLaunch(where + "chunk offsets must run from 0 to the row length");
    for (std::size_t k = 1; k < c.chunk_offsets.size(); ++k)
      if (c.chunk_offsets[k] < c.chunk_offsets[k - 1])
        throw InvalidLaunch(where + "chunk offsets must not decrease");
    const auto chunks = static_cast<std::int32_t>(c.chunk_offsets.size() - 1);
    const auto slots = static_cast<std::int32_t>(c.slot_chunk.size());
    if (slots == 0) throw InvalidLaunch(where + "no slots");
    for (std::int32_t s : c.slot_chunk)
      if (s < 0 || s >= chunks) throw InvalidLaunch(where + "slot refers to a missing chunk");
    for (const Merge& m : c.merges)
      if (m.dst < 0 || m.dst >= slots || m.src < 0 || m.src >= slots || m.dst == m.src)
        throw InvalidLaunch(where + "merge refers to a missing slot or merges a slot with itself");
    if (c.root < 0 || c.root >= slots) throw InvalidLaunch(where + "root slot out of range");
  }
}

}  // namespace osvs
