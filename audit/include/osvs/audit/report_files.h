// The files of an audit's output folder. The small ones a reader needs (audit.md, summary.json,
// the plots) are written as they are; the full detail (audit.json, worst_cases.json) is gzipped
// when large, so that a full sweep's tens of megabytes stay a compact artefact.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace osvs::audit {

/// Detail files larger than this are written gzipped (NAME.gz instead of NAME).
inline constexpr std::size_t kCompressAbove = std::size_t{1} << 20;

/// Writes `text` to dir/name, or gzipped to dir/name.gz when it is larger than kCompressAbove
/// (removing the other form, so that a folder never holds both). The gzip header carries no name
/// and no time: the same text gives the same bytes. Returns the path written; throws
/// std::runtime_error when it cannot be written.
std::filesystem::path write_detail_file(const std::filesystem::path& dir, const std::string& name,
                                        const std::string& text);

/// Writes `text` to `path` as it is; throws std::runtime_error when it cannot be written.
void write_text_file(const std::filesystem::path& path, const std::string& text);

/// The text of dir/name, or of dir/name.gz decompressed when only that exists; throws
/// std::runtime_error when neither can be read.
std::string read_detail_file(const std::filesystem::path& dir, const std::string& name);

}  // namespace osvs::audit
