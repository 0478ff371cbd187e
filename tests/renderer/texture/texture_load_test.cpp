// Texture cache on lavapipe: for each loadable format and layout a CPU encoder writes known
// texels (random raw block bits, with the declared endian swap applied) into guest memory, the
// compute loader decodes them into the host image, and a read-back compares every texel against
// an independent CPU decoder: unorm components must round back to exactly the stored integer,
// float components must match bit for bit.
#include <gtest/gtest.h>

#include <array>
#include <bit>
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
#include "xnt/gpu/texture_address.h"
#include "xnt/vk/texture_cache.h"
#include "xnt/gpu/texture_formats.h"
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

  // Every level, level after level (the order Encode returns).
  std::vector<float> ReadBack(const TextureCache::Texture& t) {
    size_t size = 0;
    std::vector<VkBufferImageCopy> regions;
    for (uint32_t level = 0; level < t.levels; ++level) {
      uint32_t w = std::max(t.width >> level, 1u), h = std::max(t.height >> level, 1u);
      VkBufferImageCopy region{};
      region.bufferOffset = size;
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, t.layers};
      region.imageExtent = {w, h, 1};
      regions.push_back(region);
      size += size_t(w) * h * t.layers * 16;
    }
    auto alloc = stream_->Allocate(size, 16);
    for (auto& r : regions) r.bufferOffset += alloc.offset;
    vkCmdCopyImageToBuffer(stream_->cmd(), t.image, VK_IMAGE_LAYOUT_GENERAL, alloc.buffer,
                           uint32_t(regions.size()), regions.data());
    stream_->Flush();
    std::vector<float> out(size / 4);
    std::memcpy(out.data(), alloc.data, size);
    return out;
  }

  // Like Check, for 3D textures (each level's depth slices read back as its depth) and 1D rows.
  size_t CheckVolume(uint32_t base, uint32_t format, uint32_t endian, const Layout& l,
                     const std::vector<Texel>& expected) {
    memory_->Sync(guest_.Source());
    auto fetch = Fetch(base, format, endian, l);
    const auto& t = cache_->Get(fetch.data(), guest_.Source());
    size_t size = 0;
    std::vector<VkBufferImageCopy> regions;
    for (uint32_t level = 0; level < t.levels; ++level) {
      const uint32_t w = std::max(t.width >> level, 1u), h = std::max(t.height >> level, 1u);
      const uint32_t d = std::max(t.depth >> level, 1u);
      VkBufferImageCopy region{};
      region.bufferOffset = size;
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, t.layers};
      region.imageExtent = {w, h, d};
      regions.push_back(region);
      size += size_t(w) * h * d * t.layers * 16;
    }
    auto alloc = stream_->Allocate(size, 16);
    for (auto& r : regions) r.bufferOffset += alloc.offset;
    vkCmdCopyImageToBuffer(stream_->cmd(), t.image, VK_IMAGE_LAYOUT_GENERAL, alloc.buffer,
                           uint32_t(regions.size()), regions.data());
    stream_->Flush();
    std::vector<float> got(size / 4);
    std::memcpy(got.data(), alloc.data, size);
    return Compare(format, endian, expected, got);
  }

  static size_t Compare(uint32_t format, uint32_t endian, const std::vector<Texel>& expected,
                        const std::vector<float>& got) {
    size_t bad = 0;
    if (got.size() < expected.size() * 4) return expected.size() * 4;
    for (size_t i = 0; i < expected.size(); ++i) {
      for (int k = 0; k < 4; ++k) {
        const Component& e = expected[i][k];
        float g = got[i * 4 + k];
        // Bit for bit, also for an unorm v / max: the load shader divides as IEEE does (div_rn),
        // so no driver's approximate division moves a texel by an ulp.
        bool ok = std::memcmp(&g, &e.value, 4) == 0;
        if (!ok && bad++ < 4) {
          ADD_FAILURE() << xenos::TextureFormatName(format) << " endian " << endian << " texel "
                        << i << " component " << k << ": got " << g << " want " << e.value
                        << " (max " << e.max << ")";
        }
      }
    }
    return bad;
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
        // Bit for bit, also for an unorm v / max: the load shader divides as IEEE does (div_rn),
        // so no driver's approximate division moves a texel by an ulp.
        bool ok = std::memcmp(&g, &e.value, 4) == 0;
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
                             37, 38, 49, 50, 51, 52, 53, 54, 55, 56, 58, 59, 60, 61};

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

