// The fsi path's compute resolve (renderer/vulkan/fsi/src/edram_compute.h) against the CPU
// resolve engine (gpu::ResolveCopy): random EDRAM contents resolved both ways, in every source
// format (each colour format and both depth formats) to every destination format a resolve
// writes, with every sample selection at 1x/2x/4x MSAA, random exponent biases, swaps,
// endianness, 2D and 3D tiling, bases not a multiple of the pixel size, and resolution scales;
// the destination bytes must be identical,
// including those between the pixels (the engine's read-modify-write of whole bands). Random
// 32-bit patterns include NaNs, infinities and denormals in the float formats, so averaging and
// biasing them checks the shader's software IEEE arithmetic against the CPU's. A few values are
// also worked by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>

#include "edram_compute.h"
#include "test_env.h"
#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/gpu/edram.h"
#include "xnt/gpu/resolve.h"
#include "xnt/vk/command_stream.h"
#include "xnt/vk/shared_memory.h"

namespace xnt::vk {
namespace {

using xenos::ColorRenderTargetFormat;
using xenos::TextureFormat;

constexpr uint32_t kDestBase = 0x100000;
constexpr uint32_t kMemoryBytes = 16u << 20;  // guest memory the tests address: [0, 16 MiB)

// The byte range [lo, hi) written since the last reset.
struct Dirty {
  size_t lo = SIZE_MAX, hi = 0;
  void Add(size_t a, size_t b) {
    lo = std::min(lo, a);
    hi = std::max(hi, b);
  }
};

// Guest memory as a vector (reads and writes outside it throw, as the engine expects); writes
// are added to `dirty`.
gpu::GuestMemoryAccess AccessOf(std::vector<uint8_t>& bytes, Dirty& dirty) {
  gpu::GuestMemoryAccess a;
  a.read = [&bytes](uint32_t address, std::span<uint8_t> out) {
    if (uint64_t(address) + out.size() > bytes.size()) throw Error("read outside the test memory");
    std::memcpy(out.data(), bytes.data() + address, out.size());
  };
  a.write = [&bytes, &dirty](uint32_t address, std::span<const uint8_t> in) {
    if (uint64_t(address) + in.size() > bytes.size()) throw Error("write outside the test memory");
    std::memcpy(bytes.data() + address, in.data(), in.size());
    dirty.Add(address, address + in.size());
  };
  return a;
}

class FsiComputeResolve : public ::testing::Test {
 protected:
  void SetUp() override {
    context_ = test::MakeLavapipeContext();
    ASSERT_TRUE(context_);
  }

  // The EDRAM buffer (host-visible so the test can fill it) at a scale, with random bytes.
  void MakeEdram(uint32_t scale_x, uint32_t scale_y, std::mt19937& rng) {
    DestroyEdram();
    model_ = std::make_unique<gpu::edram::Edram>(scale_x, scale_y);
    for (auto& b : model_->bytes()) b = uint8_t(rng());
    VkDevice device = context_->device();
    context_->CreateBuffer(model_->bytes().size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                           VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                           0, edram_, edram_memory_, "test EDRAM buffer");
    void* data = nullptr;
    ASSERT_EQ(vkMapMemory(device, edram_memory_, 0, VK_WHOLE_SIZE, 0, &data), VK_SUCCESS);
    std::memcpy(data, model_->bytes().data(), model_->bytes().size());
    vkUnmapMemory(device, edram_memory_);
    stream_ = std::make_unique<CommandStream>(*context_, 16u << 20);
    shared_ = std::make_unique<SharedMemory>(*context_, *stream_);
    compute_ = std::make_unique<vk::fsi::EdramCompute>(*context_, *stream_, edram_,
                                                       shared_->set_layout());
  }
  void DestroyEdram() {
    compute_.reset();
    shared_.reset();
    stream_.reset();
    if (edram_) vkDestroyBuffer(context_->device(), edram_, nullptr);
    if (edram_memory_) vkFreeMemory(context_->device(), edram_memory_, nullptr);
    edram_ = VK_NULL_HANDLE;
    edram_memory_ = VK_NULL_HANDLE;
  }
  void TearDown() override {
    if (context_) {
      DestroyEdram();
      EXPECT_EQ(context_->validation_message_count(), 0u) << test::ValidationReport(*context_);
    }
  }

