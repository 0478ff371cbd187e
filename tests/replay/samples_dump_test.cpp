// Golden `dump` output for every bundled sample (samples/): the decoded packets, register writes,
// draws, resolves and swaps must stay exactly as reviewed. After a deliberate change to a sample
// or to the dump format, regenerate with XNT_UPDATE_GOLDEN=1 and review the diff.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_files.h"
#include "xnt/format/reader.h"
#include "xnt/replay/dump.h"
#include "xnt/replay/trace_player.h"
#include "xnt/samples/samples.h"

namespace xnt::replay {
namespace {

using ::xnt::test::ReadFileText;

TEST(SamplesDump, GoldenOutputAndCleanStreams) {
  const auto& registry = samples::Registry();
  ASSERT_FALSE(registry.empty());
  const auto dir = std::filesystem::temp_directory_path() / "xnt_replay_tests";
  std::filesystem::create_directories(dir);
  for (const auto& sample : registry) {
    SCOPED_TRACE(sample.name);
    const std::string path = (dir / (sample.name + "_" + std::to_string(::getpid()) + ".xnt")).string();
    samples::WriteSample(sample, path);
    auto reader = format::Reader::Open(path);
    std::string out;
    DumpPrinter printer({}, [&](std::string_view s) { out.append(s); });
    TracePlayer player(printer);
    printer.Attach(player);
    printer.Run(player, *reader);
    std::filesystem::remove(path);

    const auto& cp = player.command_processor();
    EXPECT_EQ(cp.diagnostic_count(Severity::kError), 0u);
    EXPECT_EQ(cp.diagnostic_count(Severity::kWarning), 0u)
        << (cp.diagnostics().empty() ? "" : cp.diagnostics()[0].ToString());
    EXPECT_EQ(cp.frame(), reader->frame_count());
    EXPECT_NE(out.find("=> draw"), std::string::npos);
    EXPECT_NE(out.find("=> swap"), std::string::npos);

    const std::string golden =
        std::string(XNT_SOURCE_DIR) + "/tests/replay/golden/samples/" + sample.name + ".txt";
    if (std::getenv("XNT_UPDATE_GOLDEN")) {
      std::filesystem::create_directories(std::filesystem::path(golden).parent_path());
      std::ofstream(golden, std::ios::binary) << out;
    }
    EXPECT_EQ(out, ReadFileText(golden)) << "golden " << golden;
  }
}

}  // namespace
}  // namespace xnt::replay
