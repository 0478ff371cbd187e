// Scaled resolve memory (gpu/scaled_resolve.h) against values worked by hand: a 2x2-scaled EDRAM
// whose host pixel (hx, hy) holds hx | hy << 8 | 0xFF << 24 (k_8_8_8_8 bits), resolved as a
// 4x2 guest rectangle into a linear k_8_8_8_8 destination of pitch 32.
#include <gtest/gtest.h>

#include <cstring>

#include "scaled_edram.h"
#include "xnt/base/byte_order.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/gpu/scaled_resolve.h"

namespace xnt::gpu {
namespace {

constexpr uint32_t kDest = 0x10000;

struct Memory {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(0x20000, 0xEE);
  GuestMemoryAccess Access() {
    GuestMemoryAccess a;
    a.read = [this](uint32_t address, std::span<uint8_t> out) {
      std::memcpy(out.data(), bytes.data() + address, out.size());
    };
    a.write = [this](uint32_t address, std::span<const uint8_t> in) {
      std::memcpy(bytes.data() + address, in.data(), in.size());
    };
    return a;
  }
};

using test::HostPixel;

ResolveInfo Info() {
  ResolveInfo info;
  info.x0 = 0, info.y0 = 0, info.x1 = 4, info.y1 = 2;
  info.copy = true;
  info.surface_pitch = 80;
  info.color_format = uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8);
  info.dest_base = kDest;
  info.dest_pitch = 32;
  info.dest_height = 2;
  info.dest_format = xenos::TextureFormat::k_8_8_8_8;
  info.dest_linear = true;
  return info;
}

TEST(ScaledResolve, GuestCopyIsPointDownsampledAndTheScaledCopyKeepsEveryHostPixel) {
  edram::Edram ram(2, 2);
  test::StoreHostPixels(ram, 8, 4);
  Memory memory;
  ScaledResolveMemory scaled;
  const ResolveCopyResult r = scaled.Resolve(Info(), ram, memory.Access(), 2, 2);
  EXPECT_EQ(r.pixels, 8u);
  // Guest pixel (x, y) = host pixel (2x, 2y), at kDest + y * 256 + x * 4 (linear rows are
  // 256-byte aligned: 32 texels x 4 bytes = 128 rounds up to 256).
  for (uint32_t y = 0; y < 2; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      EXPECT_EQ(LoadLE32(memory.bytes.data() + kDest + y * 256 + x * 4), HostPixel(2 * x, 2 * y))
          << x << "," << y;
    }
  }
  ASSERT_EQ(scaled.size(), 1u);
  // The scaled copy: pitch 64 (256-byte rows), host pixel (hx, hy) at (hy * 64 + hx) * 4.
  const auto fetch = capture::TextureFetch2D(kDest, 32, 2, xenos::TextureFormat::k_8_8_8_8,
                                             false, xenos::Endian::kNone);
  const ScaledCopy* copy = scaled.Find(fetch.data());
  ASSERT_NE(copy, nullptr);
  for (uint32_t hy = 0; hy < 4; ++hy) {
    for (uint32_t hx = 0; hx < 8; ++hx) {
      uint8_t word[4];
      ScaledResolveMemory::AccessOf(*copy).read((hy * 64 + hx) * 4, word);
      EXPECT_EQ(LoadLE32(word), HostPixel(hx, hy)) << hx << "," << hy;
    }
  }
  // The fetch constant rewritten for the copy: base 0, pitch 64 (2 x 32), 64 x 4 texels.
  const auto sf = ScaledResolveMemory::ScaledFetch(fetch.data(), *copy);
  const auto f = xenos::TextureFetchConstant::Decode(sf.data());
  EXPECT_EQ(f.base_address_bytes(), 0u);
  EXPECT_EQ(f.pitch, 2u);
  EXPECT_EQ(sf[2] & 0x1FFFu, 63u);
  EXPECT_EQ((sf[2] >> 13) & 0x1FFFu, 3u);
  // Another layout or base does not read it; a CPU write into its range drops it.
  auto tiled = fetch;
  tiled[0] |= 1u << 31;
  EXPECT_EQ(scaled.Find(tiled.data()), nullptr);
  scaled.Invalidate(kDest + 256, 4);  // row 1, pixel 0
  EXPECT_EQ(scaled.Find(fetch.data()), nullptr);
}

}  // namespace
}  // namespace xnt::gpu
