// libFuzzer target for the files `compare` reads back: a shard's results.json (FromJson, then
// Merge of it with itself renamed) and a TOML expectations file (CheckExpectations against those
// results, then UpdateExpectations and a second check of what it wrote). Both may come from
// another machine (CI shards, a checked-in expectations file). Must never crash or hang; a
// malformed file is an xnt::Error naming it.
//
// Input: the TOML text, a NUL byte, the results.json text (no NUL: all TOML, no results).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "xnt/base/error.h"
#include "xnt/compare/expectations.h"
#include "xnt/compare/results.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace xnt;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t nul = input.find('\0');
  const std::string toml = input.substr(0, nul);
  const std::string json = nul == std::string::npos ? std::string() : input.substr(nul + 1);

  compare::RunResults results;
  if (!json.empty()) {
    try {
      results = compare::FromJson(json, "results.json");
      compare::RunResults other = results;
      other.shard = "2/2";
      for (std::string& t : other.traces) t += ".other";
      for (compare::CombinationResult& r : other.results) r.trace += ".other";
      compare::Merge({results, other});
    } catch (const Error&) {
    }
  }
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string pid = std::to_string(getpid());
  const std::string file = (dir / ("xnt-fuzz-expectations-" + pid + ".toml")).string();
  const std::string written = (dir / ("xnt-fuzz-expectations-" + pid + "-w.toml")).string();
  std::ofstream(file, std::ios::binary) << toml;
  try {
    compare::RunResults r = results;
    compare::CheckExpectations(file, r);
  } catch (const Error&) {
  }
  std::filesystem::remove(written);
  try {
    compare::UpdateExpectations(written, results);
    compare::RunResults r = results;
    compare::CheckExpectations(written, r);
  } catch (const Error&) {
  }
  std::filesystem::remove(file);
  std::filesystem::remove(written);
  return 0;
}
