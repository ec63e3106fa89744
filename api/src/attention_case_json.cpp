// The attention case as the "input" of its regression files (case_json.h).
#include "case_json.h"
#include "json_values.h"

namespace osvs::api {
namespace {

using nlohmann::json;

/// The enum `parse` reads from field `name` of j; std::runtime_error naming it otherwise.
template <class Parse>
auto enum_of(const json& j, const char* name, Parse parse) {
  const auto v = parse(get<std::string>(j, name));
  if (!v) throw std::runtime_error(std::string("field '") + name + "': not a known value");
  return *v;
}

/// Field `name` of the case `in`: one float, an array of one exact hex float (the case's scalars:
/// scale, softcap, the fp8 scales); std::runtime_error naming the field otherwise.
float one_float(const json& in, const char* name) {
  const std::vector<float> v = floats_of(field(in, name), std::string("input.") + name);
  if (v.size() != 1) throw std::runtime_error(std::string("field '") + name + "': one float");
  return v[0];
}

}  // namespace

json case_json(const AttentionCase& c) {
  json seqs = json::array();
  for (const AttentionSequence& s : c.seqs) seqs.push_back({s.q_len, s.k_len});
  json out = {{"seqs", seqs},
              {"heads_q", c.heads_q},
              {"heads_kv", c.heads_kv},
              {"head_dim_qk", c.head_dim_qk},
              {"head_dim_v", c.head_dim_v},
              {"in_type", to_string(c.in_type)},
              {"scale", floats({c.scale})},
              {"softcap", floats({c.softcap})},
              {"sinks", floats(c.sinks)},
              {"alibi_slopes", floats(c.alibi_slopes)},
              {"mask",
               {{"kind", to_string(c.mask.kind)},
                {"align", to_string(c.mask.align)},
                {"window_left", c.mask.window_left},
                {"window_right", c.mask.window_right}}},
              {"base", to_string(c.base)},
              {"page_size", c.page_size},
              {"page_order", c.page_order},
              {"kv_splits", c.kv_splits},
              {"q", floats(c.q)},
              {"k", floats(c.k)},
              {"v", floats(c.v)},
              {"dout", floats(c.dout)}};
  // fp8 K/V only where the case has them: every other case's file is what it was before them.
  if (c.kv_type) {
    out["kv_type"] = to_string(*c.kv_type);
    out["k_scale"] = floats({c.k_scale});
    out["v_scale"] = floats({c.v_scale});
  }
  return out;
}

void read_case(const json& in, AttentionCase& c) {
  c.seqs.clear();
  for (const json& s : field(in, "seqs")) {
    if (!s.is_array() || s.size() != 2)
      throw std::runtime_error("field 'seqs': [q_len, k_len] pairs");
    c.seqs.push_back({s[0].get<std::int64_t>(), s[1].get<std::int64_t>()});
  }
  c.heads_q = get<int>(in, "heads_q");
  c.heads_kv = get<int>(in, "heads_kv");
  c.head_dim_qk = get<int>(in, "head_dim_qk");
  c.head_dim_v = get<int>(in, "head_dim_v");
  const auto type = parse_dtype(get<std::string>(in, "in_type"));
  if (!type) throw std::runtime_error("field 'in_type': not f32, bf16 or f16");
  c.in_type = *type;
  c.scale = one_float(in, "scale");
  c.softcap = one_float(in, "softcap");
  c.sinks = floats_of(field(in, "sinks"), "input.sinks");
  // (files written before ALiBi have no slopes: no bias)
  if (in.contains("alibi_slopes"))
    c.alibi_slopes = floats_of(in.at("alibi_slopes"), "input.alibi_slopes");
  const json& m = field(in, "mask");
  c.mask.kind = enum_of(m, "kind", parse_mask_kind);
  c.mask.align = enum_of(m, "align", parse_mask_align);
  c.mask.window_left = get<std::int64_t>(m, "window_left");
  c.mask.window_right = get<std::int64_t>(m, "window_right");
  const auto base = parse_lse_base(get<std::string>(in, "base"));
  if (!base) throw std::runtime_error("field 'base': not e or 2");
  c.base = *base;
  c.page_size = get<int>(in, "page_size");
  c.page_order = get<std::vector<std::int64_t>>(in, "page_order");
  // (files written before split parameters have none: the kernel's own choice)
  c.kv_splits = in.contains("kv_splits") ? get<int>(in, "kv_splits") : 0;
  // fp8 K/V (absent: K/V in the in type, files written before them included): the type and
  // both scales, or none of them.
  c.kv_type.reset();
  c.k_scale = c.v_scale = 1;
  if (in.contains("kv_type")) {
    const auto kv = parse_dtype(get<std::string>(in, "kv_type"));
    if (!kv || !is_fp8(*kv)) throw std::runtime_error("field 'kv_type': not e4m3 or e5m2");
    c.kv_type = *kv;
    c.k_scale = one_float(in, "k_scale");
    c.v_scale = one_float(in, "v_scale");
  } else if (in.contains("k_scale") || in.contains("v_scale")) {
    throw std::runtime_error(
        "fields 'k_scale' / 'v_scale' without 'kv_type': scales belong to fp8 K/V");
  }
  c.q = floats_of(field(in, "q"), "input.q");
  c.k = floats_of(field(in, "k"), "input.k");
  c.v = floats_of(field(in, "v"), "input.v");
  // (a forward's case, and files written before backward kernels: no dout)
  c.dout = in.contains("dout") ? floats_of(in.at("dout"), "input.dout") : std::vector<float>{};
  if (const std::string why = attention_case_problem(c); !why.empty())
    throw std::runtime_error("field 'input': " + why);
}

}  // namespace osvs::api
