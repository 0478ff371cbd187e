// Combinations, shards and the corpus (see combination.h).
#include "xnt/compare/combination.h"

#include <algorithm>
#include <filesystem>

#include "xnt/base/error.h"

namespace xnt::compare {
namespace fs = std::filesystem;

namespace {

std::vector<std::string_view> SplitComma(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    size_t comma = s.find(',');
    std::string_view item = s.substr(0, comma);
    if (!item.empty()) out.push_back(item);
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return out;
}

uint32_t SmallNumber(std::string_view s, std::string_view what) {
  if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string_view::npos) {
    throw Error(std::string(what) + ": '" + std::string(s) + "' is not a number");
  }
  return uint32_t(std::stoul(std::string(s)));
}

renderer::Path ParsePathName(std::string_view name) {
  auto p = renderer::ParsePath(name);
  if (!p) {
    throw Error("unknown render path '" + std::string(name) + "' (" + renderer::JoinPathNames() + ")");
  }
  return *p;
}

}  // namespace

std::string Combination::Name() const {
  return std::string(renderer::PathName(path)) + "@" + scale.Name();
}

Combination ParseCombination(std::string_view text) {
  Combination c;
  size_t at = text.find('@');
  c.path = ParsePathName(text.substr(0, at));
  if (at != std::string_view::npos) c.scale = ParseResolutionScale(text.substr(at + 1));
  return c;
}

std::vector<Combination> ParseCombinations(std::string_view paths, std::string_view scales) {
  std::vector<Combination> out;
  auto scale_list = SplitComma(scales);
  if (scale_list.empty()) throw Error("--scales: no scale given");
  auto path_list = SplitComma(paths);
  if (path_list.empty()) throw Error("--paths: no path given");
  for (std::string_view p : path_list) {
    for (std::string_view s : scale_list) {
      Combination c;
      c.path = ParsePathName(p);
      c.scale = ParseResolutionScale(s);
      if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    }
  }
  return out;
}

std::string Shard::Name() const { return std::to_string(index) + "/" + std::to_string(count); }

Shard ParseShard(std::string_view text) {
  size_t slash = text.find('/');
  if (slash == std::string_view::npos) throw Error("--shard: '" + std::string(text) + "' is not I/N");
  Shard s;
  s.index = SmallNumber(text.substr(0, slash), "--shard");
  s.count = SmallNumber(text.substr(slash + 1), "--shard");
  if (s.count == 0 || s.index == 0 || s.index > s.count) {
    throw Error("--shard: '" + std::string(text) + "' needs 1 <= I <= N");
  }
  return s;
}

uint64_t Fnv1a64(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

bool InShard(const std::string& trace_path, const Shard& shard) {
  return Fnv1a64(TraceName(trace_path)) % shard.count == shard.index - 1;
}

std::string TraceName(const std::string& trace_path) {
  return fs::path(trace_path).filename().string();
}

std::vector<std::string> ExpandTraces(const std::vector<std::string>& inputs) {
  std::vector<std::string> out;
  for (const std::string& in : inputs) {
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      size_t before = out.size();
      for (auto it = fs::recursive_directory_iterator(in, ec); !ec && it != fs::end(it);
           it.increment(ec)) {
        if (it->is_regular_file() && it->path().extension() == ".xnt") {
          out.push_back(it->path().string());
        }
      }
      if (ec) throw Error(in + ": cannot list: " + ec.message());
      if (out.size() == before) throw Error(in + ": no .xnt trace in this folder");
    } else if (fs::is_regular_file(in, ec)) {
      out.push_back(in);
    } else {
      throw Error(in + ": no such trace file or folder");
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace xnt::compare
