#include "gnuplot_plots.h"

#include <cstdlib>
#include <stdexcept>

#include "osvs/audit/report_files.h"

namespace osvs::audit {

using nlohmann::json;

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
  *message = "plots written to " + dir.string();
  return true;
}

}  // namespace osvs::audit
