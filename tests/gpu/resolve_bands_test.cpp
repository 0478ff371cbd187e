// The resolve engine over rectangles of several 32-row bands (ResolveCopy's band loop, its
// row-stepping EDRAM reader and the one-TiledOffset2D-per-16-bytes destination walk): every
// destination byte is checked against a per-pixel computation done here from the tile layout
// (80x16 samples per tile at 32bpp, 40x16 at 64bpp, times the scale; depth halves swapped; tile
// indices wrapping at 2048) and TiledOffset2D, and the guest bytes must be the same for 1, 2, 3
// and 8 threads.
#include <gtest/gtest.h>

#include <random>

#include "../../renderer/gpu/src/resolve_dest_row.h"
#include "../renderer/fake_guest.h"
#include "xnt/base/byte_order.h"
#include "xnt/gpu/front_buffer.h"
#include "xnt/gpu/resolve.h"
#include "xnt/gpu/texture_address.h"
#include "xnt/xenos/registers.h"

// Named after the file: the CI compiles test sources in unity batches (tests/CMakeLists.txt),
// where the anonymous namespaces of two files would be one.
namespace xnt::vk::resolve_bands_test {
namespace {

using xenos::ColorRenderTargetFormat;
using xenos::CopySampleSelect;
using xenos::Endian128;
using xenos::TextureFormat;

constexpr uint32_t kDest = 0x00200000;

struct Case {
  const char* name;
  bool depth = false;
  uint32_t format = uint32_t(ColorRenderTargetFormat::k_8_8_8_8);
  TextureFormat dest = TextureFormat::k_8_8_8_8;
  uint32_t msaa = 0;  // RB_SURFACE_INFO msaa_samples
  CopySampleSelect select = CopySampleSelect::k0;
  uint32_t base = 0, pitch = 320;
  uint32_t scale = 1, step = 1;
  Endian128 endian = Endian128::k8in32;
  bool swap = false;
  int32_t x0 = 3, y0 = 5, x1 = 203, y1 = 75;  // three bands: rows 5-31, 32-63, 64-74
};

// Sample (sx, sy) of the resolve's 1x view of the surface: tiles of 80S x 16T samples (40S at
// 64bpp), the view's pitch in tiles, depth tiles with their halves swapped.
uint32_t EdramOffset(const Case& c, bool is64, uint32_t pitch_tiles, uint32_t sx, uint32_t sy) {
  const uint32_t row = 80 * c.scale, tw = is64 ? row / 2 : row, th = 16 * c.scale;
  const uint32_t tile = (c.base + (sy / th) * pitch_tiles + sx / tw) % 2048;
  uint32_t cx = sx % tw;
  if (c.depth) cx = (cx + row / 2) % row;
  return tile * 5120 * c.scale * c.scale + ((sy % th) * tw + cx) * (is64 ? 8 : 4);
}

std::vector<uint8_t> Resolve(const Case& c, const gpu::edram::Edram& edram, uint32_t threads,
                             uint32_t span) {
  gpu::ResolveInfo info;
  info.copy = true;
  info.x0 = c.x0, info.y0 = c.y0, info.x1 = c.x1, info.y1 = c.y1;
  info.source_select = c.depth ? 4 : 0;
  info.surface_pitch = c.pitch;
  info.msaa_samples = c.msaa;
  info.sample_select = c.select;
  info.color_base = info.depth_base = c.base;
  info.color_format = info.depth_format = c.format;
  info.dest_base = kDest;
  info.dest_pitch = 256;
  info.dest_height = 96;
  info.dest_format = c.dest;
  info.dest_endian = c.endian;
  info.dest_swap = c.swap;
  info.scale_x = info.scale_y = c.scale;
  info.step_x = info.step_y = c.step;
  test::FakeGuest guest;
  // Bytes around the written ones keep their values (read-modify-write of each band's range).
  std::vector<uint8_t> before(span);
  for (uint32_t i = 0; i < span; ++i) before[i] = uint8_t(i * 7 + 1);
  guest.Write(kDest, before);
  const gpu::ResolveCopyResult r = gpu::ResolveCopy(info, edram, guest.Access(), threads);
  EXPECT_TRUE(r.bitwise) << c.name;
  EXPECT_EQ(r.pixels, uint64_t(c.x1 - c.x0) * uint64_t(c.y1 - c.y0)) << c.name;
  std::vector<uint8_t> out(span);
  guest.Read(kDest, out);
  return out;
}

TEST(ResolveBands, EveryByteMatchesThePerPixelLayoutForAnyThreadCount) {
  std::vector<Case> cases;
  cases.push_back({"8888 1x from tile 2040 (wraps to tile 0)"});
  cases.back().base = 2040;
  cases.push_back({"8888 4x sample 3, 8in16"});
  cases.back().msaa = 2, cases.back().select = CopySampleSelect::k3;
  cases.back().endian = Endian128::k8in16;
  cases.push_back({"8888 2x sample 1, red/blue swap, no swap of bytes"});
  cases.back().msaa = 1, cases.back().select = CopySampleSelect::k1;
  cases.back().swap = true, cases.back().endian = Endian128::kNone;
  cases.push_back({"depth 24_8 2x sample 0 (halves swapped), 8in128"});
  cases.back().depth = true, cases.back().msaa = 1, cases.back().format = 0;
  cases.back().dest = TextureFormat::k_24_8, cases.back().endian = Endian128::k8in128;
  cases.push_back({"16_16_16_16_FLOAT (64bpp) 4x sample 2, 8in64"});
  cases.back().format = uint32_t(ColorRenderTargetFormat::k_16_16_16_16_FLOAT);
  cases.back().dest = TextureFormat::k_16_16_16_16_FLOAT;
  cases.back().msaa = 2, cases.back().select = CopySampleSelect::k2;
  cases.back().endian = Endian128::k8in64;
  cases.push_back({"8888 at scale 2, point-downsampled guest copy (step 2), 16in32"});
  cases.back().scale = 2, cases.back().step = 2, cases.back().endian = Endian128::k16in32;
  cases.push_back({"depth at scale 3, host copy (step 1), 4x sample 1"});
  cases.back().depth = true, cases.back().format = 0, cases.back().dest = TextureFormat::k_24_8;
  cases.back().scale = 3, cases.back().msaa = 2, cases.back().select = CopySampleSelect::k1;

  cases.push_back({"8888 whole 32-row bands of the 256-wide destination (no read-back), 8in32"});
  cases.back().x0 = 0, cases.back().x1 = 256, cases.back().y0 = 0, cases.back().y1 = 72;

  for (const Case& c : cases) {
    gpu::edram::Edram edram(c.scale, c.scale);
    std::mt19937 rng(1234);
    for (uint8_t& b : edram.bytes()) b = uint8_t(rng());
    const bool is64 = !c.depth && xenos::IsColorRenderTargetFormat64bpp(ColorRenderTargetFormat(c.format));
    const uint32_t bpp = is64 ? 8 : 4, bpp_log2 = is64 ? 3 : 2;
    const xenos::MsaaSamples msaa = xenos::MsaaSamples(c.msaa);
    const uint32_t pitch_tiles = xenos::SurfacePitchTiles(c.pitch, msaa, is64);
    const uint32_t cols = c.msaa == 2 ? 2 : 1, rows = c.msaa >= 1 ? 2 : 1;
    const uint32_t sample = uint32_t(c.select);
    const uint32_t xor_mask = c.endian == Endian128::kNone     ? 0
                              : c.endian == Endian128::k8in16  ? 1
                              : c.endian == Endian128::k8in32  ? 3
                              : c.endian == Endian128::k16in32 ? 2
                              : c.endian == Endian128::k8in64  ? 7
                                                               : 15;
    const uint32_t span = 256 * 96 * bpp;
    std::vector<uint8_t> expected(span);
    for (uint32_t i = 0; i < span; ++i) expected[i] = uint8_t(i * 7 + 1);
    for (int32_t y = c.y0; y < c.y1; ++y) {
      for (int32_t x = c.x0; x < c.x1; ++x) {
        // Hardware sample numbering: column (sample >> 1) & 1, row sample & 1.
        const uint32_t sx = uint32_t(x) * c.step * cols + ((sample >> 1) & 1);
        const uint32_t sy = uint32_t(y) * c.step * rows + (sample & 1);
        const uint8_t* src = edram.bytes().data() + EdramOffset(c, is64, pitch_tiles, sx, sy);
        uint64_t bits = LoadLE32(src);
        if (is64) bits |= uint64_t(LoadLE32(src + 4)) << 32;
        if (c.swap) {  // k_8_8_8_8: red and blue bytes exchanged
          bits = (bits & ~uint64_t(0xFF00FF)) | ((bits & 0xFF) << 16) | ((bits >> 16) & 0xFF);
        }
        const uint32_t o = uint32_t(gpu::TiledOffset2D(x, y, 256, bpp_log2));
        for (uint32_t b = 0; b < bpp; ++b) {
          const uint32_t at = o + b;
          expected[(at & ~15u) | ((at & 15u) ^ xor_mask)] = uint8_t(bits >> (8 * b));
        }
      }
    }
    for (uint32_t threads : {1u, 2u, 3u, 8u}) {
      const std::vector<uint8_t> got = Resolve(c, edram, threads, span);
      size_t first_bad = span;
      for (size_t i = 0; i < span && first_bad == span; ++i) {
        if (got[i] != expected[i]) first_bad = i;
      }
      EXPECT_EQ(first_bad, size_t(span)) << c.name << ", " << threads << " threads";
    }
  }
}

TEST(ResolveBands, AnErrorInALaterBandLeavesTheEarlierBandsWritten) {
  // A linear destination of 256-byte rows ending exactly at the top of the 512 MiB physical
  // space after row 31: band 0 (rows 0-31) fits and is written; band 1 (rows 32-63) starts at
  // 512 MiB and is refused, whatever thread computed it.
  gpu::edram::Edram edram;
  for (uint8_t& b : edram.bytes()) b = 0xAB;
  gpu::ResolveInfo info;
  info.copy = true;
  info.x0 = 0, info.y0 = 0, info.x1 = 16, info.y1 = 64;
  info.surface_pitch = 80;
  info.color_format = uint32_t(ColorRenderTargetFormat::k_8_8_8_8);
  info.dest_format = TextureFormat::k_8_8_8_8;
  info.dest_endian = Endian128::kNone;
  info.dest_linear = true;
  info.dest_pitch = 64;  // 256 bytes per row
  info.dest_base = 0x20000000u - 32 * 256;
  for (uint32_t threads : {1u, 2u, 4u}) {
    test::FakeGuest guest;
    EXPECT_THROW(gpu::ResolveCopy(info, edram, guest.Access(), threads), Error) << threads;
    uint8_t first[4] = {}, last[4] = {};
    guest.Read(info.dest_base, first);                // row 0, pixel 0
    guest.Read(info.dest_base + 31 * 256 + 60, last);  // row 31, pixel 15
    EXPECT_EQ(LoadLE32(first), 0xABABABABu) << threads;
    EXPECT_EQ(LoadLE32(last), 0xABABABABu) << threads;
  }
}

// `size` random bytes (from `seed`) written to guest memory at `base`, and returned.
std::vector<uint8_t> RandomGuestBytes(test::FakeGuest& guest, uint32_t base, size_t size,
                                      uint32_t seed) {
  std::vector<uint8_t> bytes(size);
  std::mt19937 rng(seed);
  for (uint8_t& b : bytes) b = uint8_t(rng());
  guest.Write(base, bytes);
  return bytes;
}

TEST(FrontBufferBands, TheImageIsTheSameForAnyThreadCount) {
  // No texture in fetch constant 0: the XE_SWAP address and size, 32x32-tiled k_8_8_8_8 8in32
  // at a pitch of the width. 100 x 70: four bands of 32 rows, the last one partial.
  const uint32_t width = 100, height = 70, base = 0x00300000;
  test::FakeGuest guest;
  const std::vector<uint8_t> bytes = RandomGuestBytes(guest, base, 128 * 96 * 4, 99);
  const std::vector<uint32_t> regs;
  const gpu::SwapImage one = gpu::ReadFrontBuffer(regs, base, width, height, guest.Access(), 1);
  ASSERT_EQ(one.rgba.size(), size_t(width) * height * 4);
  for (uint32_t y = 0; y < height; y += 23) {
    for (uint32_t x = 0; x < width; x += 7) {
      // 8in32: the dword's bytes reversed, then R, G, B from its bytes 0, 1, 2; alpha 255.
      const uint32_t o = uint32_t(gpu::TiledOffset2D(int32_t(x), int32_t(y), width, 2));
      const uint8_t* px = &one.rgba[(size_t(y) * width + x) * 4];
      EXPECT_EQ(px[0], bytes[o + 3]) << x << "," << y;
      EXPECT_EQ(px[1], bytes[o + 2]) << x << "," << y;
      EXPECT_EQ(px[2], bytes[o + 1]) << x << "," << y;
      EXPECT_EQ(px[3], 255) << x << "," << y;
    }
  }
  for (uint32_t threads : {2u, 3u, 8u}) {
    const gpu::SwapImage other =
        gpu::ReadFrontBuffer(regs, base, width, height, guest.Access(), threads);
    EXPECT_EQ(other.rgba, one.rgba) << threads << " threads";
  }
  // A reused buffer (an earlier swap's) holding other bytes, of the image's size, larger or
  // smaller: every byte of the image is written, none of the old contents shows.
  for (size_t size : {one.rgba.size(), one.rgba.size() + 4096, size_t(64)}) {
    const gpu::SwapImage reused = gpu::ReadFrontBuffer(regs, base, width, height, guest.Access(),
                                                       2, std::vector<uint8_t>(size, 0xA5));
    EXPECT_EQ(reused.rgba, one.rgba) << size << "-byte buffer";
  }
}

TEST(FrontBufferBands, EverySwapModeAndSwizzleTiledAndLinear) {
  // Fetch constant 0 as a k_8_8_8_8 texture: each of the four swap modes, tiled and linear, with
  // swizzles that pick every byte, 0 (4) and 1 (5) and read 6 / 7 as 0. Every pixel against the
  // rule worked here byte by byte: the texel's bytes in memory order m0..m3 become, after the
  // swap, the little-endian dword whose byte k is output channel k's source.
  const uint32_t width = 70, height = 40, base = 0x00400000;
  test::FakeGuest guest;
  const std::vector<uint8_t> bytes = RandomGuestBytes(guest, base, 96 * 64 * 4, 7);
  // Memory byte that lands in byte k of the swapped dword, per swap mode (none, 8in16, 8in32,
  // 16in32).
  const uint32_t swapped_from[4][4] = {{0, 1, 2, 3}, {1, 0, 3, 2}, {3, 2, 1, 0}, {2, 3, 0, 1}};
  const uint32_t swizzles[] = {0 | (1 << 3) | (2 << 6), 2 | (1 << 3) | (0 << 6),
                               3 | (4 << 3) | (5 << 6), 6 | (7 << 3) | (1 << 6)};
  for (bool tiled : {true, false}) {
    for (uint32_t endian = 0; endian < 4; ++endian) {
      for (uint32_t swizzle : swizzles) {
        std::vector<uint32_t> regs(xenos::FetchConstantIndex(0, 5) + 1);
        regs[xenos::FetchConstantIndex(0, 0)] = 2u | ((96u >> 5) << 22) | (tiled ? 1u << 31 : 0u);
        regs[xenos::FetchConstantIndex(0, 1)] = 6u | (endian << 6) | (base & 0xFFFFF000u);
        regs[xenos::FetchConstantIndex(0, 2)] = (width - 1) | ((height - 1) << 13);
        regs[xenos::FetchConstantIndex(0, 3)] = swizzle << 1;
        regs[xenos::FetchConstantIndex(0, 5)] = 1u << 9;  // 2D
        const gpu::SwapImage image = gpu::ReadFrontBuffer(regs, 0, 0, 0, guest.Access(), 2);
        ASSERT_EQ(image.width, width);
        ASSERT_EQ(image.height, height);
        for (uint32_t y = 0; y < height; ++y) {
          for (uint32_t x = 0; x < width; ++x) {
            const uint32_t o = tiled ? uint32_t(gpu::TiledOffset2D(int32_t(x), int32_t(y), 96, 2))
                                     : y * 512 + x * 4;  // 384-byte rows aligned to 256
            const uint8_t* px = &image.rgba[(size_t(y) * width + x) * 4];
            for (uint32_t k = 0; k < 3; ++k) {
              const uint32_t sel = (swizzle >> (3 * k)) & 7;
              const uint8_t want = sel < 4 ? bytes[o + swapped_from[endian][sel]]
                                   : sel == 5 ? 255 : 0;
              ASSERT_EQ(px[k], want) << (tiled ? "tiled" : "linear") << " endian " << endian
                                     << " swizzle " << swizzle << " channel " << k << " at " << x
                                     << "," << y;
            }
            ASSERT_EQ(px[3], 255);
          }
        }
      }
    }
  }
}

// DestRow's runs of a tiled row at 4, 8 and 16 bytes a pixel take their offsets from the first
// macro tile's plus a macro tile per 32 pixels: every pixel of rows across the whole range that
// way is used for (x and y below 8192, pitches up to 16384) at the offset TiledOffset2D gives it,
// from a start inside a run to an end inside one.
TEST(ResolveBands, TiledRunsAreAtTheirPixelsTiledOffsets) {
  std::vector<int32_t> rows;
  for (int32_t y = 0; y < 40; ++y) rows.push_back(y);
  for (int32_t y = 40; y < 8150; y += 97) rows.push_back(y);
  for (int32_t y = 8150; y < 8192; ++y) rows.push_back(y);
  for (uint32_t bpp_log2 = 2; bpp_log2 <= 4; ++bpp_log2) {
    for (uint32_t pitch : {32u, 1312u, 16384u}) {
      gpu::ResolveInfo info;
      info.dest_pitch = pitch;
      const gpu::resolve_dest::DestRow dest(info, bpp_log2);
      for (const int32_t y : rows) {
        int32_t next = 3;
        uint32_t bad = 0;
        dest.ForEachRun(3, 8190, y, [&](int32_t xb, int32_t xe, int64_t offset) {
          bad += xb != next;
          next = xe;
          for (int32_t x = xb; x < xe; ++x) {
            bad += offset + (int64_t(x - xb) << bpp_log2) !=
                   gpu::TiledOffset2D(x, y, pitch, bpp_log2);
          }
        });
        ASSERT_EQ(bad, 0u) << "bpp_log2 " << bpp_log2 << " pitch " << pitch << " row " << y;
        ASSERT_EQ(next, 8190);
      }
    }
  }
}

}  // namespace
}  // namespace xnt::vk::resolve_bands_test
