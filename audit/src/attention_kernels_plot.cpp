// The attention kernels' plot: the distribution of every o element's error in ulps of M, one
// cumulative curve per kernel read off its histogram (error_stats.h's bins).

#include "gnuplot_plots.h"
#include "osvs/audit/error_stats.h"

namespace osvs::audit {

std::string attention_kernels_plot(const nlohmann::json& audit, const std::filesystem::path& dir) {
  if (!audit.contains("attention_kernels")) return "";
  const nlohmann::json& section = audit.at("attention_kernels");
  if (!section.at("not_run").get<std::string>().empty()) return "";
  const std::vector<double>& edges = ulp_bin_edges();
  CurveFile curves(dir, "plot_attention_kernels.dat", "steps");
  for (const nlohmann::json& k : section.at("kernels")) {
    const nlohmann::json& h = k.at("o_histogram");
    const auto total = h.at("count").get<std::int64_t>();
    if (total == 0) continue;
    // (upper edge of the bin, fraction of elements at or below it); the overflow bin (above
    // 2^24 ulps, and NaN outputs) at 2^25.
    std::vector<std::pair<double, double>> points;
    std::int64_t seen = 0;
    for (const nlohmann::json& b : h.at("bins")) {
      const auto bin = b.at(0).get<std::size_t>();
      seen += b.at(1).get<std::int64_t>();
      points.emplace_back(bin < edges.size() ? edges[bin] : 0x1p25,
                          static_cast<double>(seen) / static_cast<double>(total));
    }
    curves.add(k.at("kernel").get<std::string>(), points);
  }
  if (curves.plot().empty()) return "";
  return "set output 'attention_kernels_ulps.png'\nset title 'Attention kernels: error of every o "
         "element in ulps of its magnitude M (cumulative)'\nset xlabel 'ulp of M (upper edge of "
         "its bin)'\nset ylabel 'fraction of o elements'\nunset logscale\nset logscale x\n"
         "set xrange [0.015625:*]\nset yrange [0:1.02]\nset key bottom right\nplot " +
         curves.plot() + "\nset key top left\n";
}

}  // namespace osvs::audit