// Mip chains (Xenia texture_util.cc GetGuestTextureLayout / GetPackedMipOffset): levels 1.. at
// the mip address, each a power-of-two-strided storage; with packed mips the levels from the
// one whose smaller side is 16 share one tail at offsets inside it.
TEST_F(TextureLoadTest, MipChainsWithAndWithoutPackedTails) {
  struct Case {
    uint32_t format, width, height, layers, max_level;
    bool packed, tiled;
  };
  const Case cases[] = {
      {6, 64, 64, 1, 6, true, true},    // levels 2..6 packed (16x16 down to 1x1)
      {6, 40, 24, 1, 5, true, true},    // non-power-of-two, wider than tall: packed from 1
      {18, 64, 32, 1, 5, true, true},   // DXT1: packed offsets in blocks
      {26, 32, 32, 2, 5, false, true},  // stacked, no packing
      {4, 16, 16, 1, 4, true, true},    // the base itself in the packed tail (level 0)
      {6, 64, 16, 1, 6, true, false},   // linear, packed from the base
  };
  uint32_t base = 0x07000000;
  for (const Case& c : cases) {
    Layout l{c.width, c.height, (c.width + 31) & ~31u, c.layers, c.tiled};
    l.max_level = c.max_level;
    l.mip_address = base + 0x80000;
    l.packed_mips = c.packed;
    auto expected = Encode(base, c.format, 2, l, c.width * 13 + c.format);
    auto fetch = Fetch(base, c.format, 2, l);
    TextureDescriptor d = TextureDescriptor::FromFetchConstant(fetch.data());
    EXPECT_EQ(d.levels, c.max_level + 1);
    EXPECT_EQ(Check(base, c.format, 2, l, expected), 0u)
        << xenos::TextureFormatName(c.format) << " " << c.width << "x" << c.height;
    base += 0x100000;
  }
  // The layout facts checked directly: a 64x64 packed chain starts packing at level 2 (16x16),
  // level 2 at x 16 texels in the tail, level 3 at x 8, level 4 at x 4, then level 5 (2x2) at
  // y 8 (Xenia's table: the first three packed levels along x, the smaller ones along y).
  Layout l{64, 64, 64, 1, true};
  l.max_level = 6;
  l.mip_address = 0x08000000;
  l.packed_mips = true;
  auto f = Fetch(0x07F00000, 6, 2, l);
  TextureDescriptor d = TextureDescriptor::FromFetchConstant(f.data());
  EXPECT_EQ(d.PackedLevel(), 2u);
  EXPECT_EQ(d.GetLevel(1).address, 0x08000000u);
  EXPECT_EQ(d.GetLevel(2).address, 0x08000000u + 32 * 32 * 4);
  EXPECT_EQ(d.GetLevel(2).offset_x_blocks, 16u);
  EXPECT_EQ(d.GetLevel(3).offset_x_blocks, 8u);
  EXPECT_EQ(d.GetLevel(4).offset_x_blocks, 4u);
  EXPECT_EQ(d.GetLevel(4).offset_y_blocks, 0u);
  EXPECT_EQ(d.GetLevel(5).offset_x_blocks, 0u);
  EXPECT_EQ(d.GetLevel(5).offset_y_blocks, 8u);
  EXPECT_EQ(d.GetLevel(6).offset_y_blocks, 4u);
  EXPECT_EQ(d.GetLevel(6).address, d.GetLevel(2).address);
}

