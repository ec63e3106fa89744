// The device runner's ordering, checked where it would break: a launch must see every byte of
// its inputs and its outputs must come back as it wrote them. The input is large (128 MiB) and
// the kernel reads it from the end, where the last bytes arrive; each block writes its count of
// wrong words into an output slot that the runner first filled with the sentinel. Measured on
// the H200 (reports/gpu/2026-12-01-runner) this passes on every runner tried, the old one too,
// alone or beside a load: it guards the ordering, while what failed beside a load (outputs above
// 64 KiB copied through pageable memory) is caught by api.concurrent_gpu_runner.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "osvs/api/runner.h"

namespace osvs::test {
namespace {

constexpr std::size_t kWords = std::size_t{32} << 20;  // 128 MiB of 32-bit words
constexpr int kBlocks = 512;
constexpr std::uint32_t kUnwritten = 0xffffffffu;

__host__ __device__ std::uint32_t pattern(std::size_t i) {
  return static_cast<std::uint32_t>(i * 2654435761u) ^ 0x5a5a5a5au;
}

/// Counts the words that do not hold the pattern, last word first; block b writes its count
/// into slot b.
__global__ void count_wrong_words_from_the_end(const std::uint32_t* in, std::uint32_t* slots) {
  __shared__ unsigned wrong;
  if (threadIdx.x == 0) wrong = 0;
  __syncthreads();
  unsigned mine = 0;
  for (std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; k < kWords;
       k += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t i = kWords - 1 - k;
    mine += in[i] != pattern(i);
  }
  atomicAdd(&wrong, mine);
  __syncthreads();
  if (threadIdx.x == 0) slots[blockIdx.x] = wrong;
}

TEST(DeviceRunner, ALaunchSeesEveryByteOfItsInputsAndItsOutputsComeBackWhole) {
  std::string why;
  if (!device_available(&why)) GTEST_SKIP() << why;
  std::vector<unsigned char> input(kWords * 4);
  for (std::size_t i = 0; i < kWords; ++i) {
    const std::uint32_t w = pattern(i);
    std::memcpy(input.data() + 4 * i, &w, 4);
  }
  for (int launch = 0; launch < 8; ++launch) {
    std::vector<unsigned char> slots(kBlocks * 4, 0xff);  // every slot kUnwritten
    detail::run_on_device(
        "the ordering probe", {&input, &slots},
        [](const std::vector<unsigned char*>& images, void* stream) {
          count_wrong_words_from_the_end<<<kBlocks, 256, 0, static_cast<cudaStream_t>(stream)>>>(
              reinterpret_cast<const std::uint32_t*>(images[0]),
              reinterpret_cast<std::uint32_t*>(images[1]));
        });
    int unwritten = 0;
    std::uint64_t wrong = 0;
    for (int b = 0; b < kBlocks; ++b) {
      std::uint32_t v;
      std::memcpy(&v, slots.data() + 4 * b, 4);
      if (v == kUnwritten)
        ++unwritten;
      else
        wrong += v;
    }
    EXPECT_EQ(unwritten, 0) << "launch " << launch << ": " << unwritten << " of " << kBlocks
                            << " output slots came back as the sentinel (a copy landed late)";
    EXPECT_EQ(wrong, 0u) << "launch " << launch << ": the kernel saw " << wrong << " of " << kWords
                         << " input words before their copy arrived";
  }
}

}  // namespace
}  // namespace osvs::test