  // The copy on the GPU into `memory` (through the scratch buffer, as the fsi path's scaled
  // copies go); false when the planner keeps it on the CPU.
  bool GpuCopy(const gpu::ResolveInfo& info, std::vector<uint8_t>& memory, std::string& why) {
    vk::fsi::EdramCompute::CopyPlan plan;
    if (!compute_->Plan(info, plan, why)) return false;
    uint8_t* data = nullptr;
    VkDescriptorSet set = compute_->Scratch(uint64_t(plan.hi - plan.lo), &data);
    EXPECT_NE(data, nullptr);
    for (const auto& b : plan.bands) {
      std::memcpy(data + (b.lo - plan.lo), memory.data() + b.lo, size_t(b.hi - b.lo));
    }
    compute_->RecordCopy(plan, set, uint32_t(plan.lo));
    stream_->Flush();
    for (const auto& [lo, hi] : compute_->WrittenBands(plan)) {
      if (hi > lo) std::memcpy(memory.data() + lo, data + (lo - plan.lo), hi - lo);
      if (hi > lo) dirty_.Add(lo, hi);
    }
    return true;
  }

  // Resolves `info` both ways from the same random destination bytes; expects equal bytes.
  // The 16 MiB of random bytes are made once per test and, after each copy, put back where either
  // side wrote: a fresh 16 MiB per copy (generated, copied and scanned) was most of the time of
  // these tests, while a byte either side wrongly writes or keeps still differs from the other.
  void Compare(const gpu::ResolveInfo& info, const std::string& what) {
    if (background_.empty()) {
      std::mt19937 rng(0x7E57u);
      background_.resize(kMemoryBytes);
      for (size_t i = 0; i < background_.size(); i += 4) {
        StoreLE32(background_.data() + i, uint32_t(rng()));
      }
      cpu_ = gpu_ = background_;
    }
    dirty_ = {};
    gpu::ResolveCopy(info, *model_, AccessOf(cpu_, dirty_));
    std::string why;
    const bool on_gpu = GpuCopy(info, gpu_, why);
    // Only [lo, hi) can differ from the background, in either buffer.
    const size_t lo = std::min(dirty_.lo, background_.size()), hi = std::max(dirty_.hi, lo);
    size_t differ = 0, first = 0;
    if (std::memcmp(cpu_.data() + lo, gpu_.data() + lo, hi - lo) != 0) {
      for (size_t i = lo; i < hi; ++i) {
        if (cpu_[i] != gpu_[i] && differ++ == 0) first = i;
      }
    }
    const uint32_t cpu_byte = cpu_[first], gpu_byte = gpu_[first];
    std::memcpy(cpu_.data() + lo, background_.data() + lo, hi - lo);
    std::memcpy(gpu_.data() + lo, background_.data() + lo, hi - lo);
    ASSERT_TRUE(on_gpu) << what << ": kept on the CPU: " << why;
    ASSERT_EQ(differ, 0u) << what << ": first at 0x" << std::hex << first << " cpu " << cpu_byte
                          << " gpu " << gpu_byte;
    ++compared_;
  }

