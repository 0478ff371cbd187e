// Texture cache on lavapipe: for each loadable format and layout a CPU encoder writes known
// texels (random raw block bits, with the declared endian swap applied) into guest memory, the
// compute loader decodes them into the host image, and a read-back compares every texel against
// an independent CPU decoder: unorm components must round back to exactly the stored integer,
// float components must match bit for bit.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "../test_env.h"
#include "xnt/base/error.h"
#include "xnt/vk/command_stream.h"
#include "xnt/vk/shared_memory.h"
#include "xnt/vk/texture_address.h"
#include "xnt/vk/texture_cache.h"
#include "xnt/vk/texture_formats.h"
#include "xnt/xenos/enums.h"

namespace xnt::vk {
namespace {

struct FakeGuest {
  std::map<uint32_t, std::vector<uint8_t>> pages;
  std::map<uint32_t, uint64_t> generations;
  uint64_t generation = 1;
  void WriteByte(uint32_t address, uint8_t value) {
    auto& p = pages[address >> 12];
    if (p.empty()) p.resize(4096);
    p[address & 4095] = value;
    generations[address >> 12] = generation;
  }
  void EndWrite() { ++generation; }
  GuestPageSource Source() {
    GuestPageSource s;
    s.generation = [this] { return generation; };
    s.page_generation = [this](uint32_t p) {
      auto it = generations.find(p);
      return it == generations.end() ? uint64_t(0) : it->second;
    };
    s.page_data = [this](uint32_t p) -> const uint8_t* {
      auto it = pages.find(p);
      return it == pages.end() ? nullptr : it->second.data();
    };
    return s;
  }
};

uint32_t Swap(uint32_t v, uint32_t endian) {
  if (endian == 1 || endian == 2) v = ((v & 0x00FF00FFu) << 8) | ((v >> 8) & 0x00FF00FFu);
  if (endian == 2 || endian == 3) v = (v << 16) | (v >> 16);
  return v;
}

// Expected component: either an exact float or an unorm integer over `max`.
struct Component {
  float value = 0;
  uint32_t max = 0;  // 0: exact float bits
};
using Texel = std::array<Component, 4>;

Component U(uint32_t v, uint32_t bits) {
  uint32_t max = (1u << bits) - 1;
  return {float(v) / float(max), max};
}
Component F(float f) { return {f, 0}; }
uint32_t Bits(uint32_t v, uint32_t o, uint32_t n) { return (v >> o) & ((1u << n) - 1); }

float Half(uint32_t h) {
  uint32_t sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
  float v = exp == 0 ? std::ldexp(float(man), -24) : std::ldexp(float(man | 1024), int(exp) - 25);
  return sign ? -v : v;
}

std::array<uint32_t, 3> Rgb565(uint32_t c) {
  uint32_t r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
  return {(r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2)};
}
std::array<uint32_t, 4> DxtColor(uint32_t w0, uint32_t w1, uint32_t i, bool four) {
  uint32_t c0 = w0 & 0xFFFF, c1 = w0 >> 16;
  auto e0 = Rgb565(c0), e1 = Rgb565(c1);
  uint32_t index = (w1 >> (2 * i)) & 3;
  std::array<uint32_t, 4> out{};
  for (int k = 0; k < 3; ++k) {
    uint32_t a = e0[k], b = e1[k];
    if (index == 0) out[k] = a;
    else if (index == 1) out[k] = b;
    else if (four || c0 > c1) out[k] = index == 2 ? (2 * a + b) / 3 : (a + 2 * b) / 3;
    else out[k] = index == 2 ? (a + b) / 2 : 0;
  }
  out[3] = (!four && c0 <= c1 && index == 3) ? 0 : 255;
  return out;
}
uint32_t Dxt5Alpha(uint32_t w0, uint32_t w1, uint32_t i) {
  uint64_t bits = uint64_t(w0) | (uint64_t(w1) << 32);
  uint32_t a0 = w0 & 0xFF, a1 = (w0 >> 8) & 0xFF;
  uint32_t index = uint32_t(bits >> (16 + 3 * i)) & 7;
  if (index == 0) return a0;
  if (index == 1) return a1;
  if (a0 > a1) return ((8 - index) * a0 + (index - 1) * a1) / 7;
  if (index == 6) return 0;
  if (index == 7) return 255;
  return ((6 - index) * a0 + (index - 1) * a1) / 5;
}

// Independent CPU decode of texel `ti` (index in a 4x4 block, or 0) of a block whose dwords are
// `w` (after the endian swap), and `t` the texel's bits for sub-dword texels.
Texel Decode(uint32_t format, const uint32_t* w, uint32_t t, uint32_t ti) {
  auto rep = [](Component x, Component y, Component z, Component a) { return Texel{x, y, z, a}; };
  switch (format) {
    case 2: case 8: case 9: { auto c = U(t & 0xFF, 8); return rep(c, c, c, c); }
    case 3: return rep(U(Bits(t, 0, 5), 5), U(Bits(t, 5, 5), 5), U(Bits(t, 10, 5), 5), U(Bits(t, 15, 1), 1));
    case 4: return rep(U(Bits(t, 0, 5), 5), U(Bits(t, 5, 6), 6), U(Bits(t, 11, 5), 5), U(Bits(t, 11, 5), 5));
    case 5: return rep(U(Bits(t, 0, 5), 5), U(Bits(t, 5, 5), 5), U(Bits(t, 10, 6), 6), U(Bits(t, 10, 6), 6));
    case 6: case 14: case 50:
      return rep(U(Bits(t, 0, 8), 8), U(Bits(t, 8, 8), 8), U(Bits(t, 16, 8), 8), U(Bits(t, 24, 8), 8));
    case 7: case 54:
      return rep(U(Bits(t, 0, 10), 10), U(Bits(t, 10, 10), 10), U(Bits(t, 20, 10), 10), U(Bits(t, 30, 2), 2));
    case 10: return rep(U(Bits(t, 0, 8), 8), U(Bits(t, 8, 8), 8), U(Bits(t, 8, 8), 8), U(Bits(t, 8, 8), 8));
    case 11: case 12: {
      bool first = (ti & 1) == 0;  // ti = texel column within the 2x1 block
      uint32_t y = format == 11 ? Bits(t, first ? 0 : 16, 8) : Bits(t, first ? 8 : 24, 8);
      uint32_t cb = format == 11 ? Bits(t, 8, 8) : Bits(t, 0, 8);
      uint32_t cr = format == 11 ? Bits(t, 24, 8) : Bits(t, 16, 8);
      return rep(U(cr, 8), U(y, 8), U(cb, 8), F(1.0f));
    }
    case 15: return rep(U(Bits(t, 0, 4), 4), U(Bits(t, 4, 4), 4), U(Bits(t, 8, 4), 4), U(Bits(t, 12, 4), 4));
    case 16: case 55:
      return rep(U(Bits(t, 0, 11), 11), U(Bits(t, 11, 11), 11), U(Bits(t, 22, 10), 10), U(Bits(t, 22, 10), 10));
    case 17: case 56:
      return rep(U(Bits(t, 0, 10), 10), U(Bits(t, 10, 11), 11), U(Bits(t, 21, 11), 11), U(Bits(t, 21, 11), 11));
    case 22: { auto c = U(t >> 8, 24); return rep(c, c, c, c); }
    case 23: {
      // 20e4: value = 2^(e - 15) * (1 + m / 2^20), denormals 2^-14 * m / 2^20.
      uint32_t f = t >> 8, e = f >> 20, m = f & 0xFFFFF;
      float value = e ? std::ldexp(1.0f + float(m) / 1048576.0f, int(e) - 15)
                      : std::ldexp(float(m) / 1048576.0f, -14);
      auto c = F(value);
      return rep(c, c, c, c);
    }
    case 24: { auto c = U(t & 0xFFFF, 16); return rep(c, c, c, c); }
    case 25: return rep(U(t & 0xFFFF, 16), U(t >> 16, 16), U(t >> 16, 16), U(t >> 16, 16));
    case 26: return rep(U(w[0] & 0xFFFF, 16), U(w[0] >> 16, 16), U(w[1] & 0xFFFF, 16), U(w[1] >> 16, 16));
    case 27: case 30: { auto c = F(Half(t & 0xFFFF)); return rep(c, c, c, c); }
    case 28: case 31: return rep(F(Half(t & 0xFFFF)), F(Half(t >> 16)), F(Half(t >> 16)), F(Half(t >> 16)));
    case 29: case 32: return rep(F(Half(w[0] & 0xFFFF)), F(Half(w[0] >> 16)), F(Half(w[1] & 0xFFFF)), F(Half(w[1] >> 16)));
    case 36: case 37: case 38: {
      float f[4];
      for (int i = 0; i < 4; ++i) std::memcpy(&f[i], &w[format == 38 ? i : (format == 37 ? std::min(i, 1) : 0)], 4);
      return rep(F(f[0]), F(f[1]), F(f[2]), F(f[3]));
    }
    case 18: case 51: {
      auto c = DxtColor(w[0], w[1], ti, false);
      return rep(U(c[0], 8), U(c[1], 8), U(c[2], 8), U(c[3], 8));
    }
    case 19: case 52: {
      auto c = DxtColor(w[2], w[3], ti, true);
      uint32_t a = ((ti < 8 ? w[0] : w[1]) >> (4 * (ti & 7))) & 15;
      return rep(U(c[0], 8), U(c[1], 8), U(c[2], 8), U(a, 4));
    }
    case 20: case 53: {
      auto c = DxtColor(w[2], w[3], ti, true);
      return rep(U(c[0], 8), U(c[1], 8), U(c[2], 8), U(Dxt5Alpha(w[0], w[1], ti), 8));
    }
    case 49: {
      auto y = U(Dxt5Alpha(w[2], w[3], ti), 8);
      return rep(U(Dxt5Alpha(w[0], w[1], ti), 8), y, y, y);
    }
    case 58: { auto c = U(((ti < 8 ? w[0] : w[1]) >> (4 * (ti & 7))) & 15, 4); return rep(c, c, c, c); }
    case 59: { auto c = U(Dxt5Alpha(w[0], w[1], ti), 8); return rep(c, c, c, c); }
    case 60: {
      uint32_t x0 = w[0] & 0xFF, y0 = (w[0] >> 8) & 0xFF, x1 = (w[0] >> 16) & 0xFF, y1 = w[0] >> 24;
      uint32_t index = (w[1] >> (2 * ti)) & 3;
      auto lerp = [&](uint32_t a, uint32_t b) {
        return index == 0 ? a : index == 1 ? b : index == 2 ? (2 * a + b) / 3 : (a + 2 * b) / 3;
      };
      auto y = U(lerp(y0, y1), 8);
      return rep(U(lerp(x0, x1), 8), y, y, y);
    }
    default: ADD_FAILURE() << "no reference decoder for format " << format; return {};
  }
}

bool IsHalfFormat(uint32_t f) { return (f >= 27 && f <= 29) || (f >= 30 && f <= 32); }
bool IsFloatFormat(uint32_t f) { return IsHalfFormat(f) || f == 36 || f == 37 || f == 38; }

// Random block dwords (finite values for float formats).
uint32_t RandomWord(std::mt19937& rng, uint32_t format) {
  uint32_t v = rng();
  if (IsHalfFormat(format)) {
    // Keep both halves finite: exponent 31 is Inf/NaN.
    for (int h = 0; h < 2; ++h) {
      if (((v >> (10 + 16 * h)) & 31) == 31) v &= ~(1u << (14 + 16 * h));
    }
  } else if (IsFloatFormat(format)) {
    std::uniform_real_distribution<float> d(-1000.0f, 1000.0f);
    float f = d(rng);
    std::memcpy(&v, &f, 4);
  }
  return v;
}

struct Layout {
  uint32_t width, height, pitch, layers = 1;
  bool tiled;
  uint32_t dimension = 1;  // 2D/stacked; 3 = cube
  uint32_t signs = 0;      // fetch constant dword 0 bits 2..9 (TextureSign per component)
};

class TextureLoadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx_ = test::MakeLavapipeContext();
    ASSERT_TRUE(ctx_);
    stream_ = std::make_unique<CommandStream>(*ctx_, 64ull << 20);
    memory_ = std::make_unique<SharedMemory>(*ctx_, *stream_);
    cache_ = std::make_unique<TextureCache>(*ctx_, *stream_, *memory_);
  }
  void TearDown() override {
    if (ctx_) {
      EXPECT_EQ(ctx_->validation_message_count(), 0u) << test::ValidationReport(*ctx_);
    }
  }

