#include "osvs/api/merge_runner.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <thread>
#include <utility>
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

/// Where k's images hold rows x head_dim components of type t laid out by `shape`.
Placement placement(const MergeKernel& k, std::int64_t rows, int head_dim, DType t, LseBase base,
                    const MergeShape& shape) {
  if (shape.heads < 1 || rows % shape.heads != 0)
    throw std::invalid_argument(std::to_string(shape.heads) + " heads do not divide " +
                                std::to_string(rows) + " rows");
  if (!k.takes_head_dim(head_dim))
    throw std::invalid_argument("merge kernel '" + k.name() + "' does not take head_dim " +
                                std::to_string(head_dim));
  if (std::find(k.o_types().begin(), k.o_types().end(), t) == k.o_types().end())
    throw std::invalid_argument("merge kernel '" + k.name() + "' does not declare o type " +
                                to_string(t));
  Placement out;
  MergeProblem& p = out.p;
  p.rows = rows;
  p.head_dim = head_dim;
  p.o_type = t;
  p.base = base;
  p.heads = shape.heads;
  p.lse_layout = k.lse_layout();
  const bool padded = k.o_strided();
  p.o_head_stride = head_dim + (padded ? shape.head_pad : 0);
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

/// Output row r's lse, after checking that it was written.
float read_lse(const std::string& who, const Placement& at, const Bytes& lse, std::int64_t r) {
  const unsigned char* lb = lse.data() + kGuardBytes + at.lse_index(r) * sizeof(float);
  if (is_sentinel(DType::F32, lb))
    throw KernelFailure(who + "left lse[" + std::to_string(r) + "] unwritten");
  float out = 0;
  std::memcpy(&out, lb, sizeof out);
  return out;
}

/// Output row r's o components into out, after checking that each was written.
void read_o(const std::string& who, const Placement& at, const Bytes& o, std::int64_t r,
            float* out) {
  const MergeProblem& p = at.p;
  const std::size_t es = size_of(p.o_type);
  for (int c = 0; c < p.head_dim; ++c) {
    const unsigned char* ob = o.data() + kGuardBytes + at.o_index(r, c) * es;
    if (is_sentinel(p.o_type, ob))
      throw KernelFailure(who + "left o[" + std::to_string(r) + "]" +
                          (p.head_dim > 1 ? "[" + std::to_string(c) + "]" : "") + " unwritten");
    load_from(p.o_type, ob, out + c, 1);
  }
}

/// The outputs read back in row order, after checking that every lse and o component was
/// written and the o padding was not.
AttnStates read_back(const std::string& who, const Placement& at, const Bytes& lse,
                     const Bytes& o) {
  const MergeProblem& p = at.p;
  check_guard_zones(who, "lse", DType::F32, lse);
  check_guard_zones(who, "o", p.o_type, o);
  AttnStates out{p.rows, p.head_dim, p.o_type, std::vector<float>(static_cast<std::size_t>(p.rows)),
                 std::vector<float>(static_cast<std::size_t>(p.rows * p.head_dim))};
  for (std::int64_t r = 0; r < p.rows; ++r)
    out.lse[static_cast<std::size_t>(r)] = read_lse(who, at, lse, r);
  std::vector<bool> is_o(at.o_elements(), false);
  for (std::int64_t r = 0; r < p.rows; ++r) {
    read_o(who, at, o, r, out.o.data() + r * p.head_dim);
    for (int c = 0; c < p.head_dim; ++c) is_o[at.o_index(r, c)] = true;
  }
  const std::size_t es = size_of(p.o_type);
  for (std::size_t i = 0; i < is_o.size(); ++i)
    if (!is_o[i] && !is_sentinel(p.o_type, o.data() + kGuardBytes + i * es))
      throw KernelFailure(who + "wrote into the padding of o (element " + std::to_string(i) +
                          ": head stride " + std::to_string(p.o_head_stride) + ", token stride " +
                          std::to_string(p.o_token_stride) + ")");
  return out;
}

/// One launch of k on its images: o_a, lse_a, o_b, lse_b, then the guarded outputs o and lse.
void launch_merge(const MergeKernel& k, const Placement& at, const std::vector<Bytes*>& images) {
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
  launch_on_images("merge kernel '" + k.name() + "'", k.where() == Where::Device, images, launch);
}

/// The o and lse images of the operand whose rows `values` gives, written by every core.
std::pair<Bytes, Bytes> generated_operand(const Placement& at, const MergeRowValues& values) {
  const MergeProblem& p = at.p;
  const std::size_t es = size_of(p.o_type);
  Bytes o(at.o_elements() * es), lse(static_cast<std::size_t>(p.rows) * sizeof(float));
  // The padding holds the sentinel (a kernel that reads it gets a signalling NaN), as staged_o's.
  if (at.o_elements() != static_cast<std::size_t>(p.rows * p.head_dim))
    fill_sentinel(p.o_type, o.data(), o.size());
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  const std::int64_t per = (p.rows + threads - 1) / threads;
  std::vector<std::thread> workers;
  for (unsigned w = 0; w < threads; ++w)
    workers.emplace_back([&, w] {
      std::vector<float> row(static_cast<std::size_t>(p.head_dim));
      float l = 0;
      for (std::int64_t r = w * per; r < std::min(p.rows, (w + 1) * per); ++r) {
        values(r, &l, row.data());
        std::memcpy(lse.data() + at.lse_index(r) * sizeof(float), &l, sizeof l);
        store_as(p.o_type, row.data(), o.data() + at.o_index(r, 0) * es, p.head_dim);
      }
    });
  for (std::thread& t : workers) t.join();
  return {std::move(o), std::move(lse)};
}

/// Row r of the operand `what` in its images is what `values` gives: std::invalid_argument where
/// a given value is not exact in the o type, KernelFailure where the kernel changed the images.
void expect_operand_row(const std::string& who, const Placement& at, const MergeRowValues& values,
                        std::int64_t r, const Bytes& o, const Bytes& lse, const char* what) {
  const MergeProblem& p = at.p;
  std::vector<float> given(static_cast<std::size_t>(p.head_dim)), held(given.size());
  float given_lse = 0, held_lse = 0;
  values(r, &given_lse, given.data());
  for (std::size_t c = 0; c < given.size(); ++c)
    if (round_to(p.o_type, given[c]) != given[c])
      throw std::invalid_argument(std::string(what) + "[" + std::to_string(r) + "][" +
                                  std::to_string(c) + "] is not exactly a " + to_string(p.o_type) +
                                  " value");
  load_from(p.o_type, o.data() + at.o_index(r, 0) * size_of(p.o_type), held.data(), p.head_dim);
  std::memcpy(&held_lse, lse.data() + at.lse_index(r) * sizeof(float), sizeof held_lse);
  if (held != given || std::memcmp(&held_lse, &given_lse, sizeof held_lse) != 0)
    throw KernelFailure(who + "modified its input " + what + " (row " + std::to_string(r) + ")");
}

}  // namespace

