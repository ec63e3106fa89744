// The provenance block of every JSON report of exhaustive/: exp-check.json and verified.json
// (json_report.cpp), combine-grid.json (grid/grid_json_report.cpp).
#pragma once

#include <nlohmann/json.hpp>

#include "osvs/exhaustive/report.h"

namespace osvs::exhaustive {

inline nlohmann::json provenance_json(const Provenance& p) {
  return {{"date", p.date},     {"commit", p.commit}, {"host", p.host},    {"libc", p.libc},
          {"device", p.device}, {"nvcc", p.nvcc},     {"inputs", p.inputs}};
}

}  // namespace osvs::exhaustive
