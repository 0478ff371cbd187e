// Resolution scaling rules (gpu/resolution_scale.h) with values worked by hand: scissors and
// resolve rectangles multiplied per axis, param gen's pixel centres in guest pixels, scaled
// copies' guest texel counts, the Direct3D half-pixel offset at 3x3, and the front buffer read
// at the scaled size from a scaled copy (gpu/scaled_resolve.h ReadFrontBufferAtScale).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "scaled_edram.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/gpu/resolution_scale.h"
#include "xnt/gpu/scaled_resolve.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {
namespace {

using xenos::Reg;

TEST(ResolutionScale, ScissorAndRectanglesAreMultipliedPerAxis) {
  ScissorRect guest;
  guest.offset.x = 8, guest.offset.y = 4;
  guest.extent.width = 72, guest.extent.height = 40;
  const ScissorRect host = HostScissor(guest, {3, 2});
  EXPECT_EQ(host.offset.x, 24);
  EXPECT_EQ(host.offset.y, 8);
  EXPECT_EQ(host.extent.width, 216u);
  EXPECT_EQ(host.extent.height, 80u);
  const ScissorRect r = HostRect(1, 2, 5, 3, {2, 3});  // 4x1 guest pixels at (1, 2)
  EXPECT_EQ(r.offset.x, 2);
  EXPECT_EQ(r.offset.y, 6);
  EXPECT_EQ(r.extent.width, 8u);
  EXPECT_EQ(r.extent.height, 3u);
  EXPECT_EQ(HostRect(5, 0, 5, 4, {2, 2}).extent.width, 0u);  // empty stays empty
}

TEST(ResolutionScale, ScaledCopiesCountGuestTexels) {
  EXPECT_FLOAT_EQ(GuestTexels(144, 2), 72.0f);  // the bloom copy's 72 guest texels at 2x
  EXPECT_FLOAT_EQ(GuestTexels(120, 3), 40.0f);
  EXPECT_FLOAT_EQ(GuestTexels(96, 1), 96.0f);
}

TEST(ResolutionScale, HalfPixelOffsetAtThreeByThreeLeavesNoGap) {
  std::vector<uint32_t> regs(xenos::kRegisterCount, 0);
  auto set = [&](Reg r, uint32_t v) { regs[xenos::RegIndex(r)] = v; };
  auto setf = [&](Reg r, float f) { set(r, std::bit_cast<uint32_t>(f)); };
  // Screen-space positions (VTE off), Direct3D pixel centres (pix_center 0): +0.5 pixel.
  set(Reg::PA_CL_VTE_CNTL, 0);
  set(Reg::PA_SU_VTX_CNTL, 0);
  set(Reg::PA_SC_WINDOW_SCISSOR_BR, 64 | (32 << 16));
  set(Reg::PA_SC_SCREEN_SCISSOR_BR, 8192 | (8192 << 16));
  setf(Reg::PA_CL_VPORT_ZSCALE, 1.0f);
  const Viewport vp = ComputeViewport(regs, 64, 32);
  // A Direct3D quad from -0.5 to 63.5 (pixel centres on integers) covers guest [0, 64) and at
  // 3x3 host [0, 192): its left edge lands on host 0, not 1.5 (no uncovered first column).
  EXPECT_FLOAT_EQ(HostScreenX(vp, -0.5f, {3, 3}), 0.0f);
  EXPECT_FLOAT_EQ(HostScreenX(vp, 63.5f, {3, 3}), 192.0f);
  EXPECT_FLOAT_EQ(HostScreenY(vp, 9.5f, {3, 3}), 30.0f);
  // Without the offset (pix_center 1) the same quad is half a guest pixel (1.5 host) left.
  set(Reg::PA_SU_VTX_CNTL, 1);
  EXPECT_FLOAT_EQ(HostScreenX(ComputeViewport(regs, 64, 32), -0.5f, {3, 3}), -1.5f);
}

TEST(ResolutionScale, FrontBufferIsReadAtTheScaledSizeFromAScaledCopy) {
  // A 2x1 linear k_8_8_8_8 guest front buffer at 0x10000 (pitch 32), resolved at 2x2 from an
  // EDRAM whose host pixel (hx, hy) holds R = hx, G = hy.
  edram::Edram ram(2, 2);
  test::StoreHostPixels(ram, 4, 2);
  std::vector<uint8_t> bytes(0x20000, 0);
  GuestMemoryAccess memory;
  memory.read = [&](uint32_t a, std::span<uint8_t> out) { std::memcpy(out.data(), &bytes[a], out.size()); };
  memory.write = [&](uint32_t a, std::span<const uint8_t> in) { std::memcpy(&bytes[a], in.data(), in.size()); };
  ResolveInfo info;
  info.x0 = 0, info.y0 = 0, info.x1 = 2, info.y1 = 1;
  info.copy = true;
  info.surface_pitch = 80;
  info.color_format = uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8);
  info.dest_base = 0x10000;
  info.dest_pitch = 32;
  info.dest_height = 1;
  info.dest_format = xenos::TextureFormat::k_8_8_8_8;
  info.dest_linear = true;
  ScaledResolveMemory scaled;
  scaled.Resolve(info, ram, memory, 2, 2);
  ASSERT_NE(scaled.last(), nullptr);
  // Fetch constant 0 as VdSwap writes it: 2D k_8_8_8_8, linear, base 0x10000, 2x1.
  std::vector<uint32_t> regs(xenos::kRegisterCount, 0);
  const auto fetch = capture::TextureFetch2D(0x10000, 2, 1, xenos::TextureFormat::k_8_8_8_8,
                                             false, xenos::Endian::kNone);
  std::copy(fetch.begin(), fetch.end(), regs.begin() + xenos::kFetchConstantBase);
  const SwapImage image = ReadFrontBufferAtScale(regs, 0x10000, 2, 1, memory, scaled);
  ASSERT_EQ(image.width, 4u);
  ASSERT_EQ(image.height, 2u);
  for (uint32_t hy = 0; hy < 2; ++hy) {
    for (uint32_t hx = 0; hx < 4; ++hx) {
      EXPECT_EQ(image.rgba[(hy * 4 + hx) * 4 + 0], hx) << hx << "," << hy;
      EXPECT_EQ(image.rgba[(hy * 4 + hx) * 4 + 1], hy) << hx << "," << hy;
    }
  }
  // Dropped by a CPU write over its guest range: the 1x guest front buffer again (host pixel
  // (0, 0) and (2, 0) point-sampled).
  scaled.Invalidate(0x10000, 4);
  const SwapImage guest = ReadFrontBufferAtScale(regs, 0x10000, 2, 1, memory, scaled);
  ASSERT_EQ(guest.width, 2u);
  EXPECT_EQ(guest.rgba[4], 2u);
}

}  // namespace
}  // namespace xnt::gpu
