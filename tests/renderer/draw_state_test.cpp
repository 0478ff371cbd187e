// Register -> host state on the CPU: the viewport transform folded into ndc_scale/ndc_offset
// (VTE enables, window offset, half-pixel), the scissor intersection, depth/stencil, blending,
// culling and the system-constant flags.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <vector>

#include "xnt/vk/draw_state.h"
#include "xnt/gpu/point_size.h"
#include "xnt/gpu/resolve.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {
namespace {

using xenos::Reg;

struct Regs {
  std::vector<uint32_t> v = std::vector<uint32_t>(xenos::kRegisterCount, 0);
  void Set(Reg r, uint32_t x) { v[xenos::RegIndex(r)] = x; }
  void SetF(Reg r, float f) { Set(r, std::bit_cast<uint32_t>(f)); }
  gpu::RegisterValues view() const { return v; }
};

// Host NDC of a guest NDC/screen position through the folded transform.
float HostX(const HostViewport& vp, float x) { return x * vp.ndc_scale[0] + vp.ndc_offset[0]; }
float HostY(const HostViewport& vp, float y) { return y * vp.ndc_scale[1] + vp.ndc_offset[1]; }

TEST(DrawState, ViewportScaleOffsetAndHalfPixel) {
  Regs r;
  // Direct3D 9 style viewport for 320x240: x = ndc * 160 + 160, y = ndc * -120 + 120.
  r.Set(Reg::PA_CL_VTE_CNTL, 0x3F);
  r.SetF(Reg::PA_CL_VPORT_XSCALE, 160.0f);
  r.SetF(Reg::PA_CL_VPORT_XOFFSET, 160.0f);
  r.SetF(Reg::PA_CL_VPORT_YSCALE, -120.0f);
  r.SetF(Reg::PA_CL_VPORT_YOFFSET, 120.0f);
  r.SetF(Reg::PA_CL_VPORT_ZSCALE, 0.5f);
  r.SetF(Reg::PA_CL_VPORT_ZOFFSET, 0.25f);
  r.Set(Reg::PA_SU_VTX_CNTL, 1);  // no half pixel
  r.Set(Reg::PA_SC_WINDOW_SCISSOR_BR, 320 | (240 << 16));
  r.Set(Reg::PA_SC_SCREEN_SCISSOR_BR, 8192 | (8192 << 16));
  HostViewport vp = gpu::ComputeViewport(r.view(), 320, 480);
  // Guest NDC (-1, 1) is the top-left corner of the 320x240 viewport: host NDC (-1, -1).
  EXPECT_FLOAT_EQ(HostX(vp, -1.0f), -1.0f);
  EXPECT_FLOAT_EQ(HostY(vp, 1.0f), -1.0f);
  // Guest (1, -1) -> screen (320, 240): host x = 1, host y = 240 / 480 * 2 - 1 = 0.
  EXPECT_FLOAT_EQ(HostX(vp, 1.0f), 1.0f);
  EXPECT_FLOAT_EQ(HostY(vp, -1.0f), 0.0f);
  EXPECT_EQ(vp.scissor.extent.width, 320u);
  EXPECT_EQ(vp.scissor.extent.height, 240u);
  // ndc z scale / offset and the host depth range for PA_CL_CLIP_CNTL `clip` (ZSCALE 0.5,
  // ZOFFSET 0.25).
  auto depth = [&](uint32_t clip) {
    r.Set(Reg::PA_CL_CLIP_CNTL, clip);
    const HostViewport v = gpu::ComputeViewport(r.view(), 320, 480);
    return std::array<float, 5>{v.ndc_scale[2], v.ndc_offset[2], v.host_depth_min,
                                v.host_depth_max, v.host_depth_range_clamped ? 1.0f : 0.0f};
  };
  // Clipping on, OpenGL clip space: z leaves the shader moved from -w..w onto 0..w and the host
  // viewport maps it onto 0.25 - 0.5 .. 0.25 + 0.5, clamped to 0..1.
  EXPECT_EQ(depth(0), (std::array<float, 5>{0.5f, 0.5f, 0.0f, 0.75f, 1.0f}));
  // Direct3D clip space (dx_clip_space_def): z stays, the host maps 0..1 onto 0.25..0.75.
  EXPECT_EQ(depth(0x00080000u), (std::array<float, 5>{1.0f, 0.0f, 0.25f, 0.75f, 0.0f}));
  // clip_disable: the stored depth in ndc z, the host range 0..1.
  EXPECT_EQ(depth(0x00090000u), (std::array<float, 5>{0.5f, 0.25f, 0.0f, 1.0f, 0.0f}));
  r.Set(Reg::PA_CL_CLIP_CNTL, 0);

  // Direct3D pixel centres add half a pixel: screen x 0 maps to host pixel centre 0.5.
  r.Set(Reg::PA_SU_VTX_CNTL, 0);
  vp = gpu::ComputeViewport(r.view(), 320, 480);
  EXPECT_FLOAT_EQ(HostX(vp, -1.0f), -1.0f + 1.0f / 320.0f);
}

TEST(DrawState, DisabledVteMeansScreenSpaceAndWindowOffsetMoves) {
  Regs r;
  r.Set(Reg::PA_SU_VTX_CNTL, 1);
  r.Set(Reg::PA_SU_SC_MODE_CNTL, 1u << 16);            // vtx_window_offset_enable
  r.Set(Reg::PA_SC_WINDOW_OFFSET, 16 | (8u << 16));    // (16, 8)
  r.Set(Reg::PA_SC_WINDOW_SCISSOR_TL, 0);
  r.Set(Reg::PA_SC_WINDOW_SCISSOR_BR, 32 | (32 << 16));
  r.Set(Reg::PA_SC_SCREEN_SCISSOR_BR, 100 | (100 << 16));
  HostViewport vp = gpu::ComputeViewport(r.view(), 100, 100);
  // Screen x 0 + offset 16 -> host NDC 16 / 50 - 1.
  EXPECT_FLOAT_EQ(HostX(vp, 0.0f), 16.0f / 50.0f - 1.0f);
  EXPECT_FLOAT_EQ(HostY(vp, 0.0f), 8.0f / 50.0f - 1.0f);
  // The window scissor moves with the offset.
  EXPECT_EQ(vp.scissor.offset.x, 16);
  EXPECT_EQ(vp.scissor.offset.y, 8);
  EXPECT_EQ(vp.scissor.extent.width, 32u);
  // window_offset_disable keeps it in place; the screen scissor and target clip it.
  r.Set(Reg::PA_SC_WINDOW_SCISSOR_TL, 1u << 31);
  r.Set(Reg::PA_SC_SCREEN_SCISSOR_BR, 20 | (100 << 16));
  vp = gpu::ComputeViewport(r.view(), 100, 100);
  EXPECT_EQ(vp.scissor.offset.x, 0);
  EXPECT_EQ(vp.scissor.extent.width, 20u);
  // Nothing left: empty.
  r.Set(Reg::PA_SC_SCREEN_SCISSOR_BR, 0);
  EXPECT_EQ(gpu::ComputeViewport(r.view(), 100, 100).scissor.extent.width, 0u);
}

TEST(DrawState, DepthStencilTranslation) {
  Regs r;
  // stencil on, z on, z write, zfunc GEQUAL(6); stencil func EQUAL(2), fail INCR_WRAP(6),
  // zpass REPLACE(2), zfail ZERO(1); backface off.
  uint32_t dc = 1u | (1u << 1) | (1u << 2) | (6u << 4) | (2u << 8) | (6u << 11) | (2u << 14) |
                (1u << 17);
  r.Set(Reg::RB_DEPTHCONTROL, dc);
  r.Set(Reg::RB_STENCILREFMASK, 0x7F | (0xF0 << 8) | (0x0F << 16));
  HostDepthStencil s = ComputeDepthStencil(r.view(), true);
  EXPECT_TRUE(s.depth_test);
  EXPECT_TRUE(s.depth_write);
  EXPECT_EQ(s.depth_compare, VK_COMPARE_OP_GREATER_OR_EQUAL);
  EXPECT_TRUE(s.stencil_test);
  EXPECT_EQ(s.front.compareOp, VK_COMPARE_OP_EQUAL);
  EXPECT_EQ(s.front.failOp, VK_STENCIL_OP_INCREMENT_AND_WRAP);
  EXPECT_EQ(s.front.passOp, VK_STENCIL_OP_REPLACE);
  EXPECT_EQ(s.front.depthFailOp, VK_STENCIL_OP_ZERO);
  EXPECT_EQ(s.front.reference, 0x7Fu);
  EXPECT_EQ(s.front.compareMask, 0xF0u);
  EXPECT_EQ(s.front.writeMask, 0x0Fu);
  EXPECT_EQ(s.back.failOp, s.front.failOp);  // no separate back face
  EXPECT_FALSE(ComputeDepthStencil(r.view(), false).depth_test);
}

TEST(DrawState, BlendAndWriteMask) {
  Regs r;
  // Target 1: src SRC_ALPHA(6), op ADD, dst ONE_MINUS_SRC_ALPHA(7); alpha: ONE, REV_SUBTRACT, ONE.
  r.Set(Reg::RB_BLENDCONTROL1, 6u | (0u << 5) | (7u << 8) | (1u << 16) | (4u << 21) | (1u << 24));
  r.Set(Reg::RB_COLOR_MASK, 0x0070);  // target 1: R G B, no A
  auto b = ComputeBlend(r.view(), 1);
  EXPECT_TRUE(b.blendEnable);
  EXPECT_EQ(b.srcColorBlendFactor, VK_BLEND_FACTOR_SRC_ALPHA);
  EXPECT_EQ(b.dstColorBlendFactor, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA);
  EXPECT_EQ(b.alphaBlendOp, VK_BLEND_OP_REVERSE_SUBTRACT);
  EXPECT_EQ(b.colorWriteMask, VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                  VK_COLOR_COMPONENT_B_BIT);
  r.Set(Reg::RB_BLENDCONTROL0, 0x00010001);  // ONE/ZERO/ADD both: passthrough
  EXPECT_FALSE(ComputeBlend(r.view(), 0).blendEnable);
}

// Polygon modes (gpu/polygon_mode.h): through the polygon-mode geometry shader the host fills
// (the shader emits lines and points as quads) and the constants carry the line width, NDC per
// guest pixel and the point-size flag; without it, the host's one mode for both faces, points
// before lines, culled faces not counted (Xenia's pick).
TEST(DrawState, PolygonModesThroughTheGeometryShaderOrTheHost) {
  using T = gpu::HostTopology;
  Regs r;
  constexpr uint32_t kDual = 1u << 3;
  r.Set(Reg::PA_SU_SC_MODE_CNTL, kDual | (1u << 5) | (2u << 8));  // front lines, back filled
  r.Set(Reg::PA_SU_LINE_CNTL, 24);                                 // 3 pixels
  EXPECT_EQ(ComputePrimitiveQuads(T::kTriangleList, {1, 1}, true, true, true),
            PrimitiveQuads::kPolygonModes);
  EXPECT_EQ(ComputePrimitiveQuads(T::kTriangleList, {1, 1}, true, false, true),
            PrimitiveQuads::kNone);
  EXPECT_EQ(ComputePrimitiveQuads(T::kRectangleList, {1, 1}, true, true, true),
            PrimitiveQuads::kNone);
  EXPECT_EQ(ComputeRasterizer(r.view(), T::kTriangleList, PrimitiveQuads::kPolygonModes).polygon_mode,
            VK_POLYGON_MODE_FILL);
  EXPECT_EQ(ComputeRasterizer(r.view(), T::kTriangleList).polygon_mode, VK_POLYGON_MODE_LINE);
  EXPECT_EQ(ComputeRasterizer(r.view(), T::kRectangleList).polygon_mode, VK_POLYGON_MODE_FILL);
  // Back faces as points, front faces culled: points; both culled: filled (nothing shows).
  r.Set(Reg::PA_SU_SC_MODE_CNTL, kDual | 1u | (1u << 5) | (0u << 8));
  EXPECT_EQ(ComputeRasterizer(r.view(), T::kTriangleList).polygon_mode, VK_POLYGON_MODE_POINT);
  r.Set(Reg::PA_SU_SC_MODE_CNTL, kDual | 2u | (1u << 5) | (0u << 8));
  EXPECT_EQ(ComputeRasterizer(r.view(), T::kTriangleList).polygon_mode, VK_POLYGON_MODE_LINE);
  r.Set(Reg::PA_SU_SC_MODE_CNTL, kDual | 3u | (1u << 5) | (0u << 8));
  EXPECT_EQ(ComputeRasterizer(r.view(), T::kTriangleList).polygon_mode, VK_POLYGON_MODE_FILL);
  // poly_mode 2 with point types: filled.
  r.Set(Reg::PA_SU_SC_MODE_CNTL, (2u << 3));
  EXPECT_EQ(ComputeRasterizer(r.view(), T::kTriangleList).polygon_mode, VK_POLYGON_MODE_FILL);

  HostViewport vp{};
  vp.ndc_per_pixel[0] = 0.25f;
  vp.ndc_per_pixel[1] = 0.5f;
  const XeSystemConstants c =
      ComputeSystemConstants(r.view(), vp, T::kTriangleList, PrimitiveQuads::kPolygonModes);
  EXPECT_EQ(c.line_quad[0], 0.25f);
  EXPECT_EQ(c.line_quad[1], 0.5f);
  EXPECT_EQ(c.line_quad[2], 3.0f);
  EXPECT_NE(c.flags & kXeSysFlagPointQuads, 0u);
  EXPECT_EQ(c.flags & (kXeSysFlagPrimitivePoint | kXeSysFlagPrimitiveLine), 0u);
  const XeSystemConstants filled = ComputeSystemConstants(r.view(), vp, T::kTriangleList);
  EXPECT_EQ(filled.line_quad[2], 0.0f);
  EXPECT_EQ(filled.flags & kXeSysFlagPointQuads, 0u);
}

TEST(DrawState, CullingFrontFaceAndFlags) {
  Regs r;
  r.Set(Reg::PA_SU_SC_MODE_CNTL, 2u | 4u);  // cull back, face = CW front
  auto ras = ComputeRasterizer(r.view(), gpu::HostTopology::kTriangleList);
  EXPECT_EQ(ras.cull, VkCullModeFlags(VK_CULL_MODE_BACK_BIT));
  EXPECT_EQ(ras.front_face, VK_FRONT_FACE_CLOCKWISE);
  EXPECT_EQ(ComputeRasterizer(r.view(), gpu::HostTopology::kRectangleList).cull,
            VkCullModeFlags(VK_CULL_MODE_NONE));
  r.Set(Reg::PA_CL_VTE_CNTL, (1u << 8) | (1u << 10));
  r.Set(Reg::RB_COLORCONTROL, 4u | (1u << 3));  // alpha test GREATER
  r.SetF(Reg::RB_ALPHA_REF, 0.5f);
  r.Set(Reg::VGT_INDX_OFFSET, 7);
  HostViewport vp{};
  XeSystemConstants c = ComputeSystemConstants(r.view(), vp, gpu::HostTopology::kPointList);
  EXPECT_TRUE(c.flags & kXeSysFlagXyDividedByW);
  EXPECT_FALSE(c.flags & kXeSysFlagZDividedByW);
  EXPECT_TRUE(c.flags & kXeSysFlagWNotReciprocal);
  EXPECT_TRUE(c.flags & kXeSysFlagPrimitivePoint);
  EXPECT_TRUE(c.flags & kXeSysFlagAlphaTest);
  EXPECT_EQ(c.alpha_test_func, 4u);
  EXPECT_FLOAT_EQ(c.alpha_test_reference, 0.5f);
  EXPECT_EQ(c.vertex_base_index, 0);  // the primitive processor added VGT_INDX_OFFSET
}

TEST(ResolvePacking, SwapAndExponentBias) {
  EXPECT_EQ(gpu::PackResolveColor(0x44332211u, false, 0), 0x44332211u);
  EXPECT_EQ(gpu::PackResolveColor(0x44332211u, true, 0), 0x44112233u);
  // Bias +1 doubles (and saturates), -1 halves with rounding.
  EXPECT_EQ(gpu::PackResolveColor(0x80402010u, false, 1), 0xFF804020u);
  EXPECT_EQ(gpu::PackResolveColor(0x80402010u, false, -1), 0x40201008u);
}

TEST(DrawState, LineWidthFromPaSuLineCntl) {
  // PA_SU_LINE_CNTL WIDTH is half the width in 12.4 fixed point: 24 = 3 pixels.
  Regs r;
  const float range[2] = {1.0f, 8.0f};
  std::string note;
  using T = gpu::HostTopology;
  EXPECT_EQ(HostLineWidth(r.view(), T::kLineList, {}, true, range, &note), 1.0f);  // 0: 1 pixel
  r.Set(Reg::PA_SU_LINE_CNTL, 24);
  EXPECT_EQ(HostLineWidth(r.view(), T::kLineList, {}, true, range, &note), 3.0f);
  EXPECT_TRUE(note.empty());
  // Not for triangles (polygon-mode lines stay 1 wide), nor without wideLines (noted).
  EXPECT_EQ(HostLineWidth(r.view(), T::kTriangleList, {}, true, range, &note), 1.0f);
  EXPECT_EQ(HostLineWidth(r.view(), T::kLineList, {}, false, range, &note), 1.0f);
  EXPECT_FALSE(note.empty());
  // 100 pixels (half width 800) clamped to the device's range, noted.
  note.clear();
  r.Set(Reg::PA_SU_LINE_CNTL, 800);
  EXPECT_EQ(HostLineWidth(r.view(), T::kLineList, {}, true, range, &note), 8.0f);
  EXPECT_FALSE(note.empty());
}

TEST(DrawState, LineWidthIsInGuestPixelsAtAResolutionScale) {
  // Width 2 guest pixels (half width 16) is 6 host pixels at 3x3, the default 1 is 2 at 2x2;
  // a non-square scale takes the smaller axis's and says the line is not the guest's quad.
  Regs r;
  const float range[2] = {1.0f, 64.0f};
  std::string note;
  using T = gpu::HostTopology;
  EXPECT_EQ(HostLineWidth(r.view(), T::kLineList, {2, 2}, true, range, &note), 2.0f);
  r.Set(Reg::PA_SU_LINE_CNTL, 16);
  EXPECT_EQ(HostLineWidth(r.view(), T::kLineList, {3, 3}, true, range, &note), 6.0f);
  EXPECT_TRUE(note.empty());
  EXPECT_EQ(HostLineWidth(r.view(), T::kLineList, {3, 1}, true, range, &note), 2.0f);
  EXPECT_NE(note.find("non-square"), std::string::npos);
  note.clear();
  EXPECT_EQ(HostLineWidth(r.view(), T::kTriangleList, {3, 3}, true, range, &note), 1.0f);
  EXPECT_TRUE(note.empty());
}

// PA_SU_POINT_SIZE's half width (bits 16-31) and half height (bits 0-15), 12.4 fixed point:
// 0x40 = 4 pixels half = 8 wide, 0x18 = 1.5 half = 3 tall; PA_SU_POINT_MINMAX half min 0x10
// (diameter 2), half max 0x30 (6). The point-quad flag and NDC per guest pixel for the
// geometry shader go with point lists drawn as quads.
TEST(DrawState, PointSizeWidthHeightAndQuads) {
  Regs r;
  r.Set(Reg::PA_SU_POINT_SIZE, 0x40u << 16 | 0x18u);
  r.Set(Reg::PA_SU_POINT_MINMAX, 0x30u << 16 | 0x10u);
  using T = gpu::HostTopology;
  HostViewport vp;
  vp.ndc_per_pixel[0] = 0.25f;
  vp.ndc_per_pixel[1] = -0.5f;
  const XeSystemConstants c =
      ComputeSystemConstants(r.view(), vp, T::kPointList, PrimitiveQuads::kPoints);
  EXPECT_EQ(c.point_size_min_max[0], 2.0f);
  EXPECT_EQ(c.point_size_min_max[1], 6.0f);
  EXPECT_EQ(c.point_size_min_max[2], 8.0f);
  EXPECT_EQ(c.point_size_min_max[3], 3.0f);
  EXPECT_EQ(c.line_quad[0], 0.25f);
  EXPECT_EQ(c.line_quad[1], -0.5f);
  EXPECT_NE(c.flags & kXeSysFlagPointQuads, 0u);
  EXPECT_NE(c.flags & kXeSysFlagPrimitivePoint, 0u);
  EXPECT_EQ(ComputeSystemConstants(r.view(), vp, T::kPointList).flags & kXeSysFlagPointQuads, 0u);

  // Points are quads at every scale where the geometry shader may read gl_PointSize; lines only
  // at a non-square scale; other topologies never.
  EXPECT_EQ(ComputePrimitiveQuads(T::kPointList, {1, 1}, true, true), PrimitiveQuads::kPoints);
  EXPECT_EQ(ComputePrimitiveQuads(T::kPointList, {1, 3}, true, false), PrimitiveQuads::kNone);
  EXPECT_EQ(ComputePrimitiveQuads(T::kLineList, {2, 2}, true, true), PrimitiveQuads::kNone);
  EXPECT_EQ(ComputePrimitiveQuads(T::kLineList, {1, 3}, true, true), PrimitiveQuads::kLines);
  EXPECT_EQ(ComputePrimitiveQuads(T::kLineList, {3, 1}, false, false), PrimitiveQuads::kNone);
  EXPECT_EQ(ComputePrimitiveQuads(T::kTriangleList, {1, 3}, true, true), PrimitiveQuads::kNone);

  // The cpu path's rule for the same registers (gpu/point_size.h): the constant size unclamped,
  // an exported one clamped on both axes.
  const gpu::PointSizes sizes = gpu::ReadPointSizes(r.view());
  float w = 0.0f, h = 0.0f;
  sizes.Size(false, 0.0f, w, h);
  EXPECT_EQ(w, 8.0f);
  EXPECT_EQ(h, 3.0f);
  sizes.Size(true, 10.0f, w, h);
  EXPECT_EQ(w, 6.0f);
  EXPECT_EQ(h, 6.0f);
  sizes.Size(true, 1.0f, w, h);
  EXPECT_EQ(w, 2.0f);
  EXPECT_EQ(h, 2.0f);
}

}  // namespace
}  // namespace xnt::vk
