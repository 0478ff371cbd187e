// `xenotrace replay` as users run it (the README's main command): write the bundled sample, replay
// it with --validate --json, and check the PNG's pixels against the sample's expected image, the
// JSON summary, and the exit codes for bad usage.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "test_env.h"
#include "test_files.h"
#include "xnt/samples/samples.h"

namespace xnt::vk {
namespace {

const std::string kCli = std::string(XNT_BINARY_DIR) + "/tools/xenotrace";
// Per test: the tests of this file run side by side as processes (test_files.h).
std::filesystem::path Work() { return ::xnt::test::TestWorkDir("renderer"); }

::xnt::test::ShellResult Shell(const std::string& command) {
  return ::xnt::test::RunShell(command + " 2>/dev/null");
}

TEST(CliReplay, ReadmeCommandWritesTheExpectedPng) {
  test::UseLavapipe();
  std::filesystem::remove_all(Work());
  const char* name = "clear_draws_resolve_swap";
  auto write = Shell(kCli + " samples write " + name + " -o " + Work().string());
  ASSERT_EQ(write.code, 0) << write.out;
  std::string trace = (Work() / (std::string(name) + ".xnt")).string();
  auto replay = Shell(kCli + " replay " + trace + " --out " + (Work() / "frames").string() +
                      " --validate --json");
  ASSERT_EQ(replay.code, 0) << replay.out;
  EXPECT_NE(replay.out.find("\"validation_messages\": 0"), std::string::npos) << replay.out;
  EXPECT_NE(replay.out.find("\"frames_written\": 1"), std::string::npos) << replay.out;
  EXPECT_NE(replay.out.find("\"draws_per_second\""), std::string::npos) << replay.out;

  int w = 0, h = 0, c = 0;
  stbi_uc* png = stbi_load((Work() / "frames" / "frame_0000.png").c_str(), &w, &h, &c, 4);
  ASSERT_NE(png, nullptr);
  samples::Image expected = samples::Find(name)->expected_image();
  ASSERT_EQ(uint32_t(w), expected.width);
  ASSERT_EQ(uint32_t(h), expected.height);
  EXPECT_EQ(std::memcmp(png, expected.rgba.data(), expected.rgba.size()), 0);
  stbi_image_free(png);
}

// --json lists every note with its kind, register/field and first draw F.K. The sample's draw
// 0.2 has RB_MODECONTROL edram_mode 0, which no path draws (0.1 has no target): the same list on
// every path.
TEST(CliReplay, JsonListsNotesWithKindRegisterAndDraw) {
  test::UseLavapipe();
  const char* name = "memexport_skipped_draw";
  ASSERT_EQ(Shell(kCli + " samples write " + name + " -o " + Work().string()).code, 0);
  const std::string trace = (Work() / (std::string(name) + ".xnt")).string();
  for (const char* path : {"cpu", "fbo", "fsi --fsi-ordering unordered"}) {
    auto r = Shell(kCli + " replay " + trace + " --out " + (Work() / "notes").string() +
                   " --json --validate --path " + path);
    ASSERT_EQ(r.code, 0) << path << "\n" << r.out;
    EXPECT_NE(r.out.find("{\"kind\": \"skipped\", \"register\": \"RB_MODECONTROL\", \"field\": "
                         "\"edram_mode\", \"event\": \"0.2\", \"events\": 1, \"count\": 1, "
                         "\"text\": \"draw with RB_MODECONTROL edram_mode 0 (not colour/depth) "
                         "skipped\"}"),
              std::string::npos)
        << path << "\n" << r.out;
    EXPECT_NE(r.out.find("\"event\": \"0.1\""), std::string::npos) << path << "\n" << r.out;
    EXPECT_NE(r.out.find("\"notes_by_kind\": {\"skipped\": 2}"), std::string::npos)
        << path << "\n" << r.out;
  }
}

// Without --validate the process ends without destroying the device once its outputs are
// written: the JSON summary still reaches stdout whole, the frame is the expected one, the
// exit codes are unchanged, and the pipeline cache the context's destruction would have saved
// is in the cache folder (written before the process ends).
TEST(CliReplay, EndingWithoutTeardownStillWritesEverything) {
  test::UseLavapipe();
  const char* name = "clear_draws_resolve_swap";
  ASSERT_EQ(Shell(kCli + " samples write " + name + " -o " + Work().string()).code, 0);
  const std::string trace = (Work() / (std::string(name) + ".xnt")).string();
  for (const char* path : {"fbo", "fsi --fsi-ordering unordered", "cpu"}) {
    const std::filesystem::path cache = Work() / "cache";
    std::filesystem::remove_all(cache);
    std::filesystem::remove_all(Work() / "frames");
    auto r = Shell("XDG_CACHE_HOME=" + cache.string() + " " + kCli + " replay " + trace +
                   " --out " + (Work() / "frames").string() + " --json --path " + path);
    ASSERT_EQ(r.code, 0) << path << "\n" << r.out;
    EXPECT_NE(r.out.find("\"frames_written\": 1"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.substr(r.out.size() - 4), "]\n}\n") << r.out;
    int w = 0, h = 0, c = 0;
    stbi_uc* png = stbi_load((Work() / "frames" / "frame_0000.png").c_str(), &w, &h, &c, 4);
    ASSERT_NE(png, nullptr) << path;
    const samples::Image expected = samples::Find(name)->expected_image();
    ASSERT_EQ(uint32_t(w) * uint32_t(h) * 4, expected.rgba.size());
    EXPECT_EQ(std::memcmp(png, expected.rgba.data(), expected.rgba.size()), 0) << path;
    stbi_image_free(png);
    bool pipeline_cache = false;
    if (std::filesystem::exists(cache / "xenotrace")) {
      for (const auto& e : std::filesystem::directory_iterator(cache / "xenotrace")) {
        pipeline_cache |= e.path().filename().string().rfind("vk-pipelines-", 0) == 0;
      }
    }
    EXPECT_EQ(pipeline_cache, std::string(path) != "cpu") << path;
    // A frame the trace does not have is still exit code 1.
    EXPECT_EQ(Shell(kCli + " replay " + trace + " --out " + (Work() / "frames").string() +
                    " --frames 3 --path " + path).code, 1) << path;
  }
}

TEST(CliReplay, UsageErrors) {
  test::UseLavapipe();
  const char* name = "triangle_fan";
  ASSERT_EQ(Shell(kCli + " samples write " + name + " -o " + Work().string()).code, 0);
  std::string trace = (Work() / (std::string(name) + ".xnt")).string();
  std::string out = " --out " + (Work() / "usage").string();
  std::filesystem::remove_all(Work() / "usage");
  EXPECT_EQ(Shell(kCli + " replay " + trace + out + " --path fsi").code, 2);
  // A path that cannot run is refused before anything is written.
  EXPECT_FALSE(std::filesystem::exists(Work() / "usage"));
  EXPECT_EQ(Shell(kCli + " replay " + trace + out + " --frames 3-1").code, 2);
  EXPECT_EQ(Shell(kCli + " replay " + trace + out + " --frames x").code, 2);
  EXPECT_EQ(Shell(kCli + " replay " + trace + out + " --device 42").code, 2);
  EXPECT_EQ(Shell(kCli + " replay /nonexistent.xnt" + out).code, 2);
  // Frames past the end: plays, writes nothing, and says so in its exit code.
  auto r = Shell(kCli + " replay " + trace + out + " --frames 5-6 --json");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("\"frames_written\": 0"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace xnt::vk