  static std::array<uint32_t, 6> Fetch(uint32_t base, uint32_t format, uint32_t endian,
                                       const Layout& l) {
    std::array<uint32_t, 6> d{};
    d[0] = 2u | (l.signs << 2) | ((l.pitch >> 5) << 22) | (l.tiled ? 1u << 31 : 0u);
    d[1] = format | (endian << 6) | ((base >> 12) << 12);
    d[2] = (l.width - 1) | ((l.height - 1) << 13) | ((l.layers - 1) << 26);
    d[5] = l.dimension << 9;
    return d;
  }

  // Encodes random blocks at their guest addresses; returns the expected texels.
  std::vector<Texel> Encode(uint32_t base, uint32_t format, uint32_t endian, const Layout& l,
                            uint32_t seed) {
    TextureFormatInfo info = GetTextureFormatInfo(format);
    EXPECT_TRUE(info.loadable);
    std::mt19937 rng(seed);
    TextureDescriptor desc = TextureDescriptor::FromFetchConstant(Fetch(base, format, endian, l).data());
    TextureLoadConstants c = desc.LoadConstants();
    uint32_t bw = (l.width + info.block_width - 1) / info.block_width;
    uint32_t bh = (l.height + info.block_height - 1) / info.block_height;
    uint32_t block_bytes = 1u << info.bpb_log2;
    std::vector<Texel> expected(size_t(l.width) * l.height * l.layers);
    for (uint32_t z = 0; z < l.layers; ++z) {
      for (uint32_t by = 0; by < bh; ++by) {
        for (uint32_t bx = 0; bx < bw; ++bx) {
          uint32_t offset = l.tiled ? uint32_t(TiledOffset2D(int32_t(bx), int32_t(by), c.pitch_blocks, info.bpb_log2))
                                    : LinearOffset2D(bx, by, c.pitch_blocks, info.bpb_log2);
          uint32_t address = base + z * c.layer_stride + offset;
          // The block's dwords as the loader sees them after the swap; for sub-dword blocks,
          // the containing dword keeps whatever bytes other blocks put there.
          uint32_t words[4] = {};
          if (block_bytes >= 4) {
            for (uint32_t i = 0; i < block_bytes / 4; ++i) {
              words[i] = RandomWord(rng, format);
              uint32_t stored = Swap(words[i], endian);
              for (uint32_t b = 0; b < 4; ++b) guest_.WriteByte(address + 4 * i + b, uint8_t(stored >> (8 * b)));
            }
          } else {
            uint32_t t = RandomWord(rng, format) & (block_bytes == 1 ? 0xFFu : 0xFFFFu);
            uint32_t shift = 8 * (address & 3);
            // Position of these bytes in guest memory: apply the swap to a dword holding only them.
            uint32_t stored = Swap(t << shift, endian);
            uint32_t mask = Swap((block_bytes == 1 ? 0xFFu : 0xFFFFu) << shift, endian);
            for (uint32_t b = 0; b < 4; ++b) {
              if ((mask >> (8 * b)) & 0xFF) guest_.WriteByte((address & ~3u) + b, uint8_t(stored >> (8 * b)));
            }
            words[0] = t;
          }
          for (uint32_t ty = 0; ty < info.block_height; ++ty) {
            for (uint32_t tx = 0; tx < info.block_width; ++tx) {
              uint32_t x = bx * info.block_width + tx, y = by * info.block_height + ty;
              if (x >= l.width || y >= l.height) continue;
              expected[(size_t(z) * l.height + y) * l.width + x] =
                  Decode(format, words, words[0], ty * 4 + tx);
            }
          }
        }
      }
    }
    guest_.EndWrite();
    return expected;
  }

