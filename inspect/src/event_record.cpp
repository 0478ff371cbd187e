// The site's files: data chunks as scripts that call one global function (a page opened from
// file:// may load <script> tags but not fetch() them), and PNGs named by content within a budget.
#include <xxhash.h>

#include <fstream>

#include "site_internal.h"
#include "xnt/base/error.h"
#include "xnt/diff/png.h"

namespace xnt::inspect {

void SiteFiles::Write(const std::string& rel, std::string_view bytes) {
  const std::filesystem::path path = root_ / rel;
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  if (!out) throw Error("inspect: cannot write " + path.string());
  ++files_;
  bytes_ += bytes.size();
}

void SiteFiles::WriteScript(const std::string& rel, const char* fn, const Json& value) {
  Write(rel, std::string(fn) + '(' + DumpJson(value) + ");\n");
}

std::string ImageWriter::Write(const diff::Image& image) {
  const std::vector<uint8_t> png = diff::EncodePng(image);
  const uint64_t hash = XXH3_64bits(png.data(), png.size());
  char name[40];
  std::snprintf(name, sizeof name, "img/%016llx.png", static_cast<unsigned long long>(hash));
  if (written_.count(hash)) return name;
  if (bytes_ + png.size() > budget_) {
    over_budget_ = true;
    return {};
  }
  files_.Write(name, std::string_view(reinterpret_cast<const char*>(png.data()), png.size()));
  written_.insert(hash);
  bytes_ += png.size();
  return name;
}

bool ImageWriter::Reserve(uint64_t bytes) {
  if (bytes_ + bytes > budget_) {
    over_budget_ = true;
    return false;
  }
  bytes_ += bytes;
  return true;
}

}  // namespace xnt::inspect
