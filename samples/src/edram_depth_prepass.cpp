// A depth pre-pass as games record one: RB_MODECONTROL kDepth with the colour pass's pixel
// shader and alpha test still bound, then the colour pass with the depth test EQUAL over the
// same triangles. Two rules meet here:
//  - in kDepth mode the pixel shader does not run at all (Xenia xenos.h, the ModeControl::kDepth
//    comment: 415607E6 and 5454082B bind texture-fetching, alpha-tested and shadow-map shaders
//    for such passes; draw_util.cc IsPixelShaderNeededWithRasterization), so a shader that kills
//    every pixel and an alpha test that passes none still leave the triangle's depth behind;
//    in kColorDepth mode with the colour writes masked the same shader and test leave none;
//  - EQUAL passes only where both passes compute every sample's depth bit for bit alike: the
//    triangles here are sloped and non-dyadic, so a path whose depth-only draws interpolate
//    depth differently from its shaded ones (the fsi path's host plane against its exact plane,
//    docs/fsi.md) shows holes.
#include "edram_scenarios.h"

#include "edram_scene_builder.h"
#include "listing_head.h"

namespace xnt::samples {
namespace {

using namespace edram_scene;

// Kills every pixel (c0.w = 1 >= 0) and writes a colour the frame must never show.
const char* const kKillingPixelShader = XNT_SAMPLE_PS_HEAD R"(    exec
    mov r0, c0
    + kills_ge r1.x, c0.w
    alloc colors
    exece
    mov oC0, r0
)";

constexpr uint32_t kWidth = 64, kHeight = 32, kCell = 16;

struct Triangle {
  std::array<std::array<float, 3>, 3> v;
  Rgba color;
};

// Cell i of 4 x 2 cells of 16 x 16 pixels: a triangle whose corners lie 48..80 pixels from the
// cell's centre at angles 120 degrees apart, each turned by up to +-15 degrees. Two corners at
// radii r1, r2 >= 48 and 90..150 degrees apart span an edge r1 r2 sin(a) / |P1 - P2| from the
// centre, smallest at r1 = r2 = 48 and a = 150: 48 cos(75 deg) = 12.4, more than the cell's
// half diagonal (11.3), so the scissored cell lies wholly inside whatever the edge rules.
// Positions and depths come from a fixed generator and are not dyadic: rounding differs between
// ways of setting up the depth plane.
std::vector<Triangle> Triangles() {
  uint64_t s = 0x5EED0D7Full;
  auto next = [&] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return double(uint32_t(s >> 40)) / 16777216.0;  // [0, 1), 24 bits
  };
  const double kPi = 3.14159265358979323846;
  std::vector<Triangle> out;
  for (uint32_t i = 0; i < 8; ++i) {
    const double cx = (i % 4) * kCell + kCell / 2.0, cy = (i / 4) * kCell + kCell / 2.0;
    const double turn = next() * 2.0 * kPi;
    const bool reverse = next() < 0.5;  // both windings (no culling)
    Triangle t;
    for (uint32_t k = 0; k < 3; ++k) {
      const double angle =
          turn + (reverse ? -1.0 : 1.0) * k * 2.0 * kPi / 3.0 + (next() - 0.5) * kPi / 6.0;
      const double radius = 48.0 + 32.0 * next();
      t.v[k] = {float(cx + radius * std::cos(angle)), float(cy + radius * std::sin(angle)),
                float(0.1 + 0.8 * next())};
    }
    t.color = C8(40 + 25 * i, 200 - 20 * i, 90 + 15 * (i % 3));
    out.push_back(t);
  }
  return out;
}

EdramScenario DepthPrepassKDepth() {
  const std::vector<Triangle> tris = Triangles();
  const std::array<uint8_t, 4> kDark = {20, 20, 28, 255};
  auto build = [=](SceneBuilder& s) {
    s.ColorDepthTarget(kWidth, kHeight, 2, Packed8888(kDark), 0xFFFFFF00u);
    // The pre-pass: the killing shader and an alpha test that passes nothing, colour masked.
    s.FlatPixelShader(kKillingPixelShader);
    s.ColorMask(0);
    s.AlphaTest(CompareFunction::kNever);
    s.Depth(true, true, CompareFunction::kLess);
    for (uint32_t i = 0; i < 8; ++i) {
      // Top row kDepth (the shader does not run), bottom row kColorDepth (it kills).
      s.Mode(i < 4 ? xenos::ModeControl::kDepth : xenos::ModeControl::kColorDepth);
      s.Scissor((i % 4) * kCell, (i / 4) * kCell, (i % 4 + 1) * kCell, (i / 4 + 1) * kCell);
      s.DrawTriangle(tris[i].v, tris[i].color);
    }
    // The colour pass.
    s.Mode(xenos::ModeControl::kColorDepth);
    s.FlatPixelShader();
    s.ColorMask(0xF);
    s.AlphaTest(CompareFunction::kAlways);
    s.Depth(true, false, CompareFunction::kEqual);
    for (uint32_t i = 0; i < 8; ++i) {
      s.Scissor((i % 4) * kCell, (i / 4) * kCell, (i % 4 + 1) * kCell, (i / 4 + 1) * kCell);
      s.DrawTriangle(tris[i].v, tris[i].color);
    }
    s.Depth(false, false, CompareFunction::kAlways);
    s.Present(kFrontA, kWidth, kHeight);
  };
  auto frames = [=] {
    Image img = Fill(kWidth, kHeight, kDark);
    for (uint32_t i = 0; i < 4; ++i) {
      const Rect cell{float(i * kCell), 0.0f, float((i + 1) * kCell), float(kCell), 0.0f,
                      tris[i].color};
      Paint(img, cell, U8(cell.color));
    }
    return std::vector<Image>{img};
  };
  return {MakeSample("edram_depth_prepass_kdepth",
                     "depth pre-pass in RB_MODECONTROL kDepth mode with a killing pixel shader "
                     "and alpha test NEVER bound (neither applies: the shader does not run), "
                     "beside the same pre-pass in kColorDepth with colour masked (the shader "
                     "kills); then an EQUAL colour pass over the same sloped, non-dyadic "
                     "triangles, each scissored to a 16x16 cell",
                     "64x32 frame: dark (20,20,28) background; the top row's four 16x16 cells "
                     "solid in their triangles' colours (40,200,90), (65,180,105), (90,160,120), "
                     "(115,140,90): EQUAL passes on every pixel; the bottom row dark (no depth "
                     "was written there). All pixels exact.",
                     build, frames),
          frames, 0, "colour and depth at separate tiles, nothing changes owner", ""};
}

}  // namespace

std::vector<EdramScenario> DepthPrepassScenarios() { return {DepthPrepassKDepth()}; }

}  // namespace xnt::samples