  std::vector<float> ReadBack(const TextureCache::Texture& t) {
    size_t size = size_t(t.width) * t.height * t.layers * 16;
    auto alloc = stream_->Allocate(size, 16);
    VkBufferImageCopy region{};
    region.bufferOffset = alloc.offset;
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, t.layers};
    region.imageExtent = {t.width, t.height, 1};
    vkCmdCopyImageToBuffer(stream_->cmd(), t.image, VK_IMAGE_LAYOUT_GENERAL, alloc.buffer, 1, &region);
    stream_->Flush();
    std::vector<float> out(size / 4);
    std::memcpy(out.data(), alloc.data, size);
    return out;
  }

  // Loads through the cache and compares; returns the number of mismatching components.
  size_t Check(uint32_t base, uint32_t format, uint32_t endian, const Layout& l,
               const std::vector<Texel>& expected) {
    memory_->Sync(guest_.Source());
    auto fetch = Fetch(base, format, endian, l);
    const auto& t = cache_->Get(fetch.data(), guest_.Source());
    auto got = ReadBack(t);
    size_t bad = 0;
    for (size_t i = 0; i < expected.size(); ++i) {
      for (int k = 0; k < 4; ++k) {
        const Component& e = expected[i][k];
        float g = got[i * 4 + k];
        bool ok;
        if (e.max == 0) {
          ok = std::memcmp(&g, &e.value, 4) == 0;
        } else {
          ok = std::lround(double(g) * e.max) == std::lround(double(e.value) * e.max) &&
               std::fabs(g - e.value) <= 1e-6f;
        }
        if (!ok && bad++ < 4) {
          ADD_FAILURE() << xenos::TextureFormatName(format) << " endian " << endian << " texel "
                        << i << " component " << k << ": got " << g << " want " << e.value
                        << " (max " << e.max << ")";
        }
      }
    }
    return bad;
  }

  std::unique_ptr<VulkanContext> ctx_;
  std::unique_ptr<CommandStream> stream_;
  std::unique_ptr<SharedMemory> memory_;
  std::unique_ptr<TextureCache> cache_;
  FakeGuest guest_;
};

