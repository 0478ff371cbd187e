// Helpers shared by the ucode tests: corpus access and file reading.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace xnt::ucode::test {

inline std::filesystem::path CorpusDir() {
  return std::filesystem::path(XNT_SHARED_DIR) / "corpus" / "xenos-shaders" / "burgerlib";
}

inline std::vector<std::string> CorpusShaders() {
  std::vector<std::string> names;
  std::error_code ec;
  if (!std::filesystem::is_directory(CorpusDir(), ec)) return names;
  for (const auto& e : std::filesystem::directory_iterator(CorpusDir())) {
    if (e.is_directory() && std::filesystem::exists(e.path() / "container.bin")) {
      names.push_back(e.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

inline std::string ReadText(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

inline std::vector<uint8_t> ReadBytes(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// The listing part of an fxc disasm.txt: from the xvs_3_0/xps_3_0 line to before "// PDB hint",
// trailing blank lines dropped.
// The trailer a container without debug information ends its listing with: its program's
// 3-word tail, zero.
inline constexpr const char* kZeroPdbHint = "\n// PDB hint 00000000-00000000-00000000\n";

inline std::vector<std::string> ListingBody(const std::string& text) {
  std::vector<std::string> all = Lines(text), out;
  bool in = false;
  for (const auto& l : all) {
    if (l == "xvs_3_0" || l == "xps_3_0") in = true;
    if (l.rfind("// PDB hint", 0) == 0) break;
    if (in) out.push_back(l);
  }
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

}  // namespace xnt::ucode::test
