// The RapidCheck parameters of osvs's test programs: a fixed seed unless RC_PARAMS says otherwise.
// RapidCheck reads RC_PARAMS once, at its first use; without it, it draws a random seed, and a
// test whose law run uses the global configuration would see different cases on every run.
#pragma once

namespace osvs::testing {

/// The seed of every test main that does not choose its own (the testbed, the GoogleTest main).
inline constexpr const char* kDefaultRcParams = "seed=20261130";

/// Sets RC_PARAMS to `params` unless the environment sets it; call before RapidCheck's first use.
void use_rc_params_unless_set(const char* params = kDefaultRcParams);

}  // namespace osvs::testing
