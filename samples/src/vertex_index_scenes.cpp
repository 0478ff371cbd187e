// The sequencer's vertex index rule (renderer/gpu vertex_index.h): VGT_INDX_OFFSET added to every
// index, auto-generated ones too, then the sum clamped to [VGT_MIN_VTX_INDX, VGT_MAX_VTX_INDX].
// Each draw's vertex buffer starts with a red decoy shape that only a path ignoring the offset
// would draw; the clamp turns the last vertex of a strip into its predecessor, so only the strip's
// first triangle has area.
#include "edram_scene_builder.h"
#include "raster_scenes.h"

namespace xnt::samples {
namespace {

using namespace edram_scene;

constexpr Rgba kGreen = C8(60, 200, 90);
constexpr Rgba kBlue = C8(40, 120, 230);

std::vector<std::array<float, 3>> StripOf(const Rect& r) {
  return {{r.x0, r.y0, 0.0f}, {r.x1, r.y0, 0.0f}, {r.x0, r.y1, 0.0f}, {r.x1, r.y1, 0.0f}};
}

Sample IndexOffsetAndClamp() {
  const Rect decoy_top{1.75f, 1.75f, 29.75f, 13.75f};
  const Rect green{33.75f, 1.75f, 61.75f, 13.75f};
  const Rect decoy_bottom{1.75f, 17.75f, 29.75f, 29.75f};
  // The blue strip: top edge y = 17.75, right edge x = 61.75, its first triangle's third edge
  // along x - y = 32.5 (no pixel centre on any edge, with or without the half-pixel offset); the
  // fourth corner (50.25, 29.25) would add the lower-left half.
  const std::vector<std::array<float, 3>> blue = {
      {50.25f, 17.75f, 0.0f}, {61.75f, 17.75f, 0.0f}, {61.75f, 29.25f, 0.0f}, {50.25f, 29.25f, 0.0f}};
  auto build = [=](SceneBuilder& s) {
    s.ColorDepthTarget(64, 32, 2, Packed8888(kDark), 0xFFFFFF00u);
    std::vector<std::array<float, 3>> v = StripOf(decoy_top);
    for (const auto& p : StripOf(green)) v.push_back(p);
    s.VertexIndexRange(4, 0, 0xFFFFFF);  // vertices 4..7: the green rectangle
    s.DrawFlat(v, kGreen, xenos::PrimitiveType::kTriangleStrip, 4);
    v = StripOf(decoy_bottom);
    v.insert(v.end(), blue.begin(), blue.end());
    s.VertexIndexRange(4, 0, 6);  // 4, 5, 6, 7 -> 6: the second triangle has no area
    s.DrawFlat(v, kBlue, xenos::PrimitiveType::kTriangleStrip, 4);
    s.VertexIndexRange(0, 0, 0xFFFFFF);  // the present's resolve draws with the whole range
    s.Present(kFrontA, 64, 32);
  };
  auto frames = [=] {
    Image img = Fill(64, 32, kDark);
    Paint(img, green, U8(kGreen));
    const auto c = U8(kBlue);
    for (uint32_t y = 18; y < 32; ++y) {
      for (uint32_t x = 0; x <= 61; ++x) {
        if (int32_t(x) - int32_t(y) >= 33) {
          std::copy(c.begin(), c.end(), img.rgba.begin() + 4 * (size_t(y) * 64 + x));
        }
      }
    }
    return std::vector<Image>{img};
  };
  return MakeSample(
      "vertex_index_offset_clamp",
      "two auto-indexed 4-vertex strips with VGT_INDX_OFFSET 4 over 8-vertex buffers whose first "
      "4 vertices are a red decoy; the second with VGT_MAX_VTX_INDX 6, so its last vertex is "
      "vertex 6 again",
      "64x32 frame: dark (16,24,32); green (60,200,90) at x 34..61, y 2..13 (vertices 4..7); blue "
      "(40,120,230) right triangle with its right angle at the upper right: pixels with y >= 18, "
      "x <= 61 and x - y >= 33 (the strip's first triangle; the clamped fourth vertex leaves the "
      "second without area); no red anywhere. All pixels exact.",
      build, frames);
}

}  // namespace

std::vector<Sample> VertexIndexSamples() { return {IndexOffsetAndClamp()}; }

}  // namespace xnt::samples
