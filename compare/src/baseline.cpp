// Baseline folders (baseline.h).
#include "baseline.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "xnt/base/error.h"
#include "xnt/diff/metrics.h"
#include "xnt/diff/png.h"

namespace xnt::compare {
namespace fs = std::filesystem;

namespace {

std::string SafeName(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(uint8_t(c)) && c != '.' && c != '-' && c != '_') c = '_';
  }
  return s;
}

fs::path FolderOf(const std::string& dir, const std::string& trace, const std::string& combination) {
  return fs::path(dir) / SafeName(trace) / SafeName(combination);
}

}  // namespace

void SaveBaselineFrames(const std::string& dir, const std::string& trace,
                        const std::string& combination,
                        const std::map<uint64_t, diff::OwnedImage>& frames) {
  const fs::path folder = FolderOf(dir, trace, combination);
  std::error_code ec;
  fs::remove_all(folder, ec);
  fs::create_directories(folder, ec);
  if (ec) throw Error(folder.string() + ": cannot create: " + ec.message());
  std::ofstream hashes(folder / "hashes.txt");
  for (const auto& [frame, image] : frames) {
    char name[32];
    std::snprintf(name, sizeof(name), "frame_%04" PRIu64 ".png", frame);
    diff::SavePng((folder / name).string(), image.view());
    char line[64];
    std::snprintf(line, sizeof(line), "%" PRIu64 " %016" PRIx64 "\n", frame, diff::HashPixels(image.view()));
    hashes << line;
  }
  if (!hashes) throw Error((folder / "hashes.txt").string() + ": cannot write");
}

std::map<uint64_t, diff::OwnedImage> LoadBaselineFrames(const std::string& dir,
                                                        const std::string& trace,
                                                        const std::string& combination,
                                                        std::string* why) {
  std::map<uint64_t, diff::OwnedImage> frames;
  const fs::path folder = FolderOf(dir, trace, combination);
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    *why = "no baseline for " + trace + " " + combination + " (" + folder.string() + ")";
    return frames;
  }
  try {
    for (const auto& entry : fs::directory_iterator(folder)) {
      const std::string n = entry.path().filename().string();
      uint64_t frame = 0;
      if (std::sscanf(n.c_str(), "frame_%" SCNu64 ".png", &frame) != 1) continue;
      frames[frame] = diff::ToU8(diff::LoadPng(entry.path().string()).view());
    }
  } catch (const std::exception& e) {
    *why = e.what();
  }
  return frames;
}

}  // namespace xnt::compare
