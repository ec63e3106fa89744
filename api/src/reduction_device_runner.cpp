// The reduction kind's device half of the runner (reduction_device_runner.h): byte images of the
// flattened schedules and of the two outputs, the outputs between guard zones filled with a
// sentinel, launched as every runner launches (guarded_output.h launch_on_images: the one device
// runner, runner.h detail::run_on_device, with what the kernel throws named) and checked after.
#include "reduction_device_runner.h"

#include <cstring>
#include <string>

#include "guarded_output.h"
#include "osvs/api/runner.h"

namespace osvs {
namespace {

/// Guard words on each side of an output: the runners' guard zone (sentinel.h), in 64-bit words.
constexpr std::size_t kGuardWords = kGuardBytes / sizeof(std::uint64_t);

template <class T>
std::vector<unsigned char> image_of(const std::vector<T>& v) {
  std::vector<unsigned char> out(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(out.data(), v.data(), out.size());
  return out;
}

std::vector<unsigned char> output_image(std::size_t words) {
  return image_of(std::vector<std::uint64_t>(words + 2 * kGuardWords, kSentinel64));
}

/// The words of an output image between its guards, after checking the guards and every word.
std::vector<std::uint64_t> checked_output(const std::string& who, const char* what,
                                          const std::vector<unsigned char>& image,
                                          const std::vector<FieldSpec>& fields) {
  std::vector<std::uint64_t> words(image.size() / sizeof(std::uint64_t));
  std::memcpy(words.data(), image.data(), image.size());
  const std::size_t body = words.size() - 2 * kGuardWords;
  for (std::size_t g = 0; g < kGuardWords; ++g) {
    if (words[g] != kSentinel64)
      throw KernelFailure(who + " wrote before its " + what + " (" +
                          std::to_string((kGuardWords - g) * 8) + " bytes before them)");
    if (words[kGuardWords + body + g] != kSentinel64)
      throw KernelFailure(who + " wrote past the end of its " + what + " (" +
                          std::to_string(g * 8) + " bytes after the last word)");
  }
  std::vector<std::uint64_t> out(words.begin() + kGuardWords, words.begin() + kGuardWords + body);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const FieldSpec& f = fields[i % fields.size()];
    const std::string where =
        "field " + f.name + " of schedule " + std::to_string(i / fields.size()) + "'s " + what;
    if (out[i] == kSentinel64) throw KernelFailure(who + " left " + where + " unwritten");
    const int width = field_width(f.type);
    if (width < 64 && (out[i] >> width) != 0)
      throw KernelFailure(who + " wrote " + where + " with bits beyond its " +
                          std::to_string(width) + " (" + to_string(f.type) + ")");
  }
  return out;
}

}  // namespace

void run_reduction_on_device(const ReductionKernel& k, const std::vector<HarnessCase>& schedules,
                             std::vector<std::uint64_t>& states,
                             std::vector<std::uint64_t>& results) {
  const std::string who = "reduction '" + k.name() + "'";
  const FlatHarnessBatch f = flatten(schedules);
  std::vector<unsigned char> values = image_of(f.values), offsets = image_of(f.chunk_offsets),
                             slot_chunk = image_of(f.slot_chunk), merges = image_of(f.merges),
                             cases = image_of(f.cases);
  const std::vector<std::vector<unsigned char>> inputs = {values, offsets, slot_chunk, merges,
                                                          cases};
  const std::size_t n = schedules.size();
  std::vector<unsigned char> state_image = output_image(n * k.state_fields().size());
  std::vector<unsigned char> result_image = output_image(n * k.result_fields().size());
  launch_on_images(who, true,
                   {&values, &offsets, &slot_chunk, &merges, &cases, &state_image, &result_image},
                   [&](const std::vector<unsigned char*>& image, void* stream) {
                     ReductionDeviceSchedules d;
                     d.values = reinterpret_cast<const float*>(image[0]);
                     d.chunk_offsets = reinterpret_cast<const std::int64_t*>(image[1]);
                     d.slot_chunk = reinterpret_cast<const std::int32_t*>(image[2]);
                     d.merges = reinterpret_cast<const Merge*>(image[3]);
                     d.cases = reinterpret_cast<const FlatHarnessCase*>(image[4]);
                     d.num_cases = static_cast<std::int64_t>(n);
                     d.num_chunks = f.num_chunks;
                     d.num_slots = static_cast<std::int64_t>(f.slot_chunk.size());
                     d.states = reinterpret_cast<std::uint64_t*>(image[5]) + kGuardWords;
                     d.results = reinterpret_cast<std::uint64_t*>(image[6]) + kGuardWords;
                     ReductionProblem p;
                     p.schedules = &schedules;
                     p.device = &d;
                     p.stream = stream;
                     k(p);
                   });
  const std::vector<std::vector<unsigned char>> after = {values, offsets, slot_chunk, merges,
                                                         cases};
  if (after != inputs) throw KernelFailure(who + " modified its input schedules");
  states = checked_output(who, "states", state_image, k.state_fields());
  results = checked_output(who, "results", result_image, k.result_fields());
}

}  // namespace osvs
