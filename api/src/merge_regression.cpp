#include "osvs/api/merge_regression.h"

#include "json_values.h"
#include "osvs/api/merge_runner.h"

namespace osvs {
namespace {

using api::field;
using api::floats;
using api::floats_of;
using api::get;
using nlohmann::json;

constexpr const char* kFormat = "osvs_merge_regression";

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

json input_json(const MergeCase& c) {
  json parts = json::array();
  for (const AttnStates& p : c.parts) parts.push_back(states_json(p));
  return {{"base", to_string(c.base)},
          {"parts", parts},
          {"tree_choices", c.tree_choices},
          {"other_choices", c.other_choices}};
}

}  // namespace

std::string to_json(const MergeRegression& r) {
  return api::regression_json(kFormat, r, input_json(r.input)).dump(1) + "\n";
}

bool is_merge_regression(const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  return j.is_object() && j.contains(kFormat);
}

MergeRegression merge_regression_from_json(const std::string& text) {
  MergeRegression r;
  const json in = api::parse_regression(text, kFormat, "merge", r);
  if (!find_merge_law(r.law)) throw std::runtime_error("field 'law': no merge law '" + r.law + "'");
  const auto base = parse_lse_base(get<std::string>(in, "base"));
  if (!base) throw std::runtime_error("field 'input.base': not e or 2");
  r.input.base = *base;
  for (const json& p : field(in, "parts")) r.input.parts.push_back(states_of(p));
  if (r.input.parts.size() < 2) throw std::runtime_error("field 'input.parts': fewer than two");
  for (const AttnStates& p : r.input.parts) validate(r.input.parts[0], p);
  r.input.tree_choices = get<std::vector<std::int64_t>>(in, "tree_choices");
  r.input.other_choices = get<std::vector<std::int64_t>>(in, "other_choices");
  return r;
}

std::filesystem::path write_merge_regression(const MergeRegression& r,
                                             const std::filesystem::path& root) {
  return api::write_regression_file(root, r.kernel, r.law, input_json(r.input), to_json(r));
}

std::vector<std::pair<std::filesystem::path, MergeRegression>> read_merge_regressions(
    const std::filesystem::path& root, const std::string& kernel) {
  return api::read_regression_files<MergeRegression>(root, kernel, merge_regression_from_json);
}

std::string replay_merge_regression(const MergeKernel& k, const MergeRegression& r) {
  const MergeLaw* law = find_merge_law(r.law);
  if (!law) return "no merge law named '" + r.law + "'";
  Verdict v;
  try {
    v = law->check(fit_to(k, r.input), merge_under_test(k));
  } catch (const KernelFailure& e) {
    v = Verdict::fail(e.what());
  }
  if (v.status == VerdictStatus::Vacuous || v.status == VerdictStatus::NotRun)
    return "the law could not judge the case: " + v.explanation;
  if (v.fails() != r.expect_holds) return "";
  return r.expect_holds ? "the law fails again: " + v.explanation
                        : "the documented defect no longer shows (the law holds): update the "
                          "file's expectation if the kernel was fixed";
}

}  // namespace osvs
