#include "osvs/formal/gappa/suite.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace osvs::formal::gappa {

std::vector<std::string> write_scripts(const std::vector<Script>& scripts, const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::vector<std::string> paths;
  for (const Script& s : scripts) {
    const std::string path = (std::filesystem::path(dir) / (s.name + ".g")).string();
    std::ofstream f(path);
    f << s.text();
    if (!f) throw std::runtime_error("gappa: cannot write " + path);
    paths.push_back(path);
  }
  return paths;
}

std::vector<Outcome> prove_all(const std::vector<Script>& scripts, const std::string& dir,
                               const std::string& gappa, bool stop_at_failure) {
  const std::vector<std::string> paths = write_scripts(scripts, dir);
  std::vector<Outcome> out;
  for (std::size_t i = 0; i < scripts.size(); ++i) {
    out.push_back({scripts[i].name, paths[i], run_gappa(gappa, paths[i])});
    if (stop_at_failure && !out.back().result.proven) break;
  }
  return out;
}

std::string coq_module(const std::string& name) {
  std::string m = name;
  for (char& c : m)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  return m;
}

}  // namespace osvs::formal::gappa
