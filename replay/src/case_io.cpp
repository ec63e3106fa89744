// JSON form of Case, Verdict and RegressionRecord. Writers and readers sit next to each other, one
// pair per type, so a field added to one is visibly missing from the other.
#include "osvs/replay/case_io.h"

#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "json_field.h"
#include "osvs/kernels/dtype.h"
#include "osvs/kernels/softmax_mutants.h"
#include "osvs/replay/hex_float.h"

namespace osvs {
namespace {

using json = nlohmann::ordered_json;  // files keep the fields in the order written here
using detail::JsonField;

json floats_json(const std::vector<float>& xs) {
  json a = json::array();
  for (float x : xs) a.push_back(format_hex_float(x));
  return a;
}

// --- State
json to_json(const State& s) {
  return {{"m", format_hex_float(s.m)}, {"d", format_hex_float(s.d)}};
}

State state_from(const JsonField& f) {
  f.only_keys({"m", "d"});
  return State{f.at("m").as_float(), f.at("d").as_float()};
}

// --- the states' format (Case::state_format): a floating type, every state field a value of it
DType state_format_from(const JsonField& format, const JsonField& input) {
  const std::string name = format.as_string();
  const std::optional<DType> t = parse_dtype(name);
  if (!t || is_integer(*t) || is_fp8(*t))
    format.fail("expected \"f32\", \"bf16\" or \"f16\", got \"" + name + "\"");
  const std::vector<JsonField> states = input.at("states").elements();
  for (const JsonField& s : states)
    for (const char* field : {"m", "d"}) {
      const JsonField x = s.at(field);
      if (!is_value_of(*t, x.as_float()))
        x.fail(x.as_string() + " is no " + name + " value, as state_format \"" + name +
               "\" requires");
    }
  return *t;
}

// --- HarnessCase (a schedule)
json to_json(const HarnessCase& h) {
  json merges = json::array();
  for (const Merge& m : h.merges) merges.push_back({{"dst", m.dst}, {"src", m.src}});
  return {{"row", floats_json(h.row)},
          {"chunk_offsets", h.chunk_offsets},
          {"slot_chunk", h.slot_chunk},
          {"merges", merges},
          {"root", h.root}};
}

HarnessCase schedule_from(const JsonField& f) {
  f.only_keys({"row", "chunk_offsets", "slot_chunk", "merges", "root"});
  HarnessCase h;
  h.row = f.at("row").as_floats();
  h.chunk_offsets = f.at("chunk_offsets").as_ints();
  h.slot_chunk = f.at("slot_chunk").as_int32s();
  for (const JsonField& m : f.at("merges").elements()) {
    m.only_keys({"dst", "src"});
    h.merges.push_back(Merge{m.at("dst").as_int32(), m.at("src").as_int32()});
  }
  h.root = f.at("root").as_int32();
  return h;
}

// --- Case
json to_json(const Case& c) {
  json rows = json::array();
  for (const auto& r : c.rows) rows.push_back(floats_json(r));
  json states = json::array();
  for (const State& s : c.states) states.push_back(to_json(s));
  json schedules = json::array();
  for (const HarnessCase& h : c.schedules) schedules.push_back(to_json(h));
  json doc = {
      {"kernel", to_string(c.kernel)}, {"combine", to_string(c.combine)}, {"block", c.block}};
  // Written only for mutation runs, so that the files (and content ids) of the kernels under test
  // stay as they were before the field existed; a reader takes a missing field as no mutant.
  if (!c.mutant.empty()) doc["mutation"] = c.mutant;
  doc["rows"] = rows;
  doc["states"] = states;
  // Written only for states stored in bf16 / fp16, so that the files (and content ids) of float32
  // states stay as they were before the field existed; a reader takes a missing field as f32.
  if (c.state_format != DType::F32) doc["state_format"] = to_string(c.state_format);
  doc["schedules"] = schedules;
  doc["permutation"] = c.permutation;
  doc["shift"] = format_hex_float(c.shift);
  doc["batch_position"] = c.batch_position;
  doc["batch_rows"] = c.batch_rows;
  return doc;
}

Case case_from(const JsonField& f) {
  f.only_keys({"kernel", "combine", "block", "mutation", "rows", "states", "state_format",
               "schedules", "permutation", "shift", "batch_position", "batch_rows"});
  Case c;
  const JsonField kernel = f.at("kernel");
  const auto k = parse_kernel(kernel.as_string());
  if (!k) kernel.fail("unknown kernel \"" + kernel.as_string() + "\"");
  c.kernel = *k;
  const JsonField combine = f.at("combine");
  const auto op = parse_combine(combine.as_string());
  if (!op) combine.fail("unknown combine \"" + combine.as_string() + "\"");
  c.combine = *op;
  c.block = f.at("block").as_int32();
  if (f.has("mutation")) {  // a mutant of the softmax-mutant registry (mutation/ fills it)
    const JsonField mutation = f.at("mutation");
    try {
      c.mutant = find_softmax_mutant(mutation.as_string()).name;
    } catch (const std::invalid_argument& e) {
      mutation.fail(e.what());
    }
  }
  for (const JsonField& r : f.at("rows").elements()) c.rows.push_back(r.as_floats());
  for (const JsonField& s : f.at("states").elements()) c.states.push_back(state_from(s));
  if (f.has("state_format")) c.state_format = state_format_from(f.at("state_format"), f);
  for (const JsonField& h : f.at("schedules").elements()) c.schedules.push_back(schedule_from(h));
  c.permutation = f.at("permutation").as_ints();
  c.shift = f.at("shift").as_float();
  c.batch_position = f.at("batch_position").as_int();
  c.batch_rows = f.at("batch_rows").as_int();
  return c;
}

// --- Verdict
json to_json(const Verdict& v) {
  json evidence = json::array();
  for (const Evidence& e : v.evidence)
    evidence.push_back({{"what", e.what},
                        {"observed", format_hex_double(e.observed)},
                        {"reference", format_hex_double(e.reference)},
                        {"ulp_error", format_hex_double(e.ulp_error)},
                        {"bound", format_hex_double(e.bound)}});
  json j = {{"holds", v.holds()}, {"explanation", v.explanation}, {"evidence", evidence}};
  if (!v.judged()) j["status"] = to_string(v.status);  // vacuous or not run: never a pass
  return j;
}

Verdict verdict_from(const JsonField& f) {
  f.only_keys({"holds", "status", "explanation", "evidence"});
  Verdict v;
  v.status = f.at("holds").as_bool() ? VerdictStatus::Holds : VerdictStatus::Fails;
  if (f.has("status")) {
    const std::string status = f.at("status").as_string();
    if (status == to_string(VerdictStatus::Vacuous))
      v.status = VerdictStatus::Vacuous;
    else if (status == to_string(VerdictStatus::NotRun))
      v.status = VerdictStatus::NotRun;
    else
      f.at("status").fail("expected \"vacuous\" or \"not run\", got \"" + status + "\"");
  }
  v.explanation = f.at("explanation").as_string();
  for (const JsonField& e : f.at("evidence").elements()) {
    e.only_keys({"what", "observed", "reference", "ulp_error", "bound"});
    v.evidence.push_back(Evidence{e.at("what").as_string(), e.at("observed").as_double(),
                                  e.at("reference").as_double(), e.at("ulp_error").as_double(),
                                  e.at("bound").as_double()});
  }
  return v;
}

// --- Provenance
json to_json(const Provenance& p) {
  json j = {
      {"osvs_commit", p.osvs_commit}, {"date", p.date},        {"executor", p.executor},
      {"device", p.device},           {"nvcc", p.nvcc},        {"rc_reproduce", p.rc_reproduce},
      {"rc_seed", p.rc_seed},         {"found_by", p.found_by}};
  // Written only where set, so that the files of the other finders keep their text.
  if (!p.solver.empty()) j["solver"] = p.solver;
  if (p.any_exp) j["any_exp"] = true;
  return j;
}

Provenance provenance_from(const JsonField& f) {
  f.only_keys({"osvs_commit", "date", "executor", "device", "nvcc", "rc_reproduce", "rc_seed",
               "found_by", "solver", "any_exp"});
  Provenance p{f.at("osvs_commit").as_string(), f.at("date").as_string(),
               f.at("executor").as_string(),    f.at("device").as_string(),
               f.at("nvcc").as_string(),        f.at("rc_reproduce").as_string(),
               f.at("rc_seed").as_string(),     f.at("found_by").as_string()};
  if (f.has("solver")) p.solver = f.at("solver").as_string();
  if (f.has("any_exp")) p.any_exp = f.at("any_exp").as_bool();
  return p;
}

// --- Expectation
constexpr EnumName<Expectation> kExpectationNames[] = {{Expectation::Holds, "holds"},
                                                       {Expectation::Violates, "violates"}};

const char* to_string(Expectation e) {
  return name_in(kExpectationNames, e);
}

Expectation expectation_from(const JsonField& f) {
  const std::string s = f.as_string();
  if (const auto e = value_in(kExpectationNames, s)) return *e;
  f.fail("expected \"holds\" or \"violates\", got \"" + s + "\"");
}

// --- RegressionRecord
json to_json(const RegressionRecord& r) {
  return {{"schema_version", kRegressionSchemaVersion},
          {"property", r.property},
          {"expectation", to_string(r.expectation)},
          {"needs_gpu", r.needs_gpu},
          {"note", r.note},
          {"input", to_json(r.input)},
          {"found", to_json(r.verdict)},
          {"provenance", to_json(r.provenance)}};
}

RegressionRecord record_from(const JsonField& f) {
  const JsonField version = f.at("schema_version");
  if (version.as_int() != kRegressionSchemaVersion)
    version.fail("unsupported schema version " + std::to_string(version.as_int()) +
                 " (this osvs reads version " + std::to_string(kRegressionSchemaVersion) + ")");
  f.only_keys({"schema_version", "property", "expectation", "needs_gpu", "note", "input", "found",
               "provenance"});
  RegressionRecord r;
  const JsonField property = f.at("property");
  r.property = property.as_string();
  if (r.property.empty()) property.fail("empty property name");
  r.expectation = expectation_from(f.at("expectation"));
  r.needs_gpu = f.at("needs_gpu").as_bool();
  r.note = f.at("note").as_string();
  r.input = case_from(f.at("input"));
  r.verdict = verdict_from(f.at("found"));
  r.provenance = provenance_from(f.at("provenance"));
  return r;
}

/// Parses JSON text; a syntax error (including truncation) names the file and the byte.
json parse_json(std::string_view text, const std::string& file) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    throw RegressionFormatError(file, "",
                                std::string("not valid JSON (truncated or corrupt): ") + e.what());
  }
}

}  // namespace

std::string serialize_case(const Case& c) {
  return to_json(c).dump(2) + "\n";
}

Case parse_case(std::string_view text, const std::string& file) {
  const json doc = parse_json(text, file);
  return case_from(JsonField(doc, "", file));
}

std::string serialize_regression(const RegressionRecord& r) {
  return to_json(r).dump(2) + "\n";
}

RegressionRecord parse_regression(std::string_view text, const std::string& file) {
  const json doc = parse_json(text, file);
  return record_from(JsonField(doc, "", file));
}

RegressionRecord read_regression(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RegressionFormatError(path.string(), "", "cannot open the file for reading");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_regression(text.str(), path.string());
}

std::string canonical_case_text(const std::string& property, const Case& c) {
  // Re-parsed into nlohmann::json, whose objects sort their keys: the id does not depend on the
  // order in which this file writes fields.
  const json doc{{"property", property}, {"input", to_json(c)}};
  return nlohmann::json::parse(doc.dump()).dump();
}

}  // namespace osvs
