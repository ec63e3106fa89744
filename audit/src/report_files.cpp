#include "osvs/audit/report_files.h"

#include <zlib.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace osvs::audit {
namespace {

namespace fs = std::filesystem;

void write_gzip(const fs::path& path, const std::string& text) {
  // gzopen writes a header without file name and with modification time 0.
  gzFile f = gzopen(path.c_str(), "wb9");
  if (!f) throw std::runtime_error("cannot write " + path.string());
  std::size_t done = 0;
  bool ok = true;
  while (ok && done < text.size()) {
    const auto chunk = static_cast<unsigned>(std::min<std::size_t>(text.size() - done, 1u << 30));
    ok = gzwrite(f, text.data() + done, chunk) == static_cast<int>(chunk);
    done += chunk;
  }
  if (gzclose(f) != Z_OK || !ok) throw std::runtime_error("cannot write " + path.string());
}

std::string read_gzip(const fs::path& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot read " + path.string());
  std::string text;
  char buffer[1 << 16];
  int got = 0;
  while ((got = gzread(f, buffer, sizeof buffer)) > 0)
    text.append(buffer, static_cast<std::size_t>(got));
  const bool ok = got == 0;
  gzclose(f);
  if (!ok) throw std::runtime_error(path.string() + ": not a readable gzip file");
  return text;
}

}  // namespace

void write_text_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

fs::path write_detail_file(const fs::path& dir, const std::string& name, const std::string& text) {
  const fs::path plain = dir / name, packed = dir / (name + ".gz");
  const bool compress = text.size() > kCompressAbove;
  std::error_code ignored;
  fs::remove(compress ? plain : packed, ignored);
  if (!compress) {
    write_text_file(plain, text);
    return plain;
  }
  write_gzip(packed, text);
  return packed;
}

std::string read_detail_file(const fs::path& dir, const std::string& name) {
  const fs::path plain = dir / name, packed = dir / (name + ".gz");
  if (fs::exists(plain)) {
    std::ifstream in(plain, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) throw std::runtime_error("cannot read " + plain.string());
    return text.str();
  }
  if (fs::exists(packed)) return read_gzip(packed);
  throw std::runtime_error("neither " + plain.string() + " nor " + packed.string() + " exists");
}

}  // namespace osvs::audit
