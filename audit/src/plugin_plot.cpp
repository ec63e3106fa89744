// PNG plots of a plugin audit (osvs audit --plugin): the sweep's worst error and worst
// error / contract ratio per kernel against N, drawn by gnuplot from the report's audit.json.
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "gnuplot_plots.h"
#include "osvs/audit/plot.h"

namespace osvs::audit {
namespace {

using nlohmann::json;

double as_number(const json& v) {
  return v.is_number() ? v.get<double>() : NAN;  // "inf"/"nan" entries are not plotted
}

/// One block per kernel (gnuplot `index`): N, worst ulp, worst ratio over the sweep's families.
std::string data(const json& audit) {
  std::string out;
  for (const json& k : audit.at("kernels")) {
    std::map<std::int64_t, std::pair<double, double>> worst;  // N -> (ulp, ratio)
    for (const json& c : k.at("sweep")) {
      auto& w = worst.try_emplace(c.at("n").get<std::int64_t>(), 0.0, -1.0).first->second;
      const double ulp = as_number(c.at("worst_ulp")), ratio = as_number(c.at("worst_ratio"));
      if (std::isfinite(ulp)) w.first = std::max(w.first, ulp);
      if (std::isfinite(ratio)) w.second = std::max(w.second, ratio);
    }
    out += "# " + k.at("kernel").get<std::string>() + "\n";
    for (const auto& [n, w] : worst)  // log axes: a zero error is drawn at 1/64 ulp
      out += fmt::format("{} {} {}\n", n, std::max(w.first, 1.0 / 64),
                         w.second < 0 ? NAN : std::max(w.second, 1e-4));
    out += "\n\n";
  }
  return out;
}

std::string script(const json& audit) {
  std::string by_n, ratio;
  int i = 0;
  for (const json& k : audit.at("kernels")) {
    const std::string name = k.at("kernel").get<std::string>(), sep = i ? ", " : "";
    by_n += fmt::format("{}'plot_plugins.dat' index {} using 1:2 with linespoints title '{}'", sep,
                        i, name);
    ratio += fmt::format("{}'plot_plugins.dat' index {} using 1:3 with linespoints title '{}'", sep,
                         i, name);
    ++i;
  }
  return fmt::format(
      "set terminal pngcairo size 1000,650 noenhanced\nset grid\nset key outside right\n"
      "set logscale xy\nset xlabel 'N'\n"
      "set output 'worst_vs_n.png'\nset title 'Worst error over the sweep vs N'\n"
      "set ylabel 'ulp of the output type'\nplot {}\n"
      "set output 'contract_ratio_vs_n.png'\nset title 'Worst error / declared tolerance vs N "
      "(above 1: outside the contract)'\nset ylabel 'error / tolerance'\nset yrange [1e-4:10]\n"
      "plot {}, 1 with lines dt 2 lc 'black' title 'contract'\n",
      by_n, ratio);
}

}  // namespace

bool draw_plugin_plots(const std::filesystem::path& dir, std::string* message) {
  const json audit = read_audit_json(dir);
  return draw_with_gnuplot(
      dir,
      [&] {
        std::ofstream(dir / "plot_plugins.dat") << data(audit);
        std::ofstream(dir / "plots.gp") << script(audit);
      },
      message);
}

}  // namespace osvs::audit
