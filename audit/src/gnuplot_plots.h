// What the audit's two kinds of plots (plot.cpp, plugin_plot.cpp) share: reading audit.json and
// drawing a plots.gp with gnuplot, with the same errors and messages for both.
#pragma once

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace osvs::audit {

/// dir/audit.json (or audit.json.gz), parsed; throws std::runtime_error naming the file when it is
/// missing or malformed.
nlohmann::json read_audit_json(const std::filesystem::path& dir);

/// Checks that gnuplot is installed, calls `write_files` (which writes dir/plots.gp and its data
/// files; a json::exception from it becomes a std::runtime_error naming audit.json), then runs
/// gnuplot on plots.gp in `dir`. Returns false with *message set when gnuplot is missing or fails.
/// The attention kernels' plot (attention_kernels_ulps.png): per kernel that ran, the fraction of
/// its o elements whose error is at most x ulps of M, from the histogram in audit.json's
/// "attention_kernels". Writes dir/plot_attention_kernels.dat and returns the gnuplot commands,
/// or "" when the section did not run or measured nothing.
std::string attention_kernels_plot(const nlohmann::json& audit, const std::filesystem::path& dir);

/// The curves of one plot drawn from one data file, a block per curve (gnuplot's `index` selects a
/// block; blocks are separated by two blank lines): add() writes a curve's block ("# title", then
/// "x y" a point) and appends its clause to plot() ("'file' index i using 1:2 with <style> title
/// 'title'", the clauses separated by ", "); plot() is "" while no curve was added.
class CurveFile {
 public:
  CurveFile(const std::filesystem::path& dir, std::string file, std::string style);
  void add(std::string_view title, const std::vector<std::pair<double, double>>& points);
  const std::string& plot() const { return plot_; }

 private:
  std::string file_, style_, plot_;
  std::ofstream data_;
  int curves_ = 0;
};

bool draw_with_gnuplot(const std::filesystem::path& dir, const std::function<void()>& write_files,
                       std::string* message);

}  // namespace osvs::audit