const uint32_t kFormats[] = {2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 14, 15, 16, 17,
                             18, 19, 20, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 36,
                             37, 38, 49, 50, 51, 52, 53, 54, 55, 56, 58, 59, 60};

TEST_F(TextureLoadTest, EveryFormatTiledAndLinearEveryEndian) {
  uint32_t base = 0x01000000;
  uint32_t n = 0;
  for (uint32_t format : kFormats) {
    for (bool tiled : {true, false}) {
      uint32_t endian = (n++) % 4;
      Layout l{40, 24, 64, 1, tiled};
      auto expected = Encode(base, format, endian, l, 1000 + n);
      EXPECT_EQ(Check(base, format, endian, l, expected), 0u)
          << xenos::TextureFormatName(format) << (tiled ? " tiled" : " linear");
      base += 0x40000;
    }
  }
  EXPECT_EQ(cache_->load_count(), 2 * std::size(kFormats));
}

TEST_F(TextureLoadTest, NonAligned72x40InA96PitchTiledAllocation) {
  Layout l{72, 40, 96, 1, true};
  for (uint32_t format : {6u, 18u, 26u}) {
    uint32_t base = 0x02000000 + format * 0x100000;
    auto expected = Encode(base, format, 2, l, format);
    EXPECT_EQ(Check(base, format, 2, l, expected), 0u) << xenos::TextureFormatName(format);
  }
}

