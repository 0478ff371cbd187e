// The cpu path end to end through a session (renderer/session.h), with the Vulkan loader pointed
// at no driver at all: every bundled sample must replay to its CPU-computed expected image, and
// the Xenia oracle traces to the PNG Xenia rendered.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "edram_scenarios.h"
#include "xnt/capture/xtr_import.h"
#include "xnt/cpu/cpu_backend.h"
#include "xnt/format/reader.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"
#include "xnt/samples/samples.h"
#include "prerequisite.h"
#include "test_files.h"

namespace xnt::cpu {
namespace {

// Per test: the tests of this file run side by side as processes (test_files.h).
std::filesystem::path Work() { return ::xnt::test::TestWorkDir("cpu"); }
const std::filesystem::path kOracle = std::filesystem::path(XNT_SHARED_DIR) / "xenia-oracle";

struct Replayed {
  gpu::SwapImage last;
  uint64_t swaps = 0;
  std::map<std::string, uint64_t> notes;
  renderer::SessionStats stats;
};

Replayed Replay(const std::function<void(replay::TracePlayer&)>& feed, uint32_t threads = 0) {
  // No Vulkan driver: the cpu path must not need one.
  setenv("VK_DRIVER_FILES", "/nonexistent/icd.json", 1);
  setenv("VK_ICD_FILENAMES", "/nonexistent/icd.json", 1);
  Replayed out;
  renderer::SessionOptions options;
  options.path = renderer::Path::kCpu;
  options.threads = threads;
  options.on_swap = [&](uint64_t, const gpu::SwapImage& image) {
    out.last = image;
    ++out.swaps;
  };
  auto session = renderer::Session::Create(options);
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  feed(player);
  session->Flush();
  out.notes = session->notes();
  out.stats = session->stats();
  return out;
}

bool Noted(const Replayed& r, const std::string& needle) {
  for (const auto& [what, count] : r.notes) {
    if (what.find(needle) != std::string::npos) return true;
  }
  return false;
}

std::string Notes(const Replayed& r) {
  std::string s;
  for (const auto& [what, count] : r.notes) s += "\n  " + what + " (x" + std::to_string(count) + ")";
  return s;
}

class CpuSample : public ::testing::TestWithParam<std::string> {};

TEST_P(CpuSample, ReplaysToItsExpectedImage) {
  const samples::Sample* sample = samples::Find(GetParam());
  ASSERT_NE(sample, nullptr);
  const std::string file = (Work() / (sample->name + ".xnt")).string();
  samples::WriteSample(*sample, file);
  Replayed r = Replay([&](replay::TracePlayer& player) {
    player.Play(*format::Reader::Open(file));
  });
  ASSERT_GE(r.swaps, 1u) << Notes(r);
  EXPECT_EQ(r.stats.draws_skipped, sample->draws_skipped) << Notes(r);
  if (!sample->expected_image) return;
  const samples::Image expected = sample->expected_image();
  ASSERT_EQ(r.last.width, expected.width);
  ASSERT_EQ(r.last.height, expected.height);
  const bool same = std::memcmp(r.last.rgba.data(), expected.rgba.data(), expected.rgba.size()) == 0;
  EXPECT_TRUE(same) << sample->name << Notes(r);
}

INSTANTIATE_TEST_SUITE_P(AllSamples, CpuSample, ::testing::ValuesIn(samples::Names()),
                         [](const auto& info) { return info.param; });

// Every swapped frame of every EDRAM scenario (the sample tests above see only the last one):
// the scenarios that prove exact guest formats show the stored bits in earlier frames too.
class CpuScenario : public ::testing::TestWithParam<size_t> {};

TEST_P(CpuScenario, EveryFrameExact) {
  const samples::EdramScenario& sc = samples::EdramScenarios()[GetParam()];
  const std::string file = (Work() / (sc.sample.name + "_frames.xnt")).string();
  samples::WriteSample(sc.sample, file);
  std::vector<gpu::SwapImage> frames;
  CpuBackendOptions o;
  o.on_swap = [&](uint64_t, const gpu::SwapImage& image) { frames.push_back(image); };
  CpuBackend backend(o);
  replay::TracePlayer player(backend);
  backend.Attach(&player.memory(), &player.registers());
  player.Play(*format::Reader::Open(file));
  const std::vector<samples::Image> expected = sc.expected_frames();
  ASSERT_EQ(frames.size(), expected.size());
  for (size_t f = 0; f < expected.size(); ++f) {
    ASSERT_EQ(frames[f].width, expected[f].width);
    ASSERT_EQ(frames[f].height, expected[f].height);
    size_t differ = 0, first = SIZE_MAX;
    for (size_t i = 0; i < expected[f].rgba.size() / 4; ++i) {
      if (std::memcmp(&frames[f].rgba[i * 4], &expected[f].rgba[i * 4], 4) != 0) {
        if (first == SIZE_MAX) first = i;
        ++differ;
      }
    }
    EXPECT_EQ(differ, 0u) << sc.sample.name << " frame " << f << ": first differing pixel ("
                          << first % expected[f].width << ", " << first / expected[f].width
                          << ") got " << int(frames[f].rgba[first * 4]) << ","
                          << int(frames[f].rgba[first * 4 + 1]) << ","
                          << int(frames[f].rgba[first * 4 + 2]) << " want "
                          << int(expected[f].rgba[first * 4]) << ","
                          << int(expected[f].rgba[first * 4 + 1]) << ","
                          << int(expected[f].rgba[first * 4 + 2]);
  }
}

INSTANTIATE_TEST_SUITE_P(EdramScenarios, CpuScenario,
                         ::testing::Range(size_t(0), samples::EdramScenarios().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           return samples::EdramScenarios()[info.param].sample.name;
                         });

// Row bands run on several threads for large draws; the frame must not depend on how many.
// Played on CpuBackend directly to see that some draw really ran on several threads.
TEST(CpuThreads, TheImageIsTheSameForAnyThreadCount) {
  uint64_t parallel_draws = 0;
  for (const char* name : {"clear_draws_resolve_swap", "triangle_fan", "indexed_quad_list",
                           "edram_float24_prepass_equal", "textures_many_formats"}) {
    const samples::Sample* sample = samples::Find(name);
    if (!sample) continue;  // corpus samples need ../shared
    std::filesystem::create_directories(Work());
    const std::string file = (Work() / (std::string(name) + "_threads.xnt")).string();
    samples::WriteSample(*sample, file);
    auto play = [&](uint32_t threads, uint64_t* parallel) {
      gpu::SwapImage last;
      CpuBackendOptions o;
      o.threads = threads;
      o.on_swap = [&](uint64_t, const gpu::SwapImage& image) { last = image; };
      CpuBackend backend(o);
      replay::TracePlayer player(backend);
      backend.Attach(&player.memory(), &player.registers());
      player.Play(*format::Reader::Open(file));
      *parallel = backend.stats().parallel_draws;
      return last.rgba;
    };
    uint64_t p1 = 0, p3 = 0, p7 = 0;
    const std::vector<uint8_t> one = play(1, &p1), three = play(3, &p3), seven = play(7, &p7);
    ASSERT_FALSE(one.empty());
    EXPECT_EQ(p1, 0u);
    EXPECT_EQ(p3, p7) << name;
    parallel_draws += p3;
    EXPECT_EQ(one, three) << name;
    EXPECT_EQ(one, seven) << name;
  }
  // Some of these draws are large enough for row bands on several threads (else this test
  // would not test threading).
  EXPECT_GT(parallel_draws, 0u);
}

class CpuOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(CpuOracle, MatchesXeniasFrame) {
  if (!std::filesystem::exists(kOracle)) XNT_MISSING_PREREQUISITE() << kOracle << " is not present";
  const std::string name = GetParam();
  std::ifstream in(kOracle / (name + ".xtr"), std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Replayed r = Replay([&](replay::TracePlayer& player) {
    capture::ImportXtr(bytes, [&](format::Record&& rec) { player.Apply(rec); });
  });
  int w = 0, h = 0, c = 0;
  stbi_uc* png = stbi_load((kOracle / (name + ".xenia.png")).c_str(), &w, &h, &c, 4);
  ASSERT_NE(png, nullptr);
  ASSERT_EQ(uint32_t(w), r.last.width);
  ASSERT_EQ(uint32_t(h), r.last.height);
  uint64_t differing = 0;
  for (size_t i = 0; i < size_t(w) * size_t(h); ++i) {
    for (int k = 0; k < 3; ++k) {  // RGB: both force alpha to 255
      if (png[i * 4 + size_t(k)] != r.last.rgba[i * 4 + size_t(k)]) {
        ++differing;
        break;
      }
    }
  }
  stbi_image_free(png);
  EXPECT_EQ(differing, 0u) << name << Notes(r);
  EXPECT_FALSE(Noted(r, "not implemented")) << Notes(r);
}

INSTANTIATE_TEST_SUITE_P(XeniaOracle, CpuOracle,
                         ::testing::Values("triangle_flat", "clear_resolve_tiled", "msaa_4x",
                                           "textured_quad_8888_tiled"));

}  // namespace
}  // namespace xnt::cpu
