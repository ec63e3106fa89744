#include "py_attention_kernel.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "osvs/api/registry.h"
#include "py_arrays.h"
#include "py_declaration.h"
#include "py_interrupt.h"

namespace osvs::python {
namespace {

nb::list ints(const std::int32_t* x, std::int64_t n) {
  nb::list out;
  for (std::int64_t i = 0; i < n; ++i) out.append(x[i]);
  return out;
}

/// The heads and head_dims of a launch or a case, and its input type: heads_q, heads_kv,
/// head_dim_qk, head_dim_v, dtype.
template <class LaunchOrCase>
void add_heads(nb::dict& d, const LaunchOrCase& x) {
  d["heads_q"] = x.heads_q;
  d["heads_kv"] = x.heads_kv;
  d["head_dim_qk"] = x.head_dim_qk;
  d["head_dim_v"] = x.head_dim_v;
  d["dtype"] = to_string(x.in_type);
}

/// A backward kernel's launch: dout, o and lse to Python, (dq, dk, dv[, delta][, dsinks]) back
/// (dsinks where the launch has sinks).
void call_python_backward(const nb::callable& call, const AttentionProblem& p, nb::object q,
                          nb::object k, nb::object v, nb::list cu_q, nb::list cu_k, nb::dict meta) {
  const std::int64_t o_cols = std::int64_t{p.heads_q} * p.head_dim_v;
  const nb::object dout = rows_array(p.dout_ptr, p.in_type, p.total_q, o_cols, o_cols);
  meta["dout"] = dout;
  meta["o"] = rows_array(p.o_ptr, p.out_type, p.total_q, o_cols, o_cols);
  meta["lse"] = p.lse != nullptr
                    ? rows_array(p.lse, DType::F32, 1, p.total_q * p.heads_q, p.total_q * p.heads_q)
                    : nb::none();
  const nb::object result = call(q, k, v, cu_q, cu_k, nb::none(), meta);
  const nb::tuple out = nb::cast<nb::tuple>(result);
  const std::size_t delta_at = 3, dsinks_at = p.delta != nullptr ? 4 : 3;
  if (out.size() != dsinks_at + (p.dsinks != nullptr ? 1 : 0))
    throw std::runtime_error(std::string("the kernel's result: expected (dq, dk, dv") +
                             (p.delta != nullptr ? ", delta" : "") +
                             (p.dsinks != nullptr ? ", dsinks" : "") + ")");
  const std::int64_t q_cols = std::int64_t{p.heads_q} * p.head_dim_qk;
  const std::int64_t k_cols = std::int64_t{p.heads_kv} * p.head_dim_qk;
  const std::int64_t v_cols = std::int64_t{p.heads_kv} * p.head_dim_v;
  copy_rows_out(out[0], p.dq_ptr, p.in_type, p.total_q, q_cols, q_cols, "the kernel's dq");
  copy_rows_out(out[1], p.dk_ptr, p.in_type, p.total_k, k_cols, k_cols, "the kernel's dk");
  copy_rows_out(out[2], p.dv_ptr, p.in_type, p.total_k, v_cols, v_cols, "the kernel's dv");
  if (p.delta != nullptr)
    copy_vector_out(out[delta_at], p.delta, p.total_q * p.heads_q, "the kernel's delta");
  if (p.dsinks != nullptr)
    copy_vector_out(out[dsinks_at], p.dsinks, p.heads_q, "the kernel's dsinks");
  if (!rows_unchanged(dout, p.dout_ptr, p.in_type, p.total_q, o_cols, o_cols))
    throw std::runtime_error("the kernel modified its input dout");
}

void call_python(const nb::callable& call, const AttentionProblem& p, bool writes_lse) {
  nb::gil_scoped_acquire gil;
  call_unless_interrupted([&] {
    const std::int64_t kv_tokens =
        p.page_size > 0 ? std::int64_t{p.num_pages} * p.page_size : p.total_k;
    const std::int64_t q_cols = std::int64_t{p.heads_q} * p.head_dim_qk;
    const std::int64_t k_cols = std::int64_t{p.heads_kv} * p.head_dim_qk;
    const std::int64_t v_cols = std::int64_t{p.heads_kv} * p.head_dim_v;
    const std::int64_t o_cols = std::int64_t{p.heads_q} * p.head_dim_v;
    const nb::object q = rows_array(p.q_ptr, p.in_type, p.total_q, q_cols, q_cols);
    // (K/V in the in type, or fp8 bytes: uint8 arrays, with meta's kv_type and scales)
    const nb::object k = rows_array(p.k_ptr, p.kv_type, kv_tokens, k_cols, k_cols);
    const nb::object v = rows_array(p.v_ptr, p.kv_type, kv_tokens, v_cols, v_cols);
    nb::object table = nb::none();
    if (p.block_table != nullptr) {
      nb::list rows;
      for (int s = 0; s < p.batch; ++s)
        rows.append(ints(p.block_table + s * p.max_pages, p.max_pages));
      table = rows;
    }
    nb::dict meta;
    meta["scale"] = p.scale;
    meta["softcap"] = p.softcap;
    nb::list sinks;
    for (int h = 0; p.sinks != nullptr && h < p.heads_q; ++h) sinks.append(p.sinks[h]);
    meta["sinks"] = p.sinks != nullptr ? nb::object(sinks) : nb::none();
    nb::list slopes;
    for (int h = 0; p.alibi_slopes != nullptr && h < p.heads_q; ++h)
      slopes.append(p.alibi_slopes[h]);
    meta["alibi_slopes"] = p.alibi_slopes != nullptr ? nb::object(slopes) : nb::none();
    meta["mask"] = to_string(p.mask.kind);
    meta["mask_align"] = to_string(p.mask.align);
    meta["window_left"] = p.mask.window_left;
    meta["window_right"] = p.mask.window_right;
    meta["base"] = to_string(p.base);
    meta["page_size"] = p.page_size;
    meta["kv_splits"] = p.kv_splits;
    add_heads(meta, p);
    meta["kv_type"] = to_string(p.kv_type);
    meta["k_scale"] = p.k_scale;
    meta["v_scale"] = p.v_scale;
    const auto inputs_unchanged = [&] {
      if (!rows_unchanged(q, p.q_ptr, p.in_type, p.total_q, q_cols, q_cols) ||
          !rows_unchanged(k, p.k_ptr, p.kv_type, kv_tokens, k_cols, k_cols) ||
          !rows_unchanged(v, p.v_ptr, p.kv_type, kv_tokens, v_cols, v_cols))
        throw std::runtime_error("the kernel modified its input arrays");
    };
    if (p.backward) {
      call_python_backward(call, p, q, k, v, ints(p.cu_seqlens_q, p.batch + 1),
                           ints(p.cu_seqlens_k, p.batch + 1), meta);
      inputs_unchanged();
      return;
    }
    const nb::object result = call(q, k, v, ints(p.cu_seqlens_q, p.batch + 1),
                                   ints(p.cu_seqlens_k, p.batch + 1), table, meta);
    inputs_unchanged();
    if (!writes_lse) {
      copy_rows_out(result, p.o_ptr, p.out_type, p.total_q, o_cols, o_cols, "the kernel's o");
      return;
    }
    const nb::tuple out = nb::cast<nb::tuple>(result);
    if (out.size() != 2) throw std::runtime_error("the kernel's result: expected (o, lse)");
    copy_rows_out(out[0], p.o_ptr, p.out_type, p.total_q, o_cols, o_cols, "the kernel's o");
    copy_vector_out(out[1], p.lse, p.total_q * p.heads_q, "the kernel's lse");
  });
}

DType dtype_of(const std::string& s) {
  const auto t = parse_dtype(s);
  if (!t) throw std::invalid_argument("dtype '" + s + "': f32, bf16 or f16");
  return *t;
}

DType kv_type_of(const std::string& s) {
  const auto t = parse_dtype(s);
  if (!t || !is_fp8(*t)) throw std::invalid_argument("kv_types: '" + s + "': e4m3 or e5m2");
  return *t;
}

MaskKind mask_of(const std::string& s) {
  if (const auto m = parse_mask_kind(s)) return *m;
  throw std::invalid_argument("mask '" + s + "': none, causal or window");
}

AttentionKernel attention_kernel_from_python(const nb::dict& d, nb::callable call) {
  AttentionKernel k(nb::cast<std::string>(d["name"]), Where::Host);
  const std::vector<LseBase> bases = parsed<LseBase>(d, "lse_bases", lse_base_of);
  const std::string align_name = nb::cast<std::string>(d["mask_align"]);
  const auto align = parse_mask_align(align_name);
  if (!align)
    throw std::invalid_argument("mask_align '" + align_name + "': bottom-right or top-left");
  const std::string layout = nb::cast<std::string>(d["lse_layout"]);
  if (layout != "heads_tokens" && layout != "tokens_heads")
    throw std::invalid_argument("lse_layout '" + layout + "': heads_tokens or tokens_heads");
  const std::string empty = nb::cast<std::string>(d["empty_row_lse"]);
  if (empty != "-inf" && empty != "+inf")
    throw std::invalid_argument("empty_row_lse '" + empty + "': -inf or +inf");
  const bool writes_lse = !bases.empty();
  std::vector<int> pages, dims, v_dims;
  for (nb::handle h : nb::cast<nb::list>(d["page_sizes"])) pages.push_back(nb::cast<int>(h));
  for (nb::handle h : nb::cast<nb::list>(d["head_dims"])) dims.push_back(nb::cast<int>(h));
  for (nb::handle h : nb::cast<nb::list>(d["v_head_dims"])) v_dims.push_back(nb::cast<int>(h));
  std::vector<int> split_values;
  for (nb::handle h : nb::cast<nb::list>(d["kv_splits"])) split_values.push_back(nb::cast<int>(h));
  const std::string split_by = nb::cast<std::string>(d["split_by"]);
  const nb::tuple a = nb::cast<nb::tuple>(d["accuracy"]);
  if (a.size() != 6 && a.size() != 7)
    throw std::invalid_argument(
        "accuracy: (o_ulps, o_ulps_per_key, o_per_score, lse_ulps, "
        "lse_ulps_per_key, lse_per_score)");
  k.run([call, writes_lse](const AttentionProblem& p) { call_python(call, p, writes_lse); })
      .in_types(parsed<DType>(d, "in_types", dtype_of))
      .masks(parsed<MaskKind>(d, "masks", mask_of))
      .mask_align(*align)
      .gqa(nb::cast<bool>(d["gqa"]))
      .gqa_bitwise(nb::cast<bool>(d["gqa_bitwise"]))
      .batch_bitwise(nb::cast<bool>(d["batch_bitwise"]))
      .page_bitwise(nb::cast<bool>(d["page_bitwise"]))
      .split_bitwise(nb::cast<bool>(d["split_bitwise"]))
      .chunk_bitwise(nb::cast<bool>(d["chunk_bitwise"]))
      .decode_bitwise(nb::cast<bool>(d["decode_bitwise"]))
      .varlen(nb::cast<bool>(d["varlen"]))
      .page_sizes(pages, nb::cast<bool>(d["paged_only"]))
      .head_dims(dims)
      .v_head_dims(v_dims)
      .min_k_len(nb::cast<std::int64_t>(d["min_k_len"]))
      .softcap(nb::cast<bool>(d["softcap"]))
      .sinks(nb::cast<bool>(d["sinks"]))
      .alibi(nb::cast<bool>(d["alibi"]))
      .square_masks(nb::cast<bool>(d["square_masks"]))
      .empty_row_lse(empty == "-inf" ? EmptyRowLse::NegInf : EmptyRowLse::PosInf)
      .accuracy({nb::cast<double>(a[0]), nb::cast<double>(a[1]), nb::cast<double>(a[2]),
                 nb::cast<double>(a[3]), nb::cast<double>(a[4]), nb::cast<double>(a[5]),
                 a.size() == 7 ? nb::cast<double>(a[6]) : 0.0});
  if (!split_by.empty()) {
    const auto by = parse_kv_split(split_by);
    if (!by) throw std::invalid_argument("split_by '" + split_by + "': count or size");
    k.kv_splits(*by, split_values);
  } else if (!split_values.empty()) {
    throw std::invalid_argument("kv_splits given without split_by (count or size)");
  }
  if (d.contains("kv_types"))
    k.kv_types(parsed<DType>(d, "kv_types", kv_type_of), nb::cast<bool>(d["kv_types_only"]));
  if (writes_lse)
    k.lse(bases,
          layout == "heads_tokens" ? AttnLseLayout::HeadsTokens : AttnLseLayout::TokensHeads);
  if (d.contains("cascade_merge")) k.cascade_merge(nb::cast<std::string>(d["cascade_merge"]));
  if (d.contains("tile_sizes")) {
    std::vector<int> tiles;
    for (nb::handle h : nb::cast<nb::list>(d["tile_sizes"])) tiles.push_back(nb::cast<int>(h));
    k.tile_sizes(tiles);
  }
  if (d.contains("backward") && nb::cast<bool>(d["backward"])) {
    const nb::tuple g = nb::cast<nb::tuple>(d["grad_accuracy"]);
    if (g.size() != 4)
      throw std::invalid_argument("grad_accuracy: (ulps, ulps_per_term, per_score, underflow)");
    k.backward(nb::cast<bool>(d["writes_delta"]))
        .grad_accuracy({nb::cast<double>(g[0]), nb::cast<double>(g[1]), nb::cast<double>(g[2]),
                        nb::cast<double>(g[3])});
  }
  k.value_conventions(conventions_from_python(nb::cast<nb::list>(d["conventions"]), false));
  return declared(std::move(k), d);
}

nb::dict case_dict(const AttentionCase& c) {
  nb::dict d;
  nb::list seqs;
  for (const AttentionSequence& s : c.seqs) seqs.append(nb::make_tuple(s.q_len, s.k_len));
  d["seqs"] = seqs;
  add_heads(d, c);
  if (c.kv_type) {  // fp8 K/V: k and v below are the stored values (true: times the scales)
    d["kv_type"] = to_string(*c.kv_type);
    d["k_scale"] = c.k_scale;
    d["v_scale"] = c.v_scale;
  }
  d["scale"] = c.scale;
  d["mask"] = to_string(c.mask.kind);
  d["window"] = nb::make_tuple(c.mask.window_left, c.mask.window_right);
  d["page_size"] = c.page_size;
  d["page_order"] = c.page_order;
  d["q"] = vector_array(c.q);
  d["k"] = vector_array(c.k);
  d["v"] = vector_array(c.v);
  if (!c.dout.empty()) d["dout"] = vector_array(c.dout);
  if (!c.sinks.empty()) d["sinks"] = vector_array(c.sinks);
  return d;
}

bool contract_missing(const AttentionKernel&) {
  return false;  // an attention kernel's contract is always declared (it has a default)
}

}  // namespace

PythonSide<AttentionKind> python_side(AttentionKind) {
  return {attention_kernel_from_python, case_dict, contract_missing};
}

}  // namespace osvs::python
