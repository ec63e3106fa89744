// Each kind's case as the "input" of its regression files (regression.h): floats as exact hex
// floats, every field required, a malformed one named in the error (std::runtime_error).
#pragma once

#include <nlohmann/json.hpp>

#include "osvs/api/kind.h"

namespace osvs::api {

nlohmann::json case_json(const RowCase& c);
void read_case(const nlohmann::json& in, RowCase& c);

nlohmann::json case_json(const MergeCase& c);
void read_case(const nlohmann::json& in, MergeCase& c);

nlohmann::json case_json(const AttentionCase& c);
void read_case(const nlohmann::json& in, AttentionCase& c);

nlohmann::json case_json(const ReductionCase& c);
void read_case(const nlohmann::json& in, ReductionCase& c);

nlohmann::json case_json(const RowwiseCase& c);
void read_case(const nlohmann::json& in, RowwiseCase& c);

nlohmann::json case_json(const CombineCase& c);
void read_case(const nlohmann::json& in, CombineCase& c);

}  // namespace osvs::api