TEST_F(TextureLoadTest, StackedAndCube) {
  Layout stacked{24, 20, 32, 3, true, 1};
  auto e1 = Encode(0x03000000, 6, 2, stacked, 7);
  EXPECT_EQ(Check(0x03000000, 6, 2, stacked, e1), 0u);
  Layout cube{16, 16, 32, 6, true, 3};
  auto e2 = Encode(0x03100000, 20, 1, cube, 8);
  EXPECT_EQ(Check(0x03100000, 20, 1, cube, e2), 0u);
  Layout linear_stack{20, 8, 32, 2, false, 1};
  auto e3 = Encode(0x03200000, 4, 1, linear_stack, 9);
  EXPECT_EQ(Check(0x03200000, 4, 1, linear_stack, e3), 0u);
}

// TextureSign kSigned: the loader reads the component's n-bit field as two's complement snorm,
// max(s / (2^(n-1) - 1), -1); unsigned components of the same texture stay unorm.
TEST_F(TextureLoadTest, SignedComponentsAreTwosComplementSnorm) {
  struct Case {
    uint32_t format;
    uint32_t signs;  // 2 bits per component, 1 = signed
  };
  const Case cases[] = {{6, 0x11},   // 8_8_8_8: X and Z signed
                        {26, 0x55},  // 16_16_16_16: all signed
                        {7, 0x45},   // 2_10_10_10: X, Y and the 2-bit W signed
                        {4, 0x04}};  // 5_6_5: the 6-bit Y signed
  uint32_t base = 0x06000000;
  for (const Case& c : cases) {
    Layout l{24, 16, 32, 1, true};
    l.signs = c.signs;
    auto expected = Encode(base, c.format, 2, l, c.format * 7);
    uint32_t negatives = 0;
    for (Texel& t : expected) {
      for (uint32_t k = 0; k < 4; ++k) {
        if (((c.signs >> (2 * k)) & 3) != 1) continue;
        Component& e = t[k];
        ASSERT_NE(e.max, 0u);
        uint32_t bits = 0;
        while ((1u << bits) - 1 < e.max) ++bits;
        int32_t r = int32_t(std::lround(double(e.value) * e.max));
        int32_t v = r >= int32_t(1u << (bits - 1)) ? r - int32_t(1u << bits) : r;
        uint32_t half = (1u << (bits - 1)) - 1;
        e = {std::max(float(v) / float(half), -1.0f), half};
        negatives += v < 0;
      }
    }
    EXPECT_GT(negatives, 0u);
    EXPECT_EQ(Check(base, c.format, 2, l, expected), 0u) << xenos::TextureFormatName(c.format);
    base += 0x100000;
  }
}

