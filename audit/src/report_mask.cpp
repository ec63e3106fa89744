#include "osvs/audit/report_mask.h"

#include <array>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include <nlohmann/json.hpp>

namespace osvs::audit {
namespace {

using nlohmann::ordered_json;

/// The keys under which the reports keep wall-clock values (json_parts.h, json_report.cpp).
constexpr std::array<std::string_view, 4> kTimingKeys = {"date", "seconds", "timing",
                                                         "performance"};
constexpr const char* kMasked = "<masked>";

void mask(ordered_json& j) {
  if (j.is_object()) {
    for (auto& [key, value] : j.items()) {
      bool timing = false;
      for (std::string_view k : kTimingKeys) timing = timing || key == k;
      if (timing)
        value = kMasked;
      else
        mask(value);
    }
  } else if (j.is_array()) {
    for (auto& v : j) mask(v);
  }
}

bool starts_with(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

std::string mask_timing_json(const std::string& text) {
  ordered_json j;
  try {
    j = ordered_json::parse(text);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("not a JSON report: ") + e.what());
  }
  mask(j);
  return j.dump(1) + "\n";
}

std::string mask_timing_markdown(const std::string& text) {
  std::istringstream in(text);
  std::string out, line;
  bool masking = false;
  while (std::getline(in, line)) {
    if (starts_with(line, "## ")) {
      masking = line == "## Timing" || line == "## Performance";
      out += line + "\n";
      if (masking) out += std::string(kMasked) + "\n";
      continue;
    }
    if (masking) continue;
    out += (starts_with(line, "- date:") ? std::string("- date: ") + kMasked : line) + "\n";
  }
  return out;
}

std::optional<std::string> first_difference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (int n = 1;; ++n) {
    const bool ga = static_cast<bool>(std::getline(sa, la));
    const bool gb = static_cast<bool>(std::getline(sb, lb));
    if (!ga && !gb) return std::nullopt;
    if (ga != gb || la != lb)
      return "line " + std::to_string(n) + ": " + (ga ? la : "<end>") + " | " + (gb ? lb : "<end>");
  }
}

}  // namespace osvs::audit
