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

void ResetBaselineFolder(const std::string& dir, const std::string& trace,
                         const std::string& combination) {
  const fs::path folder = FolderOf(dir, trace, combination);
  std::error_code ec;
  fs::remove_all(folder, ec);
  fs::create_directories(folder, ec);
  if (ec) throw Error(folder.string() + ": cannot create: " + ec.message());
}

void SaveBaselineFrames(const std::string& dir, const std::string& trace,
                        const std::string& combination,
                        const std::map<uint64_t, diff::OwnedImage>& frames) {
  const fs::path folder = FolderOf(dir, trace, combination);
  std::error_code ec;
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

namespace {

std::string SnapshotStem(uint64_t frame, uint32_t draw, const std::string& name) {
  return std::to_string(frame) + "." + std::to_string(draw) + "-" + SafeName(name);
}

}  // namespace

void SaveBaselineSnapshot(const std::string& dir, const std::string& trace,
                          const std::string& combination, const StoredEvent& event,
                          const std::vector<TargetSnapshot>& targets) {
  const fs::path folder = FolderOf(dir, trace, combination) / "snapshots";
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw Error(folder.string() + ": cannot create: " + ec.message());
  for (const TargetSnapshot& t : targets) {
    const std::string stem = SnapshotStem(event.frame, event.draw, t.name);
    diff::SavePng((folder / (stem + ".png")).string(), t.image.view());
    const diff::Image& shape = t.image.view();
    diff::OwnedImage bits(shape.width, shape.height, 4, diff::PixelType::kU16);
    for (int y = 0; y < shape.height; ++y) {
      uint16_t* row = reinterpret_cast<uint16_t*>(bits.MutableRow(y));
      for (int x = 0; x < shape.width; ++x) {
        const size_t i = size_t(y) * size_t(shape.width) + size_t(x);
        const uint64_t v = i < t.bits.size() ? t.bits[i] : 0;
        for (int k = 0; k < 4; ++k) row[x * 4 + k] = uint16_t(v >> (16 * k));
      }
    }
    diff::SavePng((folder / (stem + ".bits.png")).string(), bits.view());
  }
}

void SaveBaselineEvents(const std::string& dir, const std::string& trace,
                        const std::string& combination, const std::vector<StoredEvent>& events) {
  const fs::path file = FolderOf(dir, trace, combination) / "events.txt";
  std::ofstream out(file);
  for (const StoredEvent& e : events) {
    char line[96];
    std::snprintf(line, sizeof(line), "%" PRIu64 " %u %s %016" PRIx64 " ", e.frame, e.draw,
                  e.kind.c_str(), e.hash);
    out << line;
    for (size_t i = 0; i < e.targets.size(); ++i) out << (i ? "," : "") << SafeName(e.targets[i]);
    out << (e.targets.empty() ? "-" : "") << "\n";
  }
  if (!out) throw Error(file.string() + ": cannot write");
}

std::vector<StoredEvent> LoadBaselineEvents(const std::string& dir, const std::string& trace,
                                            const std::string& combination, uint64_t frame,
                                            std::string* why) {
  std::vector<StoredEvent> events;
  const fs::path file = FolderOf(dir, trace, combination) / "events.txt";
  std::ifstream in(file);
  if (!in) {
    *why = "the baseline was saved without --snapshots all (no " + file.string() + ")";
    return events;
  }
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    StoredEvent e;
    char kind[16] = {}, names[4096] = {};
    unsigned draw = 0;
    if (line.size() >= sizeof(names) ||
        std::sscanf(line.c_str(), "%" SCNu64 " %u %15s %" SCNx64 " %4095s", &e.frame, &draw, kind,
                    &e.hash, names) != 5) {
      *why = file.string() + ":" + std::to_string(number) + ": not 'FRAME DRAW KIND HASH NAMES'";
      events.clear();
      return events;
    }
    if (e.frame != frame) continue;
    e.draw = draw;
    e.kind = kind;
    std::string n = names;
    if (n != "-") {
      for (size_t start = 0; start <= n.size();) {
        const size_t comma = n.find(',', start);
        e.targets.push_back(n.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    }
    events.push_back(std::move(e));
  }
  if (events.empty()) *why = "the baseline stored no events of frame " + std::to_string(frame);
  return events;
}

StoredTarget LoadBaselineTarget(const std::string& dir, const std::string& trace,
                                const std::string& combination, uint64_t frame, uint32_t draw,
                                const std::string& name) {
  StoredTarget t;
  const fs::path folder = FolderOf(dir, trace, combination) / "snapshots";
  const std::string stem = SnapshotStem(frame, draw, name);
  std::error_code ec;
  if (!fs::exists(folder / (stem + ".bits.png"), ec)) return t;
  t.image_path = (folder / (stem + ".png")).string();
  t.image = diff::ToU8(diff::LoadPng(t.image_path).view());
  const diff::OwnedImage bits = diff::LoadPng((folder / (stem + ".bits.png")).string());
  const diff::Image& v = bits.view();
  if (v.type != diff::PixelType::kU16 || v.channels != 4) {
    throw Error((folder / (stem + ".bits.png")).string() + ": not a 16-bit RGBA PNG");
  }
  t.bits.resize(size_t(v.width) * size_t(v.height));
  for (int y = 0; y < v.height; ++y) {
    const uint16_t* row = reinterpret_cast<const uint16_t*>(v.Row(y));
    for (int x = 0; x < v.width; ++x) {
      uint64_t value = 0;
      for (int k = 0; k < 4; ++k) value |= uint64_t(row[x * 4 + k]) << (16 * k);
      t.bits[size_t(y) * size_t(v.width) + size_t(x)] = value;
    }
  }
  return t;
}

}  // namespace xnt::compare
