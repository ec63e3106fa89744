// One fact assumed of an exp (exp_facts.h lists them and says how each is checked).
#pragma once

#include <cstdint>
#include <string>

namespace osvs::formal {

struct ExpFact {
  std::string function;  ///< "exp" or "exp2"
  std::uint32_t first;   ///< input bits, inclusive
  std::uint32_t last;
  std::string statement;  ///< e.g. "exp(+0) = 1"
  std::string needed_by;  ///< which step of which proof uses it
};

}  // namespace osvs::formal
