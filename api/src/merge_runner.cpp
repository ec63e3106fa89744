#include "osvs/api/merge_runner.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <vector>

#include "guarded_output.h"

namespace osvs {
namespace {

using Bytes = std::vector<unsigned char>;

/// Where the kernel's images hold each row: MergeProblem's strides and lse layout (its shape
/// fields set, its pointers not).
struct Placement {
  MergeProblem p;
  std::size_t o_elements() const { return static_cast<std::size_t>(p.tokens() * p.o_token_stride); }
  std::size_t o_index(std::int64_t r, int c) const {
    return static_cast<std::size_t>(p.o_offset(r / p.heads, r % p.heads) + c);
  }
  std::size_t lse_index(std::int64_t r) const {
    return static_cast<std::size_t>(p.lse_offset(r / p.heads, r % p.heads));
  }
};

Placement placement(const MergeKernel& k, const AttnStates& a, LseBase base,
                    const MergeShape& shape) {
  if (shape.heads < 1 || a.rows % shape.heads != 0)
    throw std::invalid_argument(std::to_string(shape.heads) + " heads do not divide " +
                                std::to_string(a.rows) + " rows");
  if (!k.takes_head_dim(a.head_dim))
    throw std::invalid_argument("merge kernel '" + k.name() + "' does not take head_dim " +
                                std::to_string(a.head_dim));
  Placement out;
  MergeProblem& p = out.p;
  p.rows = a.rows;
  p.head_dim = a.head_dim;
  p.o_type = a.o_type;
  p.base = base;
  p.heads = shape.heads;
  p.lse_layout = k.lse_layout();
  const bool padded = k.o_strided();
  p.o_head_stride = a.head_dim + (padded ? shape.head_pad : 0);
  p.o_token_stride = p.heads * p.o_head_stride + (padded ? shape.token_pad : 0);
  return out;
}

/// The o of `s` placed for the kernel in type t (each value checked exact in it), its padding
/// holding the sentinel: a kernel that reads it gets a signalling NaN.
Bytes staged_o(const Placement& at, const AttnStates& s, const char* what) {
  const DType t = s.o_type;
  const std::size_t es = size_of(t);
  Bytes out(at.o_elements() * es);
  fill_sentinel(t, out.data(), out.size());
  for (std::int64_t r = 0; r < s.rows; ++r)
    for (int c = 0; c < s.head_dim; ++c) {
      const std::size_t i = static_cast<std::size_t>(r * s.head_dim + c);
      const float q = round_to(t, s.o[i]);
      if (std::memcmp(&q, &s.o[i], sizeof q) != 0 && !(std::isnan(q) && std::isnan(s.o[i])))
        throw std::invalid_argument(std::string(what) + "[" + std::to_string(r) + "][" +
                                    std::to_string(c) + "] is not exactly a " + to_string(t) +
                                    " value");
      store_as(t, &s.o[i], out.data() + at.o_index(r, c) * es, 1);
    }
  return out;
}

Bytes staged_lse(const Placement& at, const AttnStates& s) {
  Bytes out(s.lse.size() * sizeof(float));
  for (std::int64_t r = 0; r < s.rows; ++r)
    std::memcpy(out.data() + at.lse_index(r) * sizeof(float), &s.lse[static_cast<std::size_t>(r)],
                sizeof(float));
  return out;
}

/// The outputs read back in row order, after checking that every lse and o component was
/// written and the o padding was not.
AttnStates read_back(const std::string& who, const Placement& at, const Bytes& lse,
                     const Bytes& o) {
  const MergeProblem& p = at.p;
  check_guard_zones(who, "lse", DType::F32, lse);
  check_guard_zones(who, "o", p.o_type, o);
  const std::size_t es = size_of(p.o_type);
  const unsigned char* ob = o.data() + kGuardBytes;
  const unsigned char* lb = lse.data() + kGuardBytes;
  std::vector<bool> is_o(at.o_elements(), false);
  AttnStates out{p.rows, p.head_dim, p.o_type, std::vector<float>(static_cast<std::size_t>(p.rows)),
                 std::vector<float>(static_cast<std::size_t>(p.rows * p.head_dim))};
  for (std::int64_t r = 0; r < p.rows; ++r) {
    if (is_sentinel(DType::F32, lb + at.lse_index(r) * sizeof(float)))
      throw KernelFailure(who + "left lse[" + std::to_string(r) + "] unwritten");
    std::memcpy(&out.lse[static_cast<std::size_t>(r)], lb + at.lse_index(r) * sizeof(float),
                sizeof(float));
  }
  for (std::int64_t r = 0; r < p.rows; ++r) {
    const std::string row = "[" + std::to_string(r) + "]";
    for (int c = 0; c < p.head_dim; ++c) {
      const std::size_t i = at.o_index(r, c);
      is_o[i] = true;
      if (is_sentinel(p.o_type, ob + i * es))
        throw KernelFailure(who + "left o" + row +
                            (p.head_dim > 1 ? "[" + std::to_string(c) + "]" : "") + " unwritten");
      load_from(p.o_type, ob + i * es, &out.o[static_cast<std::size_t>(r * p.head_dim + c)], 1);
    }
  }
  for (std::size_t i = 0; i < is_o.size(); ++i)
    if (!is_o[i] && !is_sentinel(p.o_type, ob + i * es))
      throw KernelFailure(who + "wrote into the padding of o (element " + std::to_string(i) +
                          ": head stride " + std::to_string(p.o_head_stride) + ", token stride " +
                          std::to_string(p.o_token_stride) + ")");
  return out;
}

}  // namespace

bool runnable(const MergeKernel& k, std::string* why_not) {
  return k.where() == Where::Host || device_available(why_not);
}

AttnStates run_merge_kernel(const MergeKernel& k, const AttnStates& a, const AttnStates& b,
                            LseBase base, const MergeShape& shape) {
  validate(a, b);
  const DType t = a.o_type;
  if (std::find(k.o_types().begin(), k.o_types().end(), t) == k.o_types().end())
    throw std::invalid_argument("merge kernel '" + k.name() + "' does not declare o type " +
                                to_string(t));
  const Placement at = placement(k, a, base, shape);
  // Each input in an image of its own (so each starts aligned as an allocation does), compared
  // byte for byte after the launch.
  std::vector<Bytes> in{staged_o(at, a, "o_a"), staged_lse(at, a), staged_o(at, b, "o_b"),
                        staged_lse(at, b)};
  const std::vector<Bytes> in0 = in;
  Bytes o = guarded_output(t, at.o_elements()), lse = guarded_output(DType::F32, a.lse.size());

  const auto launch = [&](const std::vector<unsigned char*>& image, void* stream) {
    MergeProblem q = at.p;
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
  launch_on_images("merge kernel '" + k.name() + "'", k.where() == Where::Device,
                   {&in[0], &in[1], &in[2], &in[3], &o, &lse}, launch);
  const char* inputs[] = {"o_a", "lse_a", "o_b", "lse_b"};
  for (std::size_t i = 0; i < in.size(); ++i)
    if (in[i] != in0[i]) throw KernelFailure(who + "modified its input " + inputs[i]);
  return read_back(who, at, lse, o);
}

}  // namespace osvs
