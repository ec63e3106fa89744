#include <cmath>
#include <stdexcept>

#include "osvs/audit/options.h"

namespace osvs::audit {

Budget parse_budget(const std::string& text) {
  const auto fail = [&] {
    return std::invalid_argument("--budget '" + text +
                                 "': give seconds (300s, 5m) or elements (1e9, 2^30)");
  };
  if (text.empty()) throw fail();
  Budget b;
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    throw fail();
  }
  const std::string unit = text.substr(used);
  if (unit == "s" || unit == "m") {
    b.seconds = value * (unit == "m" ? 60 : 1);
  } else if (unit.empty() || unit.rfind('^', 0) == 0) {
    if (!unit.empty()) value = std::pow(value, std::stod(unit.substr(1)));
    if (!(value >= 1) || value > 0x1p62) throw fail();
    b.elements = static_cast<std::int64_t>(value);
  } else {
    throw fail();
  }
  if (b.seconds && !(*b.seconds > 0)) throw fail();
  return b;
}

}  // namespace osvs::audit
