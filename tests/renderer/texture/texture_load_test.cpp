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
#include "texture_reference.h"
#include "xnt/base/error.h"
#include "xnt/vk/command_stream.h"
#include "xnt/vk/shared_memory.h"
#include "xnt/vk/texture_address.h"
#include "xnt/vk/texture_cache.h"
#include "xnt/vk/texture_formats.h"
#include "xnt/xenos/enums.h"

namespace xnt::vk {
namespace {

using namespace texref;

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
    return texref::Fetch(base, format, endian, l);
  }
  std::vector<Texel> Encode(uint32_t base, uint32_t format, uint32_t endian, const Layout& l,
                            uint32_t seed) {
    return texref::Encode(guest_, base, format, endian, l, seed);
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
