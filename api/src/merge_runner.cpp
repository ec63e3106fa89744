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
  for (std::size_t e = 0; e < body / es; ++e)
    if (is_sentinel(t, image.data() + kGuardBytes + e * es))
      throw KernelFailure(
          who + "left " + what + "[" + std::to_string(static_cast<std::int64_t>(e) / row_length) +
          "][" + std::to_string(static_cast<std::int64_t>(e) % row_length) + "] unwritten");
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
  // One input image (o_a, o_b, lse_a, lse_b), compared byte for byte after the launch.
  const Bytes oa = staged(t, a.o, "o_a"), ob = staged(t, b.o, "o_b");
  const std::size_t lse_bytes = a.lse.size() * sizeof(float);
  Bytes in(oa.size() + ob.size() + 2 * lse_bytes);
  std::copy(oa.begin(), oa.end(), in.begin());
  std::copy(ob.begin(), ob.end(), in.begin() + static_cast<std::ptrdiff_t>(oa.size()));
  if (lse_bytes > 0) {
    std::memcpy(in.data() + oa.size() + ob.size(), a.lse.data(), lse_bytes);
    std::memcpy(in.data() + oa.size() + ob.size() + lse_bytes, b.lse.data(), lse_bytes);
  }
  const Bytes in0 = in;
  Bytes o = guarded(t, a.o.size()), lse = guarded(DType::F32, a.lse.size());

  MergeProblem p;
  p.rows = a.rows;
  p.head_dim = a.head_dim;
  p.o_type = t;
  p.base = base;
  const auto launch = [&](unsigned char* input, unsigned char* o_image, unsigned char* lse_image,
                          void* stream) {
    MergeProblem q = p;
    q.o_a_ptr = input;
    q.o_b_ptr = input + oa.size();
    q.lse_a = reinterpret_cast<const float*>(input + oa.size() + ob.size());
    q.lse_b = reinterpret_cast<const float*>(input + oa.size() + ob.size() + lse_bytes);
    q.o_out_ptr = o_image + kGuardBytes;
    q.lse_out = reinterpret_cast<float*>(lse_image + kGuardBytes);
    q.stream = stream;
    k(q);
  };
  const std::string who = "merge kernel '" + k.name() + "' ";
  try {
    if (k.where() == Where::Host)
      launch(in.data(), o.data(), lse.data(), nullptr);
    else
      detail::run_on_device("merge kernel '" + k.name() + "'", {&in, &o, &lse},
                            [&](const std::vector<unsigned char*>& image, void* stream) {
                              launch(image[0], image[1], image[2], stream);
                            });
  } catch (const KernelFailure&) {
    throw;
  } catch (const DeviceUnavailable&) {
    throw;
  } catch (const std::exception& e) {
    throw KernelFailure(who + "threw: " + e.what());
  } catch (...) {
    throw KernelFailure(who + "threw a non-standard exception");
  }
  if (in != in0) throw KernelFailure(who + "modified its inputs (o_a, o_b, lse_a or lse_b)");
  check_output(who, "lse", DType::F32, lse, 1);
  check_output(who, "o", t, o, a.head_dim);
  return AttnStates{a.rows, a.head_dim, t, loaded(DType::F32, lse), loaded(t, o)};
}

}  // namespace osvs