// The 3D tiling is a bijection: every block of a 32x32x8 region (two 4-slice groups), for every
// block size, lands on its own block-aligned address inside the region's bytes.
TEST(TiledOffset3D, MapsEachBlockOfATileGroupToItsOwnAddress) {
  for (uint32_t bpb_log2 = 0; bpb_log2 <= 4; ++bpb_log2) {
    const uint32_t blocks = 32 * 32 * 8;
    std::vector<uint8_t> seen(blocks, 0);
    uint32_t outside = 0, unaligned = 0, twice = 0;
    for (uint32_t z = 0; z < 8; ++z) {
      for (uint32_t y = 0; y < 32; ++y) {
        for (uint32_t x = 0; x < 32; ++x) {
          uint32_t a = gpu::TiledOffset3D(x, y, z, 32, 32, bpb_log2);
          if (a & ((1u << bpb_log2) - 1)) { ++unaligned; continue; }
          uint32_t i = a >> bpb_log2;
          if (i >= blocks) { ++outside; continue; }
          twice += seen[i]++ != 0;
        }
      }
    }
    EXPECT_EQ(outside + unaligned + twice, 0u) << "bpb_log2 " << bpb_log2;
  }
}

// 3D textures: 32x32x4 tiles (Xenia GetTiledOffset3D) or linear slices, into host 3D images;
// 1D textures: one linear row.
TEST_F(TextureLoadTest, VolumesAndRows) {
  struct Case {
    uint32_t format;
    Layout layout;
  };
  const Case cases[] = {
      {6, Layout{16, 16, 32, 5, true, 2}},   // depth not a multiple of 4
      {18, Layout{40, 24, 64, 6, true, 2}},  // DXT1 volume, several 32-row groups in x
      {24, Layout{20, 36, 32, 4, true, 2}},  // 16bpp, two 16-row macro rows in y
      {2, Layout{24, 8, 32, 3, false, 2}},   // linear volume
      {6, Layout{100, 1, 128, 1, false, 0}}, // 1D
      {20, Layout{64, 1, 64, 1, false, 0}},  // 1D DXT (one block row)
  };
  uint32_t base = 0x09000000;
  for (const Case& c : cases) {
    auto expected = Encode(base, c.format, 2, c.layout, c.format + c.layout.width);
    EXPECT_EQ(CheckVolume(base, c.format, 2, c.layout, expected), 0u)
        << xenos::TextureFormatName(c.format) << " dimension " << c.layout.dimension;
    const auto& t = cache_->Get(Fetch(base, c.format, 2, c.layout).data(), guest_.Source());
    EXPECT_EQ(t.depth, c.layout.dimension == 2 ? c.layout.layers : 1u);
    base += 0x100000;
  }
}

