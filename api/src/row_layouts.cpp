#include "osvs/api/row_layouts.h"

#include <algorithm>

namespace osvs {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

std::int64_t pow2_above(std::int64_t c) {
  std::int64_t p = 1;
  while (p <= c) p *= 2;
  return p;
}

std::string signed_offset(int d) {
  return d == 0 ? "" : d < 0 ? " - 1" : " + 1";
}

}  // namespace

std::vector<LayoutLength> layout_lengths(const RowKernel& k) {
  const Traits& t = k.traits();
  std::vector<LayoutLength> out;
  const auto add = [&](std::int64_t n, const std::string& layout, const std::string& why) {
    if (n >= 1 && n <= t.max_cols) out.push_back({n, layout, why});
  };
  for (std::size_t i = 0; i < t.layouts.size(); ++i) {
    const RowLayout& l = t.layouts[i];
    const std::int64_t to = i + 1 < t.layouts.size() ? t.layouts[i + 1].from - 1 : t.max_cols;
    if (i > 0) add(l.from - 1, t.layouts[i - 1].name, "its last length");
    add(l.from, l.name, "its first length");
    if (l.from + 1 <= to) add(l.from + 1, l.name, "its first length + 1");
    if (l.piece == 0) continue;
    const std::int64_t c0 = ceil_div(l.from, l.piece);
    for (const std::int64_t c : {c0, c0 + 1, pow2_above(c0)})
      for (const int d : {-1, 0, 1}) {
        const std::int64_t n = c * l.piece + d;
        if (n >= l.from && n <= to)
          add(n, l.name,
              std::to_string(c) + " pieces of " + std::to_string(l.piece) + signed_offset(d));
      }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const LayoutLength& a, const LayoutLength& b) { return a.cols < b.cols; });
  out.erase(
      std::unique(out.begin(), out.end(),
                  [](const LayoutLength& a, const LayoutLength& b) { return a.cols == b.cols; }),
      out.end());
  return out;
}

}  // namespace osvs
