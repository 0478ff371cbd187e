// The clears a resolve asks for (gpu::ApplyResolveClears): every sample of the rectangle holds
// the clear value's guest bits (read back through Edram::Load, the per-sample layout), samples
// outside it keep theirs, depth written after colour where the two share tiles, and the EDRAM
// bytes are the same for 1, 2, 3 and 8 threads (bands of rows on threads; a surface that wraps
// past tile 2047 onto itself on one thread).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "xnt/gpu/edram.h"
#include "xnt/gpu/resolve.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {
namespace {

using xenos::ColorRenderTargetFormat;

struct ClearCase {
  const char* name;
  uint32_t color_format = uint32_t(ColorRenderTargetFormat::k_8_8_8_8);
  uint32_t msaa = 0, pitch = 1280, color_base = 0, depth_base = 0;
  bool color = true, depth = false;
  uint32_t scale = 1;
  int32_t x0 = 8, y0 = 8, x1 = 1000, y1 = 200;
};

edram::Edram Cleared(const ClearCase& c, uint32_t threads) {
  edram::Edram e(c.scale, c.scale);
  std::mt19937 rng(99);
  for (uint8_t& b : e.bytes()) b = uint8_t(rng());
  ResolveInfo info;
  info.x0 = c.x0, info.y0 = c.y0, info.x1 = c.x1, info.y1 = c.y1;
  info.surface_pitch = c.pitch;
  info.msaa_samples = c.msaa;
  info.source_select = 0;
  info.color_clear = c.color, info.depth_clear = c.depth;
  info.color_base = c.color_base, info.color_format = c.color_format;
  info.depth_base = c.depth_base, info.depth_format = 0;
  info.color_clear_value = 0x11223344u;
  info.depth_clear_value = 0xABCDEF01u;
  std::vector<uint32_t> regs(xenos::kRegisterCount, 0);
  regs[uint32_t(xenos::Reg::RB_COLOR_CLEAR)] = 0x11223344u;
  regs[uint32_t(xenos::Reg::RB_COLOR_CLEAR_LO)] = 0x55667788u;
  ApplyResolveClears(info, regs, c.scale, c.scale, e, threads);
  return e;
}

TEST(ResolveClear, EverySampleOfTheRectangleForAnyThreadCount) {
  std::vector<ClearCase> cases;
  cases.push_back({"8888 1x, 7 bands"});
  cases.push_back({"16_16_16_16 (64bpp) 4x, depth sharing its tiles"});
  cases.back().color_format = uint32_t(ColorRenderTargetFormat::k_16_16_16_16);
  cases.back().msaa = 2, cases.back().depth = true, cases.back().depth_base = 40;
  cases.back().x0 = 16, cases.back().x1 = 600, cases.back().y1 = 90;
  cases.push_back({"depth only, 2x at scale 2, from tile 2000 (wraps to tile 0 once)"});
  cases.back().color = false, cases.back().depth = true, cases.back().msaa = 1;
  cases.back().depth_base = 2000, cases.back().scale = 2;
  cases.push_back({"8888 rows past the whole EDRAM (onto itself: one thread)"});
  cases.back().pitch = 2560, cases.back().x0 = 0, cases.back().x1 = 2560;
  cases.back().y0 = 0, cases.back().y1 = 1040;
  for (const ClearCase& c : cases) {
    const edram::Edram one = Cleared(c, 1);
    edram::Surface s;
    s.pitch_pixels = c.pitch;
    s.msaa = xenos::MsaaSamples(c.msaa);
    s.scale_x = s.scale_y = c.scale;
    s.base_tiles = c.depth ? c.depth_base : c.color_base;
    s.is_depth = c.depth;
    s.format = c.depth ? 0 : c.color_format;
    const uint64_t value = c.depth ? 0xABCDEF01u
                           : s.is_64bpp() ? 0x1122334455667788ull : 0x11223344u;
    // The last-written surface holds its value in every sample of the rectangle (the rows
    // nearest the end, for the one that wraps onto itself).
    const uint32_t y_first = c.pitch == 2560 ? 1024 : uint32_t(c.y0) * c.scale;
    for (uint32_t y = y_first; y < uint32_t(c.y1) * c.scale; y += 7) {
      for (uint32_t x = uint32_t(c.x0) * c.scale; x < uint32_t(c.x1) * c.scale; x += 5) {
        for (uint32_t sample = 0; sample < s.sample_count(); ++sample) {
          ASSERT_EQ(one.Load(s, x, y, sample), value) << c.name << " at " << x << "," << y;
        }
      }
    }
    if (c.x0 > 0) {  // the column left of the rectangle keeps the random bytes
      const uint32_t x = uint32_t(c.x0) * c.scale - 1, y = uint32_t(c.y0) * c.scale;
      EXPECT_NE(one.Load(s, x, y, 0), value) << c.name;
    }
    for (uint32_t threads : {2u, 3u, 8u}) {
      EXPECT_TRUE(std::ranges::equal(Cleared(c, threads).bytes(), one.bytes())) << c.name << ", " << threads << " threads";
    }
  }
}

}  // namespace
}  // namespace xnt::gpu