// Volumes with mip chains: each level's slices from its own storage (every level spans the
// base's 4-aligned depth) or from a packed tail, a deep volume's small levels at slice offsets
// in the tail (TextureDescriptor::GetLevel; the offsets are hand-checked in the gpu tests).
TEST_F(TextureLoadTest, VolumeMipChains) {
  struct Case {
    uint32_t format;
    uint32_t width, height, depth, pitch;
    bool tiled, packed;
    uint32_t max_level;
  };
  const Case cases[] = {
      {6, 64, 32, 6, 64, true, false, 6},   // unpacked; 6 slices: 3, then 1 from level 2
      {6, 32, 32, 8, 32, true, true, 5},    // packed from level 1, all at slice 0
      {6, 4, 4, 32, 32, true, true, 5},     // base in the tail; levels 3..5 at slices 8, 4, 4
      {18, 16, 16, 4, 32, true, true, 4},   // DXT1, the base in the tail
      {24, 20, 12, 5, 32, true, true, 4},   // 16 bpp, non-power-of-two
      {2, 24, 8, 3, 32, false, true, 4},    // linear
      {6, 8, 8, 16, 32, false, true, 4},    // linear, deep: slice offsets in a linear tail
  };
  uint32_t base = 0x0A000000;
  for (const Case& c : cases) {
    Layout l{c.width, c.height, c.pitch, c.depth, c.tiled, 2};
    l.max_level = c.max_level;
    l.mip_address = base + 0x100000;
    l.packed_mips = c.packed;
    auto expected = Encode(base, c.format, 2, l, c.width * 7 + c.depth);
    EXPECT_EQ(CheckVolume(base, c.format, 2, l, expected), 0u)
        << xenos::TextureFormatName(c.format) << " " << c.width << "x" << c.height << "x" << c.depth;
    const auto& t = cache_->Get(Fetch(base, c.format, 2, l).data(), guest_.Source());
    EXPECT_EQ(t.levels, c.max_level + 1);
    EXPECT_EQ(t.depth, c.depth);
    base += 0x200000;
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

// With write tracking (as a replay runs): a texture that nothing of the submission used yet,
// whose pages the mirror holds from the submission's start, is loaded ahead of the submission
// (no command in the stream's own buffer); rewritten and needed again within the same
// submission, it is loaded in stream order. A copy of the image recorded between the two loads
// sees the first texels, one after them the second: the ahead load ran before the stream's
// commands, the second load where it was recorded.
TEST_F(TextureLoadTest, LoadsMoveAheadOfTheSubmissionUnlessItUsedTheImage) {
  memory_->EnableWriteTracking();
  Layout l{32, 32, 32, 1, true};
  const uint32_t base = 0x05000000;
  const auto fetch = Fetch(base, 6, 2, l);
  const uint64_t bytes = 32 * 32 * 4;
  // The first sync after write tracking starts scans every page in stream order.
  memory_->Sync(guest_.Source());
  stream_->Flush();
  auto first = Encode(base, 6, 2, l, 11);
  guest_.EndWrite();
  memory_->Invalidate(base, bytes);
  EXPECT_GT(memory_->SyncAhead(guest_.Source()), 0u);
  EXPECT_TRUE(memory_->ReadableAhead(base, bytes, guest_.Source()));
  const TextureCache::Texture& t = cache_->Get(fetch.data(), guest_.Source());
  EXPECT_EQ(cache_->load_count(), 1u);
  EXPECT_EQ(cache_->ahead_load_count(), 1u);
  // Copy of the image as the stream's commands see it now.
  auto copy = [&](const CommandStream::Allocation& to) {
    VkBufferImageCopy region{};
    region.bufferOffset = to.offset;
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {32, 32, 1};
    vkCmdCopyImageToBuffer(stream_->cmd(), t.image, VK_IMAGE_LAYOUT_GENERAL, to.buffer, 1, &region);
    VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    after.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    after.dstAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(stream_->cmd(), VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &after, 0, nullptr, 0, nullptr);
  };
  const auto a = stream_->Allocate(32 * 32 * 16, 16);
  copy(a);
  // Rewritten within the submission: its pages were read ahead, so their upload stays in stream
  // order, and the image was used, so the reload does too.
  auto second = Encode(base, 6, 2, l, 12);
  guest_.EndWrite();
  memory_->Invalidate(base, bytes);
  memory_->SyncAhead(guest_.Source());
  EXPECT_FALSE(memory_->ReadableAhead(base, bytes, guest_.Source()));
  memory_->Sync(guest_.Source());
  cache_->Get(fetch.data(), guest_.Source());
  EXPECT_EQ(cache_->load_count(), 2u);
  EXPECT_EQ(cache_->ahead_load_count(), 1u);
  const auto b = stream_->Allocate(32 * 32 * 16, 16);
  copy(b);
  stream_->Flush();
  std::vector<float> got(32 * 32 * 4);
  std::memcpy(got.data(), a.data, got.size() * 4);
  EXPECT_EQ(Compare(6, 2, first, got), 0u) << "the copy between the loads";
  std::memcpy(got.data(), b.data, got.size() * 4);
  EXPECT_EQ(Compare(6, 2, second, got), 0u) << "the copy after the second load";
  // The next submission has not used the image: a change loads ahead again.
  auto third = Encode(base, 6, 2, l, 13);
  guest_.EndWrite();
  memory_->Invalidate(base, bytes);
  memory_->SyncAhead(guest_.Source());
  EXPECT_EQ(Check(base, 6, 2, l, third), 0u);
  EXPECT_EQ(cache_->ahead_load_count(), 2u);
}

// The cache keeps every texture; past one descriptor pool's worth of loader sets (1024 levels)
// it opens another pool instead of failing.
TEST_F(TextureLoadTest, ManyTexturesGrowTheLoaderDescriptorPools) {
  Layout l{4, 4, 32, 1, true};
  constexpr uint32_t kCount = 1030;
  std::vector<Texel> last;
  for (uint32_t i = 0; i < kCount; ++i) {
    uint32_t base = 0x0A000000 + i * 0x1000;
    if (i + 1 == kCount) {
      last = Encode(base, 2, 0, l, 77);
      EXPECT_EQ(Check(base, 2, 0, l, last), 0u);
    } else {
      cache_->Get(Fetch(base, 2, 0, l).data(), guest_.Source());
    }
  }
  EXPECT_EQ(cache_->entry_count(), kCount);
  EXPECT_EQ(cache_->load_count(), kCount);
}

// The Xenos half has no infinity or NaN: exponent 31 is one more binade (65536..131008), which
// the texture unit reads as the render targets whose resolves make these textures write it.
// Hand-worked: 0x7C00 = 2^16, 0x7E00 = 1.5 * 2^16, 0xFFFF = -(2 - 2^-10) * 2^16 = -131008,
// 0x8001 = -2^-24 (a denormal stays one), 0x3C00 = 1.
TEST_F(TextureLoadTest, HalfExponent31IsFiniteOnEveryHalfFormat) {
  const uint32_t base = 0x06000000;
  const uint32_t words[2] = {0x7E007C00u, 0x3C008001u};  // halves x, y | z, w (endian 0)
  for (uint32_t i = 0; i < 8; ++i) guest_.WriteByte(base + i, uint8_t(words[i / 4] >> (8 * (i % 4))));
  guest_.EndWrite();
  memory_->Sync(guest_.Source());
  struct Case { uint32_t format; std::array<float, 4> want; };
  const Case cases[] = {
      {32, {65536.0f, 98304.0f, -0x1p-24f, 1.0f}},          // k_16_16_16_16_FLOAT
      {29, {65536.0f, 98304.0f, -0x1p-24f, 1.0f}},          // k_16_16_16_16_EXPAND
      {31, {65536.0f, 98304.0f, 98304.0f, 98304.0f}},       // k_16_16_FLOAT (RGGG)
      {30, {65536.0f, 65536.0f, 65536.0f, 65536.0f}},       // k_16_FLOAT (RRRR)
  };
  Layout l{1, 1, 32, 1, false};
  for (const Case& c : cases) {
    auto fetch = Fetch(base, c.format, 0, l);
    auto got = ReadBack(cache_->Get(fetch.data(), guest_.Source()));
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(std::bit_cast<uint32_t>(got[k]), std::bit_cast<uint32_t>(c.want[k]))
          << xenos::TextureFormatName(c.format) << " component " << k << ": " << got[k];
    }
  }
  // -131008 (0xFFFF) in the top half of a k_16_16_FLOAT word.
  for (uint32_t i = 0; i < 4; ++i) guest_.WriteByte(base + 0x1000 + i, uint8_t(0xFFFF3C00u >> (8 * i)));
  guest_.EndWrite();
  memory_->Sync(guest_.Source());
  auto fetch = Fetch(base + 0x1000, 31, 0, l);
  auto got = ReadBack(cache_->Get(fetch.data(), guest_.Source()));
  EXPECT_EQ(got[0], 1.0f);
  EXPECT_EQ(got[1], -131008.0f);
}

TEST_F(TextureLoadTest, UnsupportedAndAbsurdFetchConstantsThrow) {
  Layout l{16, 16, 32, 1, true};
  auto yuv = Fetch(0x05000000, 33, 0, l);  // k_32 (integer)
  EXPECT_THROW(cache_->Get(yuv.data(), guest_.Source()), Error);
  Layout wide1d{10000, 1, 10016, 1, false, 0};  // wider than the host's 2D images
  auto row = Fetch(0x05000000, 6, 0, wide1d);
  EXPECT_THROW(cache_->Get(row.data(), guest_.Source()), Error);
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
