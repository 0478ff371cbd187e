// `xenotrace slice --events` (compare/slice.h): a cut inside a frame starts from the state just
// before its first event and ends with the EDRAM right after its last one; its frame shows the
// front buffer as the kept events left it. Checked against one full replay that hashes the EDRAM
// after every event.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <span>
#include <set>
#include <string_view>

#include "slice_test_helpers.h"
#include "test_files.h"
#include "xnt/bench/capture_trace.h"
#include "xnt/compare/slice.h"

namespace xnt {
namespace {

namespace fs = std::filesystem;

uint64_t HashBytes(std::span<const uint8_t> bytes) {
  return std::hash<std::string_view>{}(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

// The full trace on the cpu path: its frames, each frame's event count and the EDRAM after every
// event (hashed).
struct EventRun {
  vk::test::TraceRun run;
  std::vector<uint32_t> events;                                   // per frame
  std::map<std::pair<uint64_t, uint32_t>, uint64_t> edram_after;  // (frame, event) -> hash
};

EventRun ReplayWithEventEdram(const std::string& file) {
  EventRun out;
  renderer::SessionOptions options;
  options.path = renderer::Path::kCpu;
  options.threads = 1;
  std::unique_ptr<renderer::Session> session;
  options.on_swap = [&](uint64_t, const gpu::SwapImage& image) { out.run.frames.push_back(image); };
  options.on_draw_event = [&](const renderer::DrawEvent& e) {
    if (!e.after) return;
    const uint64_t frame = e.draw->frame;
    if (out.events.size() <= frame) out.events.resize(frame + 1, 0);
    out.events[frame] = e.draw->draw_index + 1;
    out.edram_after[{frame, e.draw->draw_index}] = HashBytes(session->SnapshotEdram({}, 0).bytes());
  };
  session = renderer::Session::Create(options);
  replay::TracePlayer player(session->backend());
  session->Attach(player);
  auto reader = format::Reader::Open(file);
  player.Play(*reader);
  session->Flush();
  out.events.resize(reader->frame_count(), 0);
  return out;
}

std::string Id(uint64_t frame, uint32_t event) {
  return std::to_string(frame) + "." + std::to_string(event);
}

compare::SliceRange Events(uint64_t f, uint32_t k, uint64_t g, uint32_t m) { return {f, g, k, m}; }

// Every sample on the cpu path: in every frame, cuts at its first, middle and last event, each
// kept through the frame's last event (the frame as the full replay shows it) and alone (the
// EDRAM right after it); one cut spanning every frame from the middle of frame 0.
class SliceEventsSample : public ::testing::TestWithParam<std::string> {};

TEST_P(SliceEventsSample, CutsInsideEveryFrameOnCpu) {
  const fs::path dir = test::TempDir("events_" + GetParam());
  const std::string source = test::WriteSampleFile(GetParam(), dir);
  const EventRun full = ReplayWithEventEdram(source);
  const std::string out = (dir / "slice.xnt").string();
  auto check = [&](uint64_t f, uint32_t k, uint64_t g, uint32_t m) {
    const std::string what = GetParam() + " events " + Id(f, k) + "-" + Id(g, m);
    const compare::SliceReport report = compare::WriteSlice(source, out, Events(f, k, g, m));
    const vk::test::TraceRun slice = vk::test::ReplayTraceFile(out, renderer::Path::kCpu, 1, false);
    EXPECT_EQ(report.frames, g - f + 1) << what;
    EXPECT_EQ(HashBytes(slice.edram), full.edram_after.at({g, m}))
        << what << ": EDRAM after " << Id(g, m);
    if (m + 1 == full.events[g]) {
      vk::test::TraceRun kept = full.run;
      kept.frames.resize(g + 1);
      test::ExpectSameFrames(kept, f, slice, what);
    }
  };
  for (uint64_t f = 0; f < full.events.size(); ++f) {
    const uint32_t n = full.events[f];
    if (n == 0) continue;
    for (uint32_t k : std::set<uint32_t>{0, n / 2, n - 1}) {
      check(f, k, f, n - 1);
      if (k != n - 1) check(f, k, f, k);  // the last event alone is the cut above
    }
  }
  const uint64_t last = full.events.size() - 1;
  if (last > 0 && full.events[0] > 0 && full.events[last] > 0) {
    check(0, full.events[0] / 2, last, full.events[last] - 1);
  }
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(AllSamples, SliceEventsSample, ::testing::ValuesIn(samples::Names()),
                         [](const auto& info) { return info.param; });

// The multi-frame samples on fbo (lavapipe, validation on) and fsi: in every frame after the
// first, a cut after the frame's first event kept through its end gives the frame of the full
// replay on that path, and (fsi) a cut of the middle event alone leaves the cpu path's EDRAM
// after it.
class SliceEventsVulkan : public ::testing::TestWithParam<std::tuple<std::string, renderer::Path>> {
};

TEST_P(SliceEventsVulkan, CutsInsideFramesAsInTheFullReplay) {
  const auto& [name, path] = GetParam();
  const fs::path dir = test::TempDir("events_" + name + renderer::PathName(path));
  const std::string source = test::WriteSampleFile(name, dir);
  const EventRun cpu = ReplayWithEventEdram(source);
  const vk::test::TraceRun full = vk::test::ReplayTraceFile(source, path, 1, false);
  const std::string out = (dir / "slice.xnt").string();
  for (uint64_t f = 1; f < cpu.events.size(); ++f) {
    const uint32_t n = cpu.events[f];
    if (n < 2) continue;
    compare::WriteSlice(source, out, Events(f, 1, f, n - 1));
    vk::test::TraceRun slice = vk::test::ReplayTraceFile(out, path, 1, false);
    EXPECT_EQ(slice.validation_messages, 0u) << slice.validation_report;
    vk::test::TraceRun kept = full;
    kept.frames.resize(f + 1);
    test::ExpectSameFrames(kept, f, slice, name + " events " + Id(f, 1) + "-" + Id(f, n - 1));
    // fbo's EDRAM model holds only what resolves and snapshots of a surface stored back (its
    // host render targets own the rest), so the whole-EDRAM check is fsi's, whose storage buffer
    // is the EDRAM in guest bits.
    if (path != renderer::Path::kFsi) continue;
    compare::WriteSlice(source, out, Events(f, n / 2, f, n / 2));
    slice = vk::test::ReplayTraceFile(out, path, 1, false);
    EXPECT_EQ(HashBytes(slice.edram), cpu.edram_after.at({f, n / 2}))
        << name << " event " << Id(f, n / 2) << " alone: EDRAM after it";
  }
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    MultiFrame, SliceEventsVulkan,
    ::testing::Combine(::testing::Values("slice_resolve_chain_5_frames", "edram_snapshot_restore",
                                         "edram_shadow_map_three_pass"),
                       ::testing::Values(renderer::Path::kFbo, renderer::Path::kFsi)),
    [](const auto& info) {
      return std::get<0>(info.param) + "_" +
             std::string(renderer::PathName(std::get<1>(info.param)));
    });

// Single-frame samples that read textures (33 formats; point sprites over a mip chain; a
// texture fetch feeding memexport) cut in the middle of their frame on fbo (lavapipe, validation
// on) or fsi (the slowest pair left out): with only the pages the kept draws need, the frame is the full replay's on that
// path, and fewer pages than were written are kept.
class SliceEventsTextured
    : public ::testing::TestWithParam<std::tuple<std::string, renderer::Path>> {};

TEST_P(SliceEventsTextured, MiddleOfTheFrameWithMinimalPages) {
  const auto& [name, path] = GetParam();
  const fs::path dir = test::TempDir("events_tex_" + name + renderer::PathName(path));
  const std::string source = test::WriteSampleFile(name, dir);
  const EventRun cpu = ReplayWithEventEdram(source);
  ASSERT_EQ(cpu.events.size(), 1u);
  const uint32_t n = cpu.events[0];
  const std::string out = (dir / "slice.xnt").string();
  const compare::SliceReport report = compare::WriteSlice(source, out, Events(0, n / 2, 0, n - 1));
  EXPECT_LT(report.state_pages, report.written_pages);
  const vk::test::TraceRun full = vk::test::ReplayTraceFile(source, path, 1, false);
  const vk::test::TraceRun slice = vk::test::ReplayTraceFile(out, path, 1, false);
  EXPECT_EQ(slice.validation_messages, 0u) << slice.validation_report;
  test::ExpectSameFrames(full, 0, slice, name + " events " + Id(0, n / 2) + "-" + Id(0, n - 1));
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Textured, SliceEventsTextured,
    ::testing::Values(std::tuple{std::string("textures_many_formats"), renderer::Path::kFbo},
                      std::tuple{std::string("raster_point_sprite_mips"), renderer::Path::kFsi},
                      std::tuple{std::string("memexport_texture_fetch"), renderer::Path::kFbo},
                      std::tuple{std::string("memexport_texture_fetch"), renderer::Path::kFsi}),
    [](const auto& info) {
      return std::get<0>(info.param) + "_" + std::string(renderer::PathName(std::get<1>(info.param)));
    });

// Frame 3 of slice_resolve_chain_5_frames resolves to the front buffer at its last event (3.4);
// a slice ending at 3.3 leaves that copy out, so its swap shows the front buffer frame 2 left:
// frame 2 of the full replay, on every path.
TEST(SliceEvents, SwapShowsTheFrontBufferTheKeptEventsLeft) {
  const fs::path dir = test::TempDir("events_front");
  const std::string source = test::WriteSampleFile("slice_resolve_chain_5_frames", dir);
  const std::string out = (dir / "slice.xnt").string();
  const compare::SliceReport report = compare::WriteSlice(source, out, Events(3, 0, 3, 3));
  EXPECT_EQ(report.events, 4u);
  for (renderer::Path path : {renderer::Path::kCpu, renderer::Path::kFbo, renderer::Path::kFsi}) {
    vk::test::TraceRun full = vk::test::ReplayTraceFile(source, path, 1, false);
    const vk::test::TraceRun slice = vk::test::ReplayTraceFile(out, path, 1, false);
    ASSERT_EQ(full.frames.size(), 5u);
    EXPECT_FALSE(full.frames[2].rgba == full.frames[3].rgba);  // the check can fail
    full.frames.resize(3);
    test::ExpectSameFrames(full, 2, slice, std::string("3.0-3.3 on ") + renderer::PathName(path));
  }
  fs::remove_all(dir);
}

// A late frame of a long capture-shaped trace (bench/capture_trace.h: 30 frames of 100 draws at
// 320x240, each draw uploading its three vertices to a page of the vertex ring no earlier draw
// used): events 29.11-29.101 (draw 11 to the frame's last event, its resolve to the front buffer)
// need, of the state, draw 29.11's vertex page (the later draws' pages are uploaded after the cut,
// inside the slice), the resolve rectangle's page and the front buffer the swap scans out
// (320x240 at 32 bpp, 32x32-tiled: 320 x 256 x 4 bytes = 80 pages); the frame is the full
// replay's frame 29, and the slice is under an eighth of the source.
TEST(SliceEvents, LateFrameOfALongCaptureKeepsOnlyTheNeededPages) {
  const fs::path dir = test::TempDir("events_capture");
  const std::string source = (dir / "capture.xnt").string(), out = (dir / "slice.xnt").string();
  bench::CaptureTraceShape shape;
  shape.frames = 30;
  shape.draws_per_frame = 100;
  bench::WriteCaptureTrace(shape, source);
  const compare::SliceReport report = compare::WriteSlice(source, out, Events(29, 11, 29, 101));
  EXPECT_EQ(report.events, 91u);
  std::printf("capture slice 29.11-29.101: %llu of %llu bytes, %llu of %llu written pages\n",
              (unsigned long long)report.slice_bytes, (unsigned long long)report.source_bytes,
              (unsigned long long)report.state_pages, (unsigned long long)report.written_pages);
  EXPECT_EQ(report.state_pages, 1u + 1u + 80u) << "of " << report.written_pages;
  EXPECT_GT(report.written_pages, 29u * 100u);
  EXPECT_LT(report.slice_bytes * 8, report.source_bytes)
      << report.slice_bytes << " of " << report.source_bytes;
  const vk::test::TraceRun full = vk::test::ReplayTraceFile(source, renderer::Path::kCpu, 1, false);
  const vk::test::TraceRun slice = vk::test::ReplayTraceFile(out, renderer::Path::kCpu, 1, false);
  test::ExpectSameFrames(full, 29, slice, "capture events 29.11-29.101");
  const compare::SliceReport all = compare::WriteSlice(source, out, Events(29, 11, 29, 101), true);
  EXPECT_EQ(all.state_pages, all.written_pages);
  fs::remove_all(dir);
}

// Bad ranges: an error naming the event and the frame's events, no file; the command exits 2.
TEST(SliceEvents, BadRangesLeaveNoFile) {
  const fs::path dir = test::TempDir("events_bad");
  const std::string source = test::WriteSampleFile("slice_resolve_chain_5_frames", dir);
  const std::string out = (dir / "out.xnt").string();
  auto expect_error = [&](compare::SliceRange range, const char* words) {
    test::ExpectSliceError(source, out, range, words);
  };
  expect_error(Events(3, 9, 3, 9),
               "event 3.9 is not in frame 3 (it has 5 draws/resolves, 3.0-3.4)");
  expect_error(Events(2, 1, 3, 5), "event 3.5 is not in frame 3");
  expect_error(Events(3, 2, 3, 1), "events 3.2-3.1 are inverted");
  expect_error(Events(3, 0, 2, 4), "inverted");
  expect_error(Events(5, 0, 5, 0), "frame 5 is not in");
  expect_error({3, 3, 1, std::nullopt}, "needs both ends");
  const std::string cli = test::XenotraceCli() + " slice " + source + " -o " + out;
  for (const char* bad : {"--events 3.9", "--events 3", "--events 3.x-3.2", "--events 3.1-",
                          "--events .1", "--events 3.1 --frames 3", ""}) {
    EXPECT_EQ(test::RunShell(cli + " " + bad + " 2>/dev/null").code, 2) << bad;
  }
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(test::RunShell(cli + " --events 3.1-4.0 >/dev/null").code, 0);
  EXPECT_TRUE(fs::exists(out));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace xnt
