#include "gnuplot_plots.h"

#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "osvs/audit/report_files.h"

namespace osvs::audit {

using nlohmann::json;

namespace {

/// gnuplot's antialiased truecolour PNGs are about three times the size of the same plot in a
/// 256-colour palette, and the committed reports carry them: where pngquant is installed each plot
/// is rewritten in place with a palette (--skip-if-larger keeps the original when nothing is won).
/// Returns a note for the caller's message ("" when every plot was quantized).
std::string quantize_plots(const std::filesystem::path& dir) {
  if (std::system("command -v pngquant > /dev/null 2>&1") != 0)
    return " (pngquant not found: plots kept in truecolour)";
  const std::string command = "cd '" + dir.string() +
                              "' && pngquant --quality=60-90 --speed 1 --force --skip-if-larger "
                              "--ext .png -- *.png; s=$?; [ $s -eq 0 ] || [ $s -eq 98 ] || "
                              "[ $s -eq 99 ]";
  if (std::system(command.c_str()) != 0) return " (pngquant failed: some plots kept in truecolour)";
  return "";
}

}  // namespace

CurveFile::CurveFile(const std::filesystem::path& dir, std::string file, std::string style)
    : file_(std::move(file)), style_(std::move(style)), data_(dir / file_) {}

void CurveFile::add(std::string_view title, const std::vector<std::pair<double, double>>& points) {
  data_ << "# " << title << "\n";
  for (const auto& [x, y] : points) data_ << fmt::format("{} {}\n", x, y);
  data_ << "\n\n";
  plot_ += fmt::format("{}'{}' index {} using 1:2 with {} title '{}'", curves_ ? ", " : "", file_,
                       curves_, style_, title);
  ++curves_;
}

json read_audit_json(const std::filesystem::path& dir) {
  const std::string text = read_detail_file(dir, "audit.json");
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    throw std::runtime_error((dir / "audit.json").string() + ": " + e.what());
  }
}

bool draw_with_gnuplot(const std::filesystem::path& dir, const std::function<void()>& write_files,
                       std::string* message) {
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) {
    *message = "gnuplot not found: plots skipped (run `osvs audit --plot " + dir.string() +
               "` where gnuplot is installed)";
    return false;
  }
  try {
    write_files();
  } catch (const json::exception& e) {
    throw std::runtime_error((dir / "audit.json").string() + ": " + e.what());
  }
  const std::string command = "cd '" + dir.string() + "' && gnuplot plots.gp";
  if (std::system(command.c_str()) != 0) {
    *message = "gnuplot failed on " + (dir / "plots.gp").string();
    return false;
  }
  *message = "plots written to " + dir.string() + quantize_plots(dir);
  return true;
}

}  // namespace osvs::audit
