// PNG plots of an audit, drawn by gnuplot from audit.json: a separate step, because the GPU
// machine that runs an audit may have no gnuplot (`osvs audit --plot DIR` draws them later).
#pragma once

#include <filesystem>
#include <string>

namespace osvs::audit {

/// Draws ulp_histogram.png, worst_vs_n.png and observed_vs_bound.png into `dir` from
/// dir/audit.json (or audit.json.gz), with their data files plot_*.dat and plots.gp. Returns false
/// with *message set when gnuplot is missing or fails; throws std::runtime_error when audit.json is
/// missing or malformed.
bool draw_plots(const std::filesystem::path& dir, std::string* message);

/// The plots of a plugin audit (osvs audit --plugin): worst_vs_n.png and
/// contract_ratio_vs_n.png, per kernel, from dir/audit.json; same contract as draw_plots.
bool draw_plugin_plots(const std::filesystem::path& dir, std::string* message);

}  // namespace osvs::audit