TEST_F(TextureLoadTest, CacheReusesAndReloadsOnPageChangeOrInvalidate) {
  Layout l{32, 32, 32, 1, true};
  uint32_t base = 0x04000000;
  auto expected = Encode(base, 6, 2, l, 1);
  EXPECT_EQ(Check(base, 6, 2, l, expected), 0u);
  EXPECT_EQ(Check(base, 6, 2, l, expected), 0u);
  EXPECT_EQ(cache_->load_count(), 1u);
  EXPECT_EQ(cache_->entry_count(), 1u);
  // New texels written by the trace: the page generations change, the entry reloads.
  expected = Encode(base, 6, 2, l, 2);
  EXPECT_EQ(Check(base, 6, 2, l, expected), 0u);
  EXPECT_EQ(cache_->load_count(), 2u);
  // A resolve (or memexport) reports a write: reload even without a generation change.
  cache_->Invalidate(base + 100, 4);
  EXPECT_EQ(Check(base, 6, 2, l, expected), 0u);
  EXPECT_EQ(cache_->load_count(), 3u);
  cache_->Invalidate(base + 0x10000, 4);  // elsewhere
  EXPECT_EQ(Check(base, 6, 2, l, expected), 0u);
  EXPECT_EQ(cache_->load_count(), 3u);
  EXPECT_EQ(cache_->entry_count(), 1u);
}

TEST_F(TextureLoadTest, UnsupportedAndAbsurdFetchConstantsThrow) {
  Layout l{16, 16, 32, 1, true};
  auto yuv = Fetch(0x05000000, 33, 0, l);  // k_32 (integer)
  EXPECT_THROW(cache_->Get(yuv.data(), guest_.Source()), Error);
  Layout cube3d{16, 16, 32, 1, true, 2};
  auto vol = Fetch(0x05000000, 6, 0, cube3d);
  EXPECT_THROW(cache_->Get(vol.data(), guest_.Source()), Error);
  Layout huge{8192, 8192, 8192, 64, true, 1};
  auto big = Fetch(0x05000000, 6, 0, huge);
  EXPECT_THROW(cache_->Get(big.data(), guest_.Source()), Error);
  auto vertex = Fetch(0x05000000, 6, 0, l);
  vertex[0] = (vertex[0] & ~3u) | 3u;  // a vertex fetch constant
  EXPECT_THROW(cache_->Get(vertex.data(), guest_.Source()), Error);
  EXPECT_EQ(cache_->entry_count(), 0u);
}

}  // namespace
}  // namespace xnt::vk
