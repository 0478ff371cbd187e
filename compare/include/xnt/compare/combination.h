// A render combination: a path at a resolution scale ("cpu@1x1"), and the corpus selection
// (trace files from files and folders, CI shards by a stable hash of the trace's file name).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "xnt/base/resolution_scale.h"
#include "xnt/renderer/session.h"

namespace xnt::compare {

struct Combination {
  renderer::Path path = renderer::Path::kCpu;
  ResolutionScale scale;
  std::string Name() const;  // "cpu@1x1"
  bool operator==(const Combination&) const = default;
};

// "cpu@1x1", "fbo@2x2", or a bare path ("cpu" = cpu@1x1). Throws xnt::Error.
Combination ParseCombination(std::string_view text);
// Every path x every scale, paths outermost: "fbo,cpu" x "1x1,2x2". Throws xnt::Error for an
// unknown path or a scale ParseResolutionScale refuses (a path that cannot run on this machine is
// not refused here: the run reports it as an error for that combination).
std::vector<Combination> ParseCombinations(std::string_view paths, std::string_view scales);

// CI sharding: shard `index` of `count`, 1-based.
struct Shard {
  uint32_t index = 1, count = 1;
  std::string Name() const;  // "2/3"
};
Shard ParseShard(std::string_view text);  // "I/N", 1 <= I <= N
// 64-bit FNV-1a: stable across builds, machines and library versions (std::hash is not).
uint64_t Fnv1a64(std::string_view bytes);
// A trace belongs to shard FNV-1a(file name) mod N == I - 1: the file name only, so the same
// corpus checked out at different paths on different CI machines splits the same way.
bool InShard(const std::string& trace_path, const Shard& shard);

// Trace files from files and folders (folders: every *.xnt below, recursively), sorted by path,
// duplicates dropped. Throws xnt::Error for a path that does not exist or a folder without traces.
std::vector<std::string> ExpandTraces(const std::vector<std::string>& inputs);
// What a trace is called in results, reports and JUnit: its file name.
std::string TraceName(const std::string& trace_path);

}  // namespace xnt::compare