bool runnable(const MergeKernel& k, std::string* why_not) {
  return k.where() == Where::Host || device_available(why_not);
}

AttnStates run_merge_kernel(const MergeKernel& k, const AttnStates& a, const AttnStates& b,
                            LseBase base, const MergeShape& shape) {
  validate(a, b);
  const DType t = a.o_type;
  const Placement at = placement(k, a.rows, a.head_dim, t, base, shape);
  // Each input in an image of its own (so each starts aligned as an allocation does), compared
  // byte for byte after the launch.
  std::vector<Bytes> in{staged_o(at, a, "o_a"), staged_lse(at, a), staged_o(at, b, "o_b"),
                        staged_lse(at, b)};
  const std::vector<Bytes> in0 = in;
  Bytes o = guarded_output(t, at.o_elements()), lse = guarded_output(DType::F32, a.lse.size());

  const std::string who = "merge kernel '" + k.name() + "' ";
  launch_merge(k, at, {&in[0], &in[1], &in[2], &in[3], &o, &lse});
  const char* inputs[] = {"o_a", "lse_a", "o_b", "lse_b"};
  for (std::size_t i = 0; i < in.size(); ++i)
    if (in[i] != in0[i]) throw KernelFailure(who + "modified its input " + inputs[i]);
  return read_back(who, at, lse, o);
}

std::size_t image_bytes(const MergeKernel& k, const GeneratedMerge& g) {
  const Placement at = placement(k, g.rows, g.head_dim, g.o_type, g.base, g.shape);
  return 3 * (at.o_elements() * size_of(g.o_type) + static_cast<std::size_t>(g.rows) * 4) +
         4 * kGuardBytes;
}

AttnStates run_generated_merge(const MergeKernel& k, const GeneratedMerge& g,
                               const std::vector<std::int64_t>& judged) {
  const Placement at = placement(k, g.rows, g.head_dim, g.o_type, g.base, g.shape);
  auto [o_a, lse_a] = generated_operand(at, g.a);
  auto [o_b, lse_b] = generated_operand(at, g.b);
  Bytes o = guarded_output(g.o_type, at.o_elements()),
        lse = guarded_output(DType::F32, static_cast<std::size_t>(g.rows));
  launch_merge(k, at, {&o_a, &lse_a, &o_b, &lse_b, &o, &lse});
  const std::string who = "merge kernel '" + k.name() + "' ";
  check_guard_zones(who, "lse", DType::F32, lse);
  check_guard_zones(who, "o", g.o_type, o);
  const auto n = static_cast<std::int64_t>(judged.size());
  AttnStates out{n, g.head_dim, g.o_type, std::vector<float>(judged.size()),
                 std::vector<float>(static_cast<std::size_t>(n * g.head_dim))};
  for (std::int64_t j = 0; j < n; ++j) {
    const std::int64_t r = judged[static_cast<std::size_t>(j)];
    if (r < 0 || r >= g.rows)
      throw std::invalid_argument("row " + std::to_string(r) + " is not one of the launch's " +
                                  std::to_string(g.rows));
    expect_operand_row(who, at, g.a, r, o_a, lse_a, "o_a / lse_a");
    expect_operand_row(who, at, g.b, r, o_b, lse_b, "o_b / lse_b");
    out.lse[static_cast<std::size_t>(j)] = read_lse(who, at, lse, r);
    read_o(who, at, o, r, out.o.data() + j * g.head_dim);
  }
  return out;
}

}  // namespace osvs
