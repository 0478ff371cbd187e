// What the inspector tests share: the samples written once per test process, the site written
// on the cpu path, and a data script's JSON.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_files.h"
#include "xnt/base/json.h"
#include "xnt/inspect/site.h"
#include "xnt/samples/samples.h"

namespace xnt::inspect {
namespace fs = std::filesystem;
using ::xnt::test::ReadFileText;

// Per process: ctest runs each test of this binary as its own process, in parallel.
inline const fs::path kWork = ::xnt::test::ProcessWorkDir("inspect", "site");

inline std::string WriteSample(const std::string& name) {
  const fs::path file = kWork / "samples" / (name + ".xnt");
  if (!fs::exists(file)) {
    fs::create_directories(file.parent_path());
    samples::WriteSample(*samples::Find(name), file.string());
  }
  return file.string();
}

inline SiteSummary Write(const std::string& trace, const fs::path& dir, uint64_t budget = 64ull << 20) {
  fs::remove_all(dir);
  SiteOptions o;
  o.trace = trace;
  o.out_dir = dir.string();
  o.session.path = renderer::Path::kCpu;
  o.session.threads = 1;
  o.image_budget_bytes = budget;
  return WriteSite(o);
}

// The argument of the one call a data script makes: "FN(json);\n".
inline Json ReadScript(const fs::path& file, const std::string& fn) {
  const std::string text = ReadFileText(file);
  EXPECT_EQ(text.rfind(fn + "(", 0), 0u) << file;
  const size_t open = text.find('('), close = text.rfind(')');
  return Json::parse(text.substr(open + 1, close - open - 1));
}

// The site's event list: the rows of every list chunk (data/list/lN.js) in order, each chunk
// starting where the previous ended and named by the index with its first and last id.
inline Json SiteEvents(const fs::path& dir) {
  const Json index = ReadScript(dir / "data" / "events.js", "XNT.events");
  Json events = Json::array();
  for (size_t n = 0; n < index["lists"].size(); ++n) {
    const Json c = ReadScript(dir / "data" / "list" / ("l" + std::to_string(n) + ".js"), "XNT.list");
    EXPECT_EQ(c["first"], events.size());
    EXPECT_EQ(index["lists"][n], Json::array({c["events"].front()["id"], c["events"].back()["id"]}));
    for (const Json& e : c["events"]) events.push_back(e);
  }
  EXPECT_EQ(index["count"], events.size());
  return events;
}

}  // namespace xnt::inspect
