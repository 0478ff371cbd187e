// The fsi path against the cpu path, which implements every output-merger rule on EDRAM guest
// bits and is the reference: each bundled sample replayed on both gives the same bytes in every
// swapped frame and in the whole EDRAM afterwards (colour and depth/stencil guest bits), with the
// validation layer (synchronization validation included) silent.
//
// lavapipe has no VK_EXT_fragment_shader_interlock, so there the sessions use the named
// `unordered` test mode (SessionOptions::fsi_unordered; docs/fsi.md): llvmpipe rasterizes each
// tile of a draw on one thread in primitive order, so the shaders' read-modify-write of the
// EDRAM buffer is ordered without interlock. The many-triangle blending samples below are what
// checks that claim. On a device with interlock the real mode runs.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <tuple>

#include <unistd.h>

#include "replay_helpers.h"
#include "test_env.h"
#include "xnt/base/error.h"
#include "xnt/format/reader.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/trace_player.h"
#include "xnt/samples/samples.h"

namespace xnt::vk {
namespace {

using PathRun = test::TraceRun;

// Written on every run (a file kept from an earlier build would replay an older sample), under
// a name of this process's own and renamed into place: ctest runs each test in a process of
// its own, and two of them may write one sample at once.
std::string WriteSampleFile(const samples::Sample& sample) {
  const auto path = std::filesystem::path(XNT_BINARY_DIR) / "tests" / "renderer" / "fsi" /
                    ("sample_" + sample.name + ".xnt");
  std::filesystem::create_directories(path.parent_path());
  const std::string own = path.string() + "." + std::to_string(::getpid());
  samples::WriteSample(sample, own);
  std::filesystem::rename(own, path);
  return path.string();
}

PathRun Replay(const std::string& file, renderer::Path path, ResolutionScale scale) {
  return test::ReplayTraceFile(file, path, scale, /*synchronization_validation=*/true);
}

std::string Notes(const PathRun& r) {
  std::string out;
  for (const auto& [what, count] : r.notes) out += "\n  " + what + " (" + std::to_string(count) + ")";
  return out;
}

class FsiMatchesCpu
    : public ::testing::TestWithParam<std::tuple<std::string, ResolutionScale>> {};

TEST_P(FsiMatchesCpu, SameFramesAndEdramBytes) {
  const samples::Sample* sample = samples::Find(std::get<0>(GetParam()));
  ASSERT_NE(sample, nullptr);
  const ResolutionScale scale = std::get<1>(GetParam());
  const std::string file = WriteSampleFile(*sample);
  const PathRun cpu = Replay(file, renderer::Path::kCpu, scale);
  const PathRun fsi = Replay(file, renderer::Path::kFsi, scale);
  EXPECT_EQ(fsi.validation_messages, 0u) << fsi.validation_report;
  EXPECT_EQ(fsi.stats.draws, cpu.stats.draws) << "fsi notes:" << Notes(fsi);
  EXPECT_EQ(fsi.stats.draws_skipped, cpu.stats.draws_skipped) << "fsi notes:" << Notes(fsi);
  ASSERT_EQ(fsi.frames.size(), cpu.frames.size());
  for (size_t f = 0; f < cpu.frames.size(); ++f) {
    const gpu::SwapImage& a = cpu.frames[f];
    const gpu::SwapImage& b = fsi.frames[f];
    ASSERT_EQ(b.width, a.width);
    ASSERT_EQ(b.height, a.height);
    size_t differ = 0, first = SIZE_MAX;
    // One comparison of the whole frame first: this file compiles at -O0 under ASan in CI, where
    // the per-pixel loop below costs seconds on a large frame; it runs only to describe a failure.
    const size_t pixels = a.rgba == b.rgba ? 0 : a.rgba.size() / 4;
    for (size_t i = 0; i < pixels; ++i) {
      if (std::memcmp(&a.rgba[i * 4], &b.rgba[i * 4], 4) != 0) {
        if (first == SIZE_MAX) first = i;
        ++differ;
      }
    }
    if (auto it = sample->differs_on.find("fsi"); it != sample->differs_on.end()) {
      // A host sampler's own choice the sample declares: the difference must still be there
      // (else the declaration is stale), and only in the frames, never in the EDRAM's rules.
      EXPECT_GT(differ, 0u) << sample->name << " now matches on fsi; remove: " << it->second;
      continue;
    }
    EXPECT_EQ(differ, 0u) << sample->name << " frame " << f << " on " << fsi.device
                          << ": first differing pixel (" << first % a.width << ", "
                          << first / a.width << ") cpu "
                          << (first == SIZE_MAX ? 0 : int(a.rgba[first * 4])) << " fsi "
                          << (first == SIZE_MAX ? 0 : int(b.rgba[first * 4])) << "; fsi notes:"
                          << Notes(fsi);
  }
  if (sample->differs_on.count("fsi")) return;  // the EDRAM holds the same frame's texels
  ASSERT_EQ(fsi.edram.size(), cpu.edram.size());
  size_t differ = 0, first = SIZE_MAX;
  const size_t bytes = cpu.edram == fsi.edram ? 0 : cpu.edram.size();
  for (size_t i = 0; i < bytes; i += 4) {
    if (std::memcmp(&cpu.edram[i], &fsi.edram[i], 4) != 0) {
      if (first == SIZE_MAX) first = i;
      ++differ;
    }
  }
  EXPECT_EQ(differ, 0u) << sample->name << ": EDRAM dwords differ, first at byte " << first;
}

std::vector<std::string> SampleNames() {
  std::vector<std::string> names;
  for (const auto& s : samples::Registry()) names.push_back(s.name);
  return names;
}

std::string ParamName(
    const ::testing::TestParamInfo<std::tuple<std::string, ResolutionScale>>& info) {
  return std::get<0>(info.param) + "_" + std::get<1>(info.param).Name();
}

// At 1x1 and 2x2 (host pixels per guest pixel), each against the cpu path at the same scale.
INSTANTIATE_TEST_SUITE_P(AllSamples, FsiMatchesCpu,
                         ::testing::Combine(::testing::ValuesIn(SampleNames()),
                                            ::testing::Values(ResolutionScale{1, 1},
                                                              ResolutionScale{2, 2})),
                         ParamName);

// The samples that draw with a texture a resolve made, at 3x3 too: at a scale the texture is
// read from the scaled copy the resolve kept (as the cpu path reads it), at S x S texels per guest
// texel. The first two tell the copies apart from the 1x bytes only at 3x3 (their edges fall on
// guest pixel boundaries at 2x2), where each differs from the cpu path when fsi samples the 1x
// bytes (checked by disabling the scaled copies' mirror: frames differ); the scale samples pass
// either way (scenes that box-downsample exactly) and check coordinates and tap offsets.
INSTANTIATE_TEST_SUITE_P(ResolvedTextures, FsiMatchesCpu,
                         ::testing::Combine(::testing::Values("edram_float16_above_65504_resolve",
                                                              "edram_shadow_map_three_pass",
                                                              "scale_resolve_texture_2x2",
                                                              "scale_bloom_taps_72x40_pitch96"),
                                            ::testing::Values(ResolutionScale{3, 3})),
                         ParamName);

// Lines and points at non-square scales: the guest's quads through the line-quad and point-quad
// geometry shaders (lines' corners snapped by the host as the cpu path snaps them,
// gpu/line_width.h LineHalfWidth; points width x height guest pixels with the sprite
// coordinate), user clip planes and vertex kill passed through them as clip/cull distances (by
// ps_ucp_mode, measured again at each point's corners).
INSTANTIATE_TEST_SUITE_P(LinesAndPointsAtNonSquareScales, FsiMatchesCpu,
                         ::testing::Combine(::testing::Values("raster_lines_list_strip_loop",
                                                              "raster_wide_lines",
                                                              "raster_point_sprite_mips",
                                                              "raster_point_size_nonsquare",
                                                              "interp_param_gen",
                                                              "clip_vertex_kill",
                                                              "clip_points_planes_kill",
                                                              "clip_points_ucp_modes"),
                                            ::testing::Values(ResolutionScale{1, 3},
                                                              ResolutionScale{3, 1},
                                                              ResolutionScale{2, 3})),
                         ParamName);

}  // namespace
}  // namespace xnt::vk
