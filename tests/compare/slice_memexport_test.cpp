// Slices across memexport and resolves read in later frames (slice_memexport_4_frames: frame k
// exports the vertices and the texture frame k + 1 reads, frame 2 samples what frame 0
// resolved). Cut at every frame boundary and inside every frame, on cpu, fbo and fsi (lavapipe,
// validation on; fsi unordered there): the kept frames and the exported buffers at the end are
// the full replay's. The minimal page set must hold memory exported before the cut and read
// after it, the pages exports after the cut change, and the whole range of every stream of a kept
// exporting draw (the GPU paths copy each range back whole, compare hashes it whole).
#include <gtest/gtest.h>

#include <set>

#include "slice_test_helpers.h"
#include "xnt/replay/guest_memory.h"

namespace xnt {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSample = "slice_memexport_4_frames";
// The sample's exported buffers (slice_memexport_scene.cpp), a page each: vertex buffers 1-5
// (frame k's position stream covers buffers k + 1 and k + 2) and textures 1-4 (frame k's texel
// stream: texture k + 1).
constexpr uint32_t VertexBuffer(uint32_t k) { return 0x00500000 + k * 0x1000; }
constexpr uint32_t ExportTexture(uint32_t k) { return 0x00510000 + k * 0x1000; }
// Draws and resolves per frame: the clear, the exporting draw, then frame 0's resolve to the
// texture, frame 1-3's textured draw, frame 2's draw of the resolved texture, the present.
constexpr uint32_t kEvents[] = {4, 4, 5, 4};
constexpr uint64_t kLastFrame = 3;

struct ExportRun {
  vk::test::TraceRun trace;
  // After the last frame: vertex buffer k + 1 and texture k + 1 at [k] (what frame k exports).
  std::vector<std::vector<uint8_t>> vertex_buffers, textures;
  // The pages the streams of frames first..3 cover, as this replay left them.
  std::vector<uint8_t> ExportedFrom(uint64_t first) const {
    std::vector<uint8_t> out;
    for (uint64_t k = first; k <= kLastFrame; ++k) {
      for (const auto* page : {&vertex_buffers[k], &vertex_buffers[k + 1], &textures[k]}) {
        out.insert(out.end(), page->begin(), page->end());
      }
    }
    return out;
  }
};

ExportRun Replay(const std::string& file, renderer::Path path) {
  ExportRun run;
  renderer::SessionOptions options;
  options.on_swap = [&](uint64_t, const gpu::SwapImage& image) {
    run.trace.frames.push_back(image);
  };
  std::unique_ptr<renderer::Session> session = test::MakeSession(options, path);
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  player.Play(*format::Reader::Open(file));
  session->Flush();
  auto page = [&](uint32_t address) {
    std::vector<uint8_t> bytes(0x1000);
    player.memory().Read(address, bytes);
    return bytes;
  };
  for (uint32_t k = 1; k <= kLastFrame + 2; ++k) {
    run.vertex_buffers.push_back(page(VertexBuffer(k)));
  }
  for (uint32_t k = 1; k <= kLastFrame + 1; ++k) run.textures.push_back(page(ExportTexture(k)));
  run.trace.validation_messages = session->validation_message_count();
  run.trace.validation_report = vk::test::ValidationReport(*session);
  return run;
}

class SliceMemExport : public ::testing::TestWithParam<renderer::Path> {};

TEST_P(SliceMemExport, CutsAtFramesAndEventsAsInTheFullReplay) {
  const renderer::Path path = GetParam();
  const fs::path dir = test::TempDir(std::string("memexport_") + renderer::PathName(path));
  const std::string source = test::WriteSampleFile(kSample, dir);
  const ExportRun full = Replay(source, path);
  ASSERT_EQ(full.trace.frames.size(), kLastFrame + 1);
  const std::string out = (dir / "slice.xnt").string();
  // The buffers the kept exporting draws' streams cover hold the full replay's bytes at the end
  // (those of earlier frames' streams the slice neither reads nor writes: not its state).
  auto check = [&](const compare::SliceRange& range, const std::string& what) {
    compare::WriteSlice(source, out, range);
    const ExportRun slice = Replay(out, path);
    EXPECT_EQ(slice.trace.validation_messages, 0u) << slice.trace.validation_report;
    test::ExpectSameFrames(full.trace, range.first_frame, slice.trace, what);
    const uint64_t first_export = range.first_frame + (range.first_event.value_or(0) > 1 ? 1 : 0);
    EXPECT_TRUE(slice.ExportedFrom(first_export) == full.ExportedFrom(first_export))
        << what << ": exported buffers at the end";
  };
  for (uint64_t a = 1; a <= kLastFrame; ++a) {
    check({a, kLastFrame}, "frames " + std::to_string(a) + "-3");
  }
  // Every event on cpu; on the Vulkan paths (seconds a replay on lavapipe) the cut after each
  // frame's clear, before its exporting draw, and in frame 2 the one before its present (after
  // the draws that read the exports and the resolve).
  for (uint64_t f = 0; f <= kLastFrame; ++f) {
    const uint32_t n = kEvents[f];
    std::set<uint32_t> cuts;
    for (uint32_t k = 1; k < n; ++k) {
      if (path == renderer::Path::kCpu || k == 1 || (f == 2 && k == n - 1)) cuts.insert(k);
    }
    for (uint32_t k : cuts) {
      check({f, kLastFrame, k, kEvents[kLastFrame] - 1},
            "events " + std::to_string(f) + "." + std::to_string(k) + "-3.3");
    }
  }
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Paths, SliceMemExport,
                         ::testing::Values(renderer::Path::kCpu, renderer::Path::kFbo,
                                           renderer::Path::kFsi),
                         [](const auto& info) {
                           return std::string(renderer::PathName(info.param));
                         });

// The regression the sample found: the last frame's position stream covers vertex buffers 4 and
// 5, and its draw exports only into 4. Buffer 5, written by the trace before the cut and neither
// read nor exported to after it, is still part of the stream a GPU path copies back and compare
// hashes, so the frame's slice keeps it.
TEST(SliceMemExport, KeepsTheWholeStreamRangeOfAKeptExport) {
  const fs::path dir = test::TempDir("memexport_range");
  const std::string source = test::WriteSampleFile(kSample, dir);
  const std::string out = (dir / "slice.xnt").string();
  const compare::SliceReport report = compare::WriteSlice(source, out, {kLastFrame, kLastFrame});
  // Frame 3 reads vertex buffer 3, texture 3 and the ring's shaders, exports into vertex buffers
  // 4-5 and texture 4, resolves to the front buffer; of the 18 written pages it keeps 11.
  EXPECT_EQ(report.written_pages, 18u);
  EXPECT_EQ(report.state_pages, 11u);
  auto reader = format::Reader::Open(out);
  bool kept_buffer_5 = false;
  reader->ForEachRecord([&](const format::Record& r) {
    if (const auto* m = std::get_if<format::MemoryEvent>(&r)) {
      kept_buffer_5 |=
          m->guest_address <= 0x00505000u && m->guest_address + m->bytes.size() > 0x00505000u;
    }
    return true;
  });
  EXPECT_TRUE(kept_buffer_5);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace xnt
