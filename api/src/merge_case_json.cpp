#include "case_json.h"
#include "json_values.h"

namespace osvs::api {
namespace {

using nlohmann::json;

json states_json(const AttnStates& s) {
  return {{"rows", s.rows},
          {"head_dim", s.head_dim},
          {"o_type", to_string(s.o_type)},
          {"lse", floats(s.lse)},
          {"o", floats(s.o)}};
}

AttnStates states_of(const json& j) {
  AttnStates s;
  s.rows = get<std::int64_t>(j, "rows");
  s.head_dim = get<int>(j, "head_dim");
  const auto type = parse_dtype(get<std::string>(j, "o_type"));
  if (!type) throw std::runtime_error("field 'o_type': not f32, bf16 or f16");
  s.o_type = *type;
  s.lse = floats_of(field(j, "lse"), "input.parts[].lse");
  s.o = floats_of(field(j, "o"), "input.parts[].o");
  validate(s, s);
  return s;
}

}  // namespace

json case_json(const MergeCase& c) {
  json parts = json::array();
  for (const AttnStates& p : c.parts) parts.push_back(states_json(p));
  json out = {{"base", to_string(c.base)},
              {"parts", parts},
              {"tree_choices", c.tree_choices},
              {"other_choices", c.other_choices}};
  // Written only when not the default, so files from before it (and their ids) stay as they were.
  if (c.shape != MergeShape{})
    out["shape"] = {
        {"heads", c.shape.heads}, {"head_pad", c.shape.head_pad}, {"token_pad", c.shape.token_pad}};
  return out;
}

void read_case(const json& in, MergeCase& c) {
  const auto base = parse_lse_base(get<std::string>(in, "base"));
  if (!base) throw std::runtime_error("field 'input.base': not e or 2");
  c.base = *base;
  for (const json& p : field(in, "parts")) c.parts.push_back(states_of(p));
  if (c.parts.size() < 2) throw std::runtime_error("field 'input.parts': fewer than two");
  for (const AttnStates& p : c.parts) validate(c.parts[0], p);
  c.tree_choices = get<std::vector<std::int64_t>>(in, "tree_choices");
  c.other_choices = get<std::vector<std::int64_t>>(in, "other_choices");
  if (in.contains("shape")) {
    const json& shape = in["shape"];
    c.shape = {get<std::int64_t>(shape, "heads"), get<std::int64_t>(shape, "head_pad"),
               get<std::int64_t>(shape, "token_pad")};
    if (c.shape.heads < 1 || c.parts[0].rows % c.shape.heads != 0 || c.shape.head_pad < 0 ||
        c.shape.token_pad < 0)
      throw std::runtime_error("field 'input.shape': heads must divide the rows, pads >= 0");
  }
}

}  // namespace osvs::api
