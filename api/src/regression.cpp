// Regression files of every kind (osvs/api/regression.h): written once over the kind, its case
// through case_json.h.
#include "osvs/api/regression.h"

#include "case_json.h"
#include "json_values.h"

namespace osvs {
namespace {

using nlohmann::json;

/// "osvs_row_regression", "osvs_merge_regression": the format key of kind K's files.
template <class K>
std::string format_key() {
  return std::string("osvs_") + K::name + "_regression";
}

}  // namespace

template <class K>
std::string to_json(const Regression<K>& r) {
  return api::regression_json(format_key<K>().c_str(), r, api::case_json(r.input)).dump(1) + "\n";
}

template <class K>
Regression<K> regression_from_json(const std::string& text) {
  Regression<K> r;
  const json in = api::parse_regression(text, format_key<K>().c_str(), K::name, r);
  if (!K::find_law(r.law))
    throw std::runtime_error("field 'law': no " + std::string(K::name) + " law named '" + r.law +
                             "'");
  api::read_case(in, r.input);
  return r;
}

std::string regression_kind(const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  std::string kind;
  if (!j.is_object()) return kind;
  for_each_kind([&](auto k) {
    using K = decltype(k);
    if (kind.empty() && j.contains(format_key<K>())) kind = K::name;
  });
  return kind;
}

template <class K>
std::filesystem::path write_regression(const Regression<K>& r, const std::filesystem::path& root) {
  return api::write_regression_file(root, r.kernel, r.law, api::case_json(r.input), to_json(r));
}

template <class K>
std::vector<std::pair<std::filesystem::path, Regression<K>>> read_regressions(
    const std::filesystem::path& root, const std::string& kernel) {
  return api::read_regression_files<Regression<K>>(root, kernel, regression_from_json<K>);
}

template <class K>
std::string replay_regression(const typename K::Kernel& k, const Regression<K>& r) {
  const typename K::Law* law = K::find_law(r.law);
  if (!law) return "no " + std::string(K::name) + " law named '" + r.law + "'";
  const Verdict v = K::check(*law, k, r.input);
  if (is_not_judged(v)) return "the law could not judge the case: " + v.explanation;
  if (v.holds() == r.expect_holds) return "";
  return r.expect_holds ? "the law fails again: " + v.explanation
                        : "the documented defect no longer shows (the law holds): update the "
                          "file's expectation if the kernel was fixed";
}

std::string regression_provenance(const std::string& found_by) {
  return api::provenance(found_by);
}

#define OSVS_REGRESSION_OF_KIND(K)                                                           \
  template std::string to_json(const Regression<K>&);                                        \
  template Regression<K> regression_from_json<K>(const std::string&);                        \
  template std::filesystem::path write_regression(const Regression<K>&,                      \
                                                  const std::filesystem::path&);             \
  template std::vector<std::pair<std::filesystem::path, Regression<K>>> read_regressions<K>( \
      const std::filesystem::path&, const std::string&);                                     \
  template std::string replay_regression<K>(const K::Kernel&, const Regression<K>&);
OSVS_REGRESSION_OF_KIND(RowKind)
OSVS_REGRESSION_OF_KIND(MergeKind)
OSVS_REGRESSION_OF_KIND(AttentionKind)
OSVS_REGRESSION_OF_KIND(ReductionKind)
OSVS_REGRESSION_OF_KIND(RowwiseKind)
OSVS_REGRESSION_OF_KIND(CombineOperatorKind)
#undef OSVS_REGRESSION_OF_KIND

}  // namespace osvs
