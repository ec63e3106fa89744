// Writing a tool's report files into its output folder.
#include <fstream>
#include <stdexcept>

#include "osvs/exhaustive/report.h"

namespace osvs::exhaustive {

void write_report_files(const std::filesystem::path& folder, const std::vector<ReportFile>& files) {
  std::filesystem::create_directories(folder);
  for (const ReportFile& file : files) {
    const std::filesystem::path path = folder / file.name;
    std::ofstream f(path);
    f << file.text;
    if (!f) throw std::runtime_error("cannot write " + path.string());
  }
}

}  // namespace osvs::exhaustive
