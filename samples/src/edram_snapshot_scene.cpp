// An EDRAM snapshot record at the start of a trace, as a slice of a longer capture starts: the
// EDRAM holds what earlier frames left, with no draw of this trace having made it. Two targets
// live in it side by side: a 1x k_8_8_8_8 target at tile 0 and a 4x MSAA k_8_8_8_8 target at
// tile 4, every pixel (every sample of the 4x one) a different colour. Frame 0 draws a rectangle
// over the 1x target and presents it; frame 1 resolves sample 3 of the 4x target. A path that
// ignores the snapshot shows black; one that puts the snapshot's samples in the wrong place (at
// a resolution scale the 4x samples of a pixel interleave with its host copies:
// gpu/edram_snapshot.h) shows other samples' colours.
#include <cstring>

#include "edram_scenarios.h"
#include "edram_scene_builder.h"

namespace xnt::samples {
namespace {

using namespace edram_scene;

constexpr uint32_t kWidth = 64, kHeight = 32;
constexpr uint32_t kMsaaBase = 4;  // the 1x target's 32 rows are tiles 0 and 1

std::array<uint8_t, 4> Plain(uint32_t x, uint32_t y) {
  return {uint8_t(x * 4), uint8_t(y * 8), uint8_t(128 + ((x + y) & 63)), 255};
}
std::array<uint8_t, 4> Msaa(uint32_t x, uint32_t y, uint32_t sample) {
  return {uint8_t(x * 4 + sample), uint8_t(255 - y * 8), uint8_t(sample * 60), 255};
}

// The snapshot in the guest layout, worked out here from the tiling rules alone: tiles of 80x16
// 32-bit samples, a 64-pixel pitch taking one tile per row at 1x and two at 4x (two samples a
// pixel across, sample s at column 2x + (s & 1), row 2y + (s >> 1)).
std::vector<uint8_t> Snapshot() {
  std::vector<uint8_t> edram(xenos::kEdramSizeBytes, 0);
  auto put = [&](uint32_t tile, uint32_t column, uint32_t row, std::array<uint8_t, 4> c) {
    std::memcpy(edram.data() + size_t(tile) * 5120 + (row * 80 + column) * 4, c.data(), 4);
  };
  for (uint32_t y = 0; y < kHeight; ++y) {
    for (uint32_t x = 0; x < kWidth; ++x) {
      put(y / 16, x, y % 16, Plain(x, y));
      for (uint32_t s = 0; s < 4; ++s) {
        const uint32_t sx = 2 * x + (s & 1), sy = 2 * y + (s >> 1);
        put(kMsaaBase + (sy / 16) * 2 + sx / 80, sx % 80, sy % 16, Msaa(x, y, s));
      }
    }
  }
  return edram;
}

EdramScenario SnapshotRestore() {
  const Rect rect{15.75f, 7.75f, 47.75f, 23.75f, 0.0f, C8(250, 250, 40)};
  auto build = [=](SceneBuilder& s) {
    RenderTargetSetup rt;
    rt.surface_pitch = kWidth;
    s.Target(rt, kWidth, kHeight);
    s.Draw(rect);
    s.Present(kFrontA, kWidth, kHeight);
    RenderTargetSetup rt4 = rt;
    rt4.msaa = xenos::MsaaSamples::k4X;
    rt4.color_base_tiles = kMsaaBase;
    s.Target(rt4, kWidth, kHeight);
    s.Resolve(ResolveOpts{.width = kWidth, .height = kHeight, .sample_select = 3, .dest = kFrontA});
    s.Swap(kFrontA, kWidth, kHeight);
  };
  auto frames = [=] {
    Image plain = Fill(kWidth, kHeight, kDark), msaa = plain;
    for (uint32_t y = 0; y < kHeight; ++y) {
      for (uint32_t x = 0; x < kWidth; ++x) {
        const auto a = Plain(x, y), b = Msaa(x, y, 3);
        std::copy(a.begin(), a.end(), plain.rgba.begin() + 4 * (size_t(y) * kWidth + x));
        std::copy(b.begin(), b.end(), msaa.rgba.begin() + 4 * (size_t(y) * kWidth + x));
      }
    }
    Paint(plain, rect, U8(rect.color));
    return std::vector<Image>{plain, msaa};
  };
  EdramScenario sc{
      DescribedSample(
          "edram_snapshot_restore",
          "an EDRAM snapshot record before the first frame: a 1x k_8_8_8_8 target at tile 0 and "
          "a 4x MSAA one at tile 4, every pixel and sample its own colour; frame 0 draws a "
          "rectangle over the 1x target and presents it, frame 1 resolves sample 3 of the 4x "
          "target",
          "frame 0, 64x32: pixel (x, y) = (4x, 8y, 128 + ((x + y) & 63)) from the snapshot, "
          "with a yellow (250,250,40) rectangle x 16..47, y 8..23 drawn over it; frame 1 (the "
          "last): pixel (x, y) = (4x + 3, 255 - 8y, 180), sample 3 of the 4x target. All pixels "
          "exact.",
          [build](format::Writer& w) {
            w.Write(format::EdramSnapshot{Snapshot()});
            SceneBuilder b;
            build(b);
            b.Write(w);
          },
          [frames] { return frames().back(); }),
      frames, 2, "the draw takes tiles 0-1 and the resolve tiles 4-11 from the snapshot owner",
      ""};
  return sc;
}

}  // namespace

std::vector<EdramScenario> SnapshotScenarios() { return {SnapshotRestore()}; }

}  // namespace xnt::samples
