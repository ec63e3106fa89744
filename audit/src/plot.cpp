#include "osvs/audit/plot.h"

#include <algorithm>
#include <fstream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gnuplot_plots.h"

namespace osvs::audit {
namespace {

using nlohmann::json;

double as_number(const json& v) {
  return v.is_number() ? v.get<double>() : 0;  // "inf" entries are not plotted
}

/// One data file per plot; gnuplot's `index` selects a kernel's block (blocks separated by two
/// blank lines).
void write_data(const json& audit, const std::filesystem::path& dir) {
  std::ofstream hist(dir / "plot_histogram.dat"), by_n(dir / "plot_worst_vs_n.dat"),
      scatter(dir / "plot_observed_vs_bound.dat");
  for (const json& k : audit.at("kernels")) {
    const json& edges = k.at("histogram").at("upper_edges_ulp");
    const json& counts = k.at("histogram").at("counts");
    hist << "# " << k.at("label").get<std::string>() << "\n";
    double lower = 0;
    for (std::size_t b = 0; b + 1 < edges.size(); ++b) {
      const double upper = as_number(edges[b]);
      const auto c = counts[b].get<std::int64_t>();
      if (c > 0) hist << fmt::format("{} {} {}\n", (lower + upper) / 2, upper - lower, c);
      lower = upper;
    }
    hist << "\n\n";
    std::map<std::int64_t, std::pair<double, double>> worst;  // N -> (max ulp, max bound)
    scatter << "# " << k.at("label").get<std::string>() << "\n";
    for (const json& c : audit.at("configs")) {
      if (c.at("label") != k.at("label")) continue;
      auto& w = worst[c.at("n").get<std::int64_t>()];
      w.first = std::max(w.first, as_number(c.at("ulp").at("max")));
      w.second = std::max(w.second, as_number(c.at("y_bound_max_ulp")));
      const json& e = c.at("worst_ratio");
      if (as_number(e.at("ulp")) > 0)
        scatter << fmt::format("{} {}\n", as_number(e.at("bound_ulp")), as_number(e.at("ulp")));
    }
    scatter << "\n\n";
    by_n << "# " << k.at("label").get<std::string>() << "\n";
    for (const auto& [n, w] : worst) by_n << fmt::format("{} {} {}\n", n, w.first, w.second);
    by_n << "\n\n";
  }
}

/// One block per attention law: case index and tightness, sorted (a law's distribution).
/// Returns the plot command, or "" when the section did not run.
std::string attention_data(const json& audit, const std::filesystem::path& dir) {
  if (!audit.contains("attention") ||
      !audit.at("attention").at("not_run").get<std::string>().empty())
    return "";
  CurveFile curves(dir, "plot_attention.dat", "lines");
  for (const json& l : audit.at("attention").at("laws")) {
    std::vector<double> t;
    for (const json& v : l.at("tightness"))
      if (v.is_number()) t.push_back(v.get<double>());
    std::sort(t.begin(), t.end());
    std::vector<std::pair<double, double>> points;
    for (std::size_t k = 0; k < t.size(); ++k)
      points.emplace_back(t.size() > 1 ? double(k) / double(t.size() - 1) : 0.0,
                          std::max(t[k], 1e-6));
    curves.add(l.at("law").get<std::string>(), points);
  }
  if (curves.plot().empty()) return "";
  return "set output 'attention_tightness.png'\nset title 'Attention: error / bound of every "
         "case, sorted'\nset xlabel 'fraction of cases'\nset ylabel 'worst error / bound'\n"
         "unset logscale\nset logscale y\nset xrange [0:1]\nset yrange [1e-6:2]\nplot " +
         curves.plot() + ", 1 with lines dt 2 lc 'black' title 'bound'\n";
}

std::string script(const json& audit) {
  const std::string title =
      fmt::format("{} ({})", audit.at("provenance").at("executor").get<std::string>(),
                  audit.at("provenance").at("date").get<std::string>());
  std::string hist, by_n, scatter;
  int i = 0;
  for (const json& k : audit.at("kernels")) {
    const std::string label = k.at("label").get<std::string>();
    const std::string sep = i ? ", " : "";
    hist += fmt::format("{}'plot_histogram.dat' index {} using 1:3 with steps title '{}'", sep, i,
                        label);
    by_n += fmt::format(
        "{}'plot_worst_vs_n.dat' index {} using 1:2 with linespoints lt {} title '{} observed', "
        "'' index {} using 1:3 with lines dt 2 lt {} title '{} bound'",
        sep, i, i + 1, label, i, i + 1, label);
    scatter += fmt::format(
        "{}'plot_observed_vs_bound.dat' index {} using 1:2 with points pt {} title '{}'", sep, i,
        i + 5, label);
    ++i;
  }
  return fmt::format(
      "set terminal pngcairo size 1000,650 noenhanced\nset grid\nset key top left\n"
      "set output 'ulp_histogram.png'\nset title 'ULP error of every output, {}'\n"
      "set xlabel 'ulp error (bin centre)'\nset ylabel 'outputs'\nset logscale y\n"
      "set xrange [0:*]\nplot {}\n"
      "set output 'worst_vs_n.png'\nset title 'Worst ULP error and largest bound vs N, {}'\n"
      "set xlabel 'N'\nset ylabel 'ulp'\nset logscale xy\nset xrange [*:*]\nplot {}\n"
      "set output 'observed_vs_bound.png'\nset title 'Observed vs bound at each configuration''s "
      "tightest element, {}'\nset xlabel 'bound (ulp)'\nset ylabel 'observed (ulp)'\n"
      "plot {}, x with lines dt 2 lc 'black' title 'observed = bound'\n",
      title, hist, title, by_n, title, scatter);
}

}  // namespace

bool draw_plots(const std::filesystem::path& dir, std::string* message) {
  const json audit = read_audit_json(dir);
  // A plugin audit's report (its kernels carry a sweep) has plots of its own.
  const json& kernels = audit.at("kernels");
  if (!kernels.empty() && kernels.front().contains("sweep")) return draw_plugin_plots(dir, message);
  return draw_with_gnuplot(
      dir,
      [&] {
        write_data(audit, dir);
        std::ofstream(dir / "plots.gp")
            << script(audit) << attention_data(audit, dir) << attention_kernels_plot(audit, dir);
      },
      message);
}

}  // namespace osvs::audit
