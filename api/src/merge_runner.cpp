#include "osvs/api/merge_runner.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <vector>

#include "sentinel.h"

namespace osvs {
namespace {

using Bytes = std::vector<unsigned char>;

/// The values of `v` in type t, after checking each is exact in it.
Bytes staged(DType t, const std::vector<float>& v, const char* what) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    const float q = round_to(t, v[i]);
    if (std::memcmp(&q, &v[i], sizeof q) != 0 && !(std::isnan(q) && std::isnan(v[i])))
      throw std::invalid_argument(std::string(what) + "[" + std::to_string(i) +
                                  "] is not exactly a " + to_string(t) + " value");
  }
  Bytes out(v.size() * size_of(t));
  store_as(t, v.data(), out.data(), static_cast<std::int64_t>(v.size()));
  return out;
}

/// An output of n elements of type t between two guard zones, all holding the sentinel.
Bytes guarded(DType t, std::size_t n) {
  Bytes out(n * size_of(t) + 2 * kGuardBytes);
  fill_sentinel(t, out.data(), out.size());
  return out;
}

/// The checks of one guarded output after the launch, naming `who` and the output.
void check_output(const std::string& who, const char* what, DType t, const Bytes& image,
                  std::int64_t row_length) {
  const std::size_t es = size_of(t);
  const std::size_t body = image.size() - 2 * kGuardBytes;
  for (std::size_t b = 0; b < kGuardBytes; b += es) {
    if (!is_sentinel(t, image.data() + b))
      throw KernelFailure(who + "wrote before its output " + what + " (" +
                          std::to_string(kGuardBytes - b) + " bytes before it)");
    if (!is_sentinel(t, image.data() + kGuardBytes + body + b))
      throw KernelFailure(who + "wrote past the end of its output " + what + " (" +
                          std::to_string(b) + " bytes after the last element)");
  }
  for (std::size_t e = 0; e < body / es; ++e) {
    if (!is_sentinel(t, image.data() + kGuardBytes + e * es)) continue;
    const auto i = static_cast<std::int64_t>(e);
    throw KernelFailure(who + "left " + what + "[" + std::to_string(i / row_length) + "]" +
                        (row_length > 1 ? "[" + std::to_string(i % row_length) + "]" : "") +
                        " unwritten");
  }
}

std::vector<float> loaded(DType t, const Bytes& image) {
  std::vector<float> v((image.size() - 2 * kGuardBytes) / size_of(t));
  load_from(t, image.data() + kGuardBytes, v.data(), static_cast<std::int64_t>(v.size()));
  return v;
}

}  // namespace

bool runnable(const MergeKernel& k, std::string* why_not) {
  return k.where() == Where::Host || device_available(why_not);
}

AttnStates run_merge_kernel(const MergeKernel& k, const AttnStates& a, const AttnStates& b,
                            LseBase base) {
  validate(a, b);
  const DType t = a.o_type;
  if (std::find(k.o_types().begin(), k.o_types().end(), t) == k.o_types().end())
    throw std::invalid_argument("merge kernel '" + k.name() + "' does not declare o type " +
                                to_string(t));
  // Each input in an image of its own (so each starts aligned as an allocation does), compared
  // byte for byte after the launch.
  const auto lse_image = [](const std::vector<float>& lse) {
    Bytes out(lse.size() * sizeof(float));
    if (!out.empty()) std::memcpy(out.data(), lse.data(), out.size());
    return out;
  };
  std::vector<Bytes> in{staged(t, a.o, "o_a"), lse_image(a.lse), staged(t, b.o, "o_b"),
                        lse_image(b.lse)};
  const std::vector<Bytes> in0 = in;
  Bytes o = guarded(t, a.o.size()), lse = guarded(DType::F32, a.lse.size());

  MergeProblem p;
  p.rows = a.rows;
  p.head_dim = a.head_dim;
  p.o_type = t;
  p.base = base;
  const auto launch = [&](const std::vector<unsigned char*>& image, void* stream) {
    MergeProblem q = p;
    q.o_a_ptr = image[0];
    q.lse_a = reinterpret_cast<const float*>(image[1]);
    q.o_b_ptr = image[2];
    q.lse_b = reinterpret_cast<const float*>(image[3]);
    q.o_out_ptr = image[4] + kGuardBytes;
    q.lse_out = reinterpret_cast<float*>(image[5] + kGuardBytes);
    q.stream = stream;
    k(q);
  };
  const std::string who = "merge kernel '" + k.name() + "' ";
  try {
    if (k.where() == Where::Host)
      launch({in[0].data(), in[1].data(), in[2].data(), in[3].data(), o.data(), lse.data()},
             nullptr);
    else
      detail::run_on_device("merge kernel '" + k.name() + "'",
                            {&in[0], &in[1], &in[2], &in[3], &o, &lse}, launch);
  } catch (const KernelFailure&) {
    throw;
  } catch (const DeviceUnavailable&) {
    throw;
  } catch (const std::exception& e) {
    throw KernelFailure(who + "threw: " + e.what());
  } catch (...) {
    throw KernelFailure(who + "threw a non-standard exception");
  }
  const char* inputs[] = {"o_a", "lse_a", "o_b", "lse_b"};
  for (std::size_t i = 0; i < in.size(); ++i)
    if (in[i] != in0[i]) throw KernelFailure(who + "modified its input " + inputs[i]);
  check_output(who, "lse", DType::F32, lse, 1);
  check_output(who, "o", t, o, a.head_dim);
  return AttnStates{a.rows, a.head_dim, t, loaded(DType::F32, lse), loaded(t, o)};
}

}  // namespace osvs
