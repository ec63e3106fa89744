// Pieces shared by the audit's JSON documents (audit.json, worst_cases.json, summary.json).
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "osvs/audit/kernel_audit.h"
#include "osvs/audit/report.h"

namespace osvs::audit {

using json = nlohmann::ordered_json;

/// JSON has no infinity: an infinite ratio (a non-zero error where the bound is 0) is a string
/// ("inf", "-inf", "nan"); number_of reads either form back (std::runtime_error otherwise).
json number(double v);
double number_of(const json& j);

/// commit, date, executor, device, nvcc.
json provenance(const Provenance& p);

/// An element with its row, floats as hex.
json element(const WorstElement& w, std::int64_t row);

/// Every wall-clock number of a run: sweep, search, total, throughput.
json timing(const AuditReport& r);

/// The planned configurations a time budget left out, each as describe() names it.
json not_run_list(const AuditReport& r);

/// The attention section's laws: per law its cases, vacuous cases, worst tightness, violations,
/// first violation and every case's tightness in generation order (the plot and the shard merge
/// read them).
json attention_laws_json(const AttentionAudit& a);

/// rounds, and seconds when the search was limited by wall time.
json search_budget(const SearchBudget& b);

/// A record whose JSON form is one list of its fields, which both writes and reads it (the two
/// cannot drift apart). For a record type R, `void json_fields(RecordOf<R> auto& r, auto& io)`
/// (found by argument-dependent lookup) calls, in the document's order,
///   io("key", r.member)                  a field stored as it is;
///   io("key", r.member, write, read)     a field with a form of its own in this document
///                                        (json write(const T&), T read(const json&));
///   io.derived("key", [&] { return v; }) a value the writer computes and the reader leaves to
///                                        the record to recompute (a verdict).
/// record_json writes a record, record_of reads one back (nlohmann::json::exception on a missing
/// key or a wrong type). A field's value goes through json_value / read_value: a double as
/// number() (inf and nan survive), a vector element by element, a record by its own fields,
/// anything else as nlohmann writes it; a type with a form of its own overloads both, next to the
/// type's records.
template <class T, class R>
concept RecordOf = std::same_as<std::remove_const_t<T>, R>;

template <class T>
inline constexpr bool kIsVector = false;
template <class T, class A>
inline constexpr bool kIsVector<std::vector<T, A>> = true;

template <class T>
json record_json(const T& r);

template <class T>
void read_value(const json& j, T& v);

template <class T>
json json_value(const T& v) {
  static_assert(!std::same_as<T, float>, "a float field needs a form of its own (a hex float)");
  if constexpr (std::same_as<T, double>)
    return number(v);
  else if constexpr (kIsVector<T>) {
    json a = json::array();
    for (const auto& e : v) a.push_back(json_value(e));
    return a;
  } else if constexpr (std::is_class_v<T> && !std::same_as<T, std::string>)
    return record_json(v);
  else
    return v;
}

class FieldWriter {
 public:
  template <class T>
  void operator()(const char* key, const T& v) {
    j_[key] = json_value(v);
  }
  template <class T, class Write, class Read>
  void operator()(const char* key, const T& v, const Write& write, const Read&) {
    j_[key] = write(v);
  }
  template <class F>
  void derived(const char* key, const F& value) {
    j_[key] = value();
  }
  json take() { return std::move(j_); }

 private:
  json j_ = json::object();
};

class FieldReader {
 public:
  explicit FieldReader(const json& j) : j_(j) {}
  template <class T>
  void operator()(const char* key, T& v) const {
    read_value(j_.at(key), v);
  }
  template <class T, class Write, class Read>
  void operator()(const char* key, T& v, const Write&, const Read& read) const {
    v = read(j_.at(key));
  }
  template <class F>
  void derived(const char*, const F&) const {}

 private:
  const json& j_;
};

template <class T>
json record_json(const T& r) {
  FieldWriter w;
  json_fields(r, w);
  return w.take();
}

template <class T>
T record_of(const json& j) {
  T r;
  read_value(j, r);
  return r;
}

template <class T>
void read_value(const json& j, T& v) {
  static_assert(!std::same_as<T, float>, "a float field needs a form of its own (a hex float)");
  if constexpr (std::same_as<T, double>)
    v = number_of(j);
  else if constexpr (kIsVector<T>) {
    v.clear();
    for (const json& e : j) {
      typename T::value_type x;
      read_value(e, x);
      v.push_back(std::move(x));
    }
  } else if constexpr (std::is_class_v<T> && !std::same_as<T, std::string>) {
    const FieldReader r(j);
    json_fields(v, r);
  } else
    v = j.get<T>();
}

/// A law's verdict on a configuration: a field of audit.json's configurations and the shard
/// file's.
void json_fields(RecordOf<LawResult> auto& l, auto& io) {
  io("property", l.property);
  io("exact", l.exact);
  io("claimed", l.claimed);
  io("applies", l.applies);
  io("holds", l.holds);
  io("error", l.error);
  io("explanation", l.explanation);
}

}  // namespace osvs::audit

namespace osvs {

/// A law's outcome (audit_law.h): a field of the plugin audit's records, the attention kernels'
/// and the determinism certificate's (in LawOutcome's namespace, where record_json finds it).
void json_fields(audit::RecordOf<LawOutcome> auto& l, auto& io) {
  io("law", l.law);
  io("status", l.status);
  io("detail", l.detail);
  io("asks", l.asks);
  io("cases", l.cases);
  io("vacuous", l.vacuous);
  io("shape_classes", l.shape_classes);
  io("minimal_case", l.minimal_case);
}

}  // namespace osvs