  std::unique_ptr<VulkanContext> context_;
  std::unique_ptr<gpu::edram::Edram> model_;
  VkBuffer edram_ = VK_NULL_HANDLE;
  VkDeviceMemory edram_memory_ = VK_NULL_HANDLE;
  std::unique_ptr<CommandStream> stream_;
  std::unique_ptr<SharedMemory> shared_;
  std::unique_ptr<vk::fsi::EdramCompute> compute_;
  std::vector<uint8_t> background_, cpu_, gpu_;
  Dirty dirty_;
  uint32_t compared_ = 0;
};

const ColorRenderTargetFormat kColorFormats[] = {
    ColorRenderTargetFormat::k_8_8_8_8,
    ColorRenderTargetFormat::k_8_8_8_8_GAMMA,
    ColorRenderTargetFormat::k_2_10_10_10,
    ColorRenderTargetFormat::k_2_10_10_10_FLOAT,
    ColorRenderTargetFormat::k_16_16,
    ColorRenderTargetFormat::k_16_16_16_16,
    ColorRenderTargetFormat::k_16_16_FLOAT,
    ColorRenderTargetFormat::k_16_16_16_16_FLOAT,
    ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10,
    ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16,
    ColorRenderTargetFormat::k_32_FLOAT,
    ColorRenderTargetFormat::k_32_32_FLOAT,
};

const TextureFormat kDestFormats[] = {
    TextureFormat::k_8, TextureFormat::k_8_A, TextureFormat::k_8_B, TextureFormat::k_1_5_5_5,
    TextureFormat::k_5_6_5, TextureFormat::k_6_5_5, TextureFormat::k_8_8,
    TextureFormat::k_4_4_4_4, TextureFormat::k_16, TextureFormat::k_16_FLOAT,
    TextureFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8_A, TextureFormat::k_8_8_8_8_AS_16_16_16_16,
    TextureFormat::k_2_10_10_10, TextureFormat::k_2_10_10_10_AS_16_16_16_16,
    TextureFormat::k_10_11_11, TextureFormat::k_10_11_11_AS_16_16_16_16, TextureFormat::k_11_11_10,
    TextureFormat::k_11_11_10_AS_16_16_16_16, TextureFormat::k_16_16, TextureFormat::k_16_16_FLOAT,
    TextureFormat::k_32_FLOAT, TextureFormat::k_16_16_16_16, TextureFormat::k_16_16_16_16_FLOAT,
    TextureFormat::k_32_32_FLOAT, TextureFormat::k_32_32_32_32_FLOAT,
};

// A random resolve of a 64 x 40 rectangle (guest pixels, 8-aligned as resolves are).
gpu::ResolveInfo RandomInfo(std::mt19937& rng, uint32_t scale_x, uint32_t scale_y) {
  gpu::ResolveInfo info;
  info.copy = true;
  info.surface_pitch = 320;
  info.msaa_samples = rng() % 3;
  info.x0 = int32_t(rng() % 8) * 8;
  info.y0 = int32_t(rng() % 12) * 8;
  info.x1 = info.x0 + 64;
  info.y1 = info.y0 + 40;
  info.color_base = rng() % 2048;
  info.depth_base = rng() % 2048;
  info.sample_select_raw = rng() % 7;
  info.dest_base = kDestBase + (rng() % 4) * 4096;
  // Now and then a base that is not a multiple of the pixel size (pixels straddle dwords and
  // 16-byte blocks; the engine patches byte by byte).
  if (rng() % 5 == 0) info.dest_base += rng() % 16;
  info.dest_pitch = 160 + (rng() % 3) * 32;
  info.dest_height = 160;
  info.dest_endian = xenos::Endian128(rng() % 6);
  info.dest_array = rng() % 4 == 0;
  info.dest_slice = rng() % 8;
  info.dest_exp_bias = int32_t(rng() % 64) - 32;
  if (rng() % 3 == 0) info.dest_exp_bias = 0;
  info.dest_swap = rng() % 2;
  info.scale_x = info.step_x = scale_x;
  info.scale_y = info.step_y = scale_y;
  return info;
}

void Sanitize(gpu::ResolveInfo& info) {
  info.sample_select = gpu::SanitizeCopySampleSelect(
      info.sample_select_raw, xenos::MsaaSamples(info.msaa_samples), info.is_depth());
}

TEST_F(FsiComputeResolve, EveryColourFormatToEveryDestinationMatchesTheEngine) {
  std::mt19937 rng(17);
  MakeEdram(1, 1, rng);
  for (ColorRenderTargetFormat source : kColorFormats) {
    for (TextureFormat dest : kDestFormats) {
      gpu::ResolveInfo info = RandomInfo(rng, 1, 1);
      info.source_select = rng() % 4;
      info.color_format = uint32_t(source);
      info.dest_format = dest;
      Sanitize(info);
      Compare(info,
              std::string(xenos::ColorRenderTargetFormatName(uint32_t(source))) + " -> " +
                  std::string(xenos::TextureFormatName(uint32_t(dest))));
    }
  }
  EXPECT_EQ(compared_, std::size(kColorFormats) * std::size(kDestFormats));
}

TEST_F(FsiComputeResolve, BitwiseCopiesAndEverySampleSelectionMatchTheEngine) {
  // The raw-bits path (no bias, one sample, an equivalent destination) and averaging.
  std::mt19937 rng(23);
  MakeEdram(1, 1, rng);
  const std::pair<ColorRenderTargetFormat, TextureFormat> equivalent[] = {
      {ColorRenderTargetFormat::k_8_8_8_8, TextureFormat::k_8_8_8_8},
      {ColorRenderTargetFormat::k_8_8_8_8_GAMMA, TextureFormat::k_8_8_8_8_A},
      {ColorRenderTargetFormat::k_2_10_10_10, TextureFormat::k_2_10_10_10},
      {ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10,
       TextureFormat::k_2_10_10_10_AS_16_16_16_16},
      {ColorRenderTargetFormat::k_16_16_FLOAT, TextureFormat::k_16_16_FLOAT},
      {ColorRenderTargetFormat::k_16_16_16_16_FLOAT, TextureFormat::k_16_16_16_16_FLOAT},
      {ColorRenderTargetFormat::k_32_FLOAT, TextureFormat::k_32_FLOAT},
      {ColorRenderTargetFormat::k_32_32_FLOAT, TextureFormat::k_32_32_FLOAT},
  };
  for (const auto& [source, dest] : equivalent) {
    for (uint32_t msaa = 0; msaa < 3; ++msaa) {
      for (uint32_t select = 0; select < 7; ++select) {
        gpu::ResolveInfo info = RandomInfo(rng, 1, 1);
        info.color_format = uint32_t(source);
        info.dest_format = dest;
        info.msaa_samples = msaa;
        info.sample_select_raw = select;
        info.dest_exp_bias = rng() % 2 ? 0 : info.dest_exp_bias;
        Sanitize(info);
        Compare(info,
                std::string(xenos::ColorRenderTargetFormatName(uint32_t(source))) + " msaa " +
                    std::to_string(msaa) + " select " + std::to_string(select));
      }
    }
  }
}

TEST_F(FsiComputeResolve, DepthSourcesMatchTheEngine) {
  std::mt19937 rng(29);
  MakeEdram(1, 1, rng);
  for (uint32_t depth_format = 0; depth_format < 2; ++depth_format) {
    for (uint32_t i = 0; i < 24; ++i) {
      gpu::ResolveInfo info = RandomInfo(rng, 1, 1);
      info.source_select = 4;
      info.depth_format = depth_format;
      Sanitize(info);
      Compare(info, "depth format " + std::to_string(depth_format));
    }
  }
}

TEST_F(FsiComputeResolve, ScaledGuestAndHostCopiesMatchTheEngine) {
  // Guest copies read each guest pixel's top-left host pixel (step = scale); host copies read
  // every host pixel of a destination S x T times larger (as ScaledResolveMemory makes them).
  for (auto [sx, sy] : {std::pair{2u, 2u}, {3u, 1u}, {1u, 3u}, {3u, 3u}}) {
    std::mt19937 rng(31 + sx * 4 + sy);
    MakeEdram(sx, sy, rng);
    for (uint32_t i = 0; i < 16; ++i) {
      gpu::ResolveInfo info = RandomInfo(rng, sx, sy);
      info.source_select = i % 5;
      info.color_format = uint32_t(kColorFormats[rng() % std::size(kColorFormats)]);
      info.dest_format = kDestFormats[rng() % std::size(kDestFormats)];
      Sanitize(info);
      Compare(info, "guest copy at " + std::to_string(sx) + "x" + std::to_string(sy));
      gpu::ResolveInfo host = info;
      host.step_x = host.step_y = 1;
      host.x0 *= int32_t(sx), host.x1 *= int32_t(sx);
      host.y0 *= int32_t(sy), host.y1 *= int32_t(sy);
      host.dest_pitch *= sx;
      host.dest_height *= sy;
      host.dest_base = 0;  // as ScaledResolveMemory addresses a copy's bytes
      Compare(host, "host copy at " + std::to_string(sx) + "x" + std::to_string(sy));
    }
  }
}

TEST_F(FsiComputeResolve, HandWorkedPixels) {
  // One 8x8 block at the origin, 1x k_8_8_8_8 with sample bits 0x80FF4000 (A=0x80, B=0xFF,
  // G=0x40, R=0x00), resolved to k_5_6_5 with the red/blue swap and exponent bias +1:
  // R' = B * 2 = 2.0 -> saturates to 31; G = 64/255 * 2 = 0.50196 -> 0.50196 * 63 + 0.5 = 32.12
  // -> 32; B' = R * 2 = 0 -> 0. 5:6:5 = 31 | 32 << 5 = 0x041F, little-endian 1F 04.
  std::mt19937 rng(1);
  MakeEdram(1, 1, rng);
  gpu::ResolveInfo info = RandomInfo(rng, 1, 1);
  info.msaa_samples = 0;
  info.sample_select_raw = 0;
  info.x0 = info.y0 = 0;
  info.x1 = info.y1 = 8;
  info.color_base = 0;
  info.color_format = uint32_t(ColorRenderTargetFormat::k_8_8_8_8);
  info.dest_format = TextureFormat::k_5_6_5;
  info.dest_swap = true;
  info.dest_exp_bias = 1;
  info.dest_endian = xenos::Endian128::kNone;
  info.dest_array = false;
  info.dest_base = kDestBase;
  Sanitize(info);
  gpu::edram::Surface s = info.SourceSurface();
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 8; ++x) model_->Store(s, x, y, 0, 0x80FF4000u);
  }
  void* data = nullptr;
  ASSERT_EQ(vkMapMemory(context_->device(), edram_memory_, 0, VK_WHOLE_SIZE, 0, &data), VK_SUCCESS);
  std::memcpy(data, model_->bytes().data(), model_->bytes().size());
  vkUnmapMemory(context_->device(), edram_memory_);
  std::vector<uint8_t> memory(kMemoryBytes, 0xEE);
  std::string why;
  ASSERT_TRUE(GpuCopy(info, memory, why)) << why;
  // Pixel (0, 0) at the base, (1, 0) two bytes on (tiled: x & 7 are consecutive texels), (0, 1)
  // 16 bytes on (y & 1 selects the second 16 bytes), rows 2-3 at 32..63, rows 4-5 at 256 (the
  // 2D tiling's pipe and bank bits, texture_address.cpp), so bytes 64..255 belong to other
  // texels and keep their value.
  EXPECT_EQ(memory[kDestBase], 0x1F);
  EXPECT_EQ(memory[kDestBase + 1], 0x04);
  EXPECT_EQ(memory[kDestBase + 2], 0x1F);
  EXPECT_EQ(memory[kDestBase + 3], 0x04);
  EXPECT_EQ(memory[kDestBase + 16], 0x1F);
  EXPECT_EQ(memory[kDestBase + 32], 0x1F);
  EXPECT_EQ(memory[kDestBase + 256], 0x1F);
  EXPECT_EQ(memory[kDestBase + 64], 0xEE);
  EXPECT_EQ(memory[kDestBase + 255], 0xEE);
  // Endian 8in16 swaps each pair: 04 1F.
  info.dest_endian = xenos::Endian128::k8in16;
  ASSERT_TRUE(GpuCopy(info, memory, why)) << why;
  EXPECT_EQ(memory[kDestBase], 0x04);
  EXPECT_EQ(memory[kDestBase + 1], 0x1F);
}

}  // namespace
}  // namespace xnt::vk
