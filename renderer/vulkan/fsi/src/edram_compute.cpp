// fsi path: resolves and clears in compute (edram_compute.h).
#include "edram_compute.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "xnt/base/error.h"
#include "xnt/gpu/edram.h"
#include "xnt/vk/kept_objects.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk::fsi {

namespace {

// glslc -mfmt=c output: a braced list of each module's words (renderer/vulkan/fsi/CMakeLists.txt).
const uint32_t kEdramResolve[] =
#include "edram_resolve.spv.inc"
    ;
const uint32_t kEdramClear[] =
#include "edram_clear.spv.inc"
    ;

using xenos::ColorRenderTargetFormat;
using xenos::TextureFormat;

constexpr uint32_t kMaxBands = 4096;
constexpr uint64_t kRangeBytes = 128ull << 20;  // one shared-memory descriptor range

// edram_resolve.comp unpack_color kinds.
int UnpackKind(ColorRenderTargetFormat f) {
  switch (f) {
    case ColorRenderTargetFormat::k_8_8_8_8:
    case ColorRenderTargetFormat::k_8_8_8_8_GAMMA: return 0;
    case ColorRenderTargetFormat::k_2_10_10_10:
    case ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10: return 1;
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT:
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16: return 2;
    case ColorRenderTargetFormat::k_16_16: return 3;
    case ColorRenderTargetFormat::k_16_16_16_16: return 4;
    case ColorRenderTargetFormat::k_16_16_FLOAT: return 5;
    case ColorRenderTargetFormat::k_16_16_16_16_FLOAT: return 6;
    case ColorRenderTargetFormat::k_32_FLOAT: return 7;
    case ColorRenderTargetFormat::k_32_32_FLOAT: return 8;
  }
  return -1;
}

// edram_resolve.comp pack_dest kinds (resolve.cpp PackResolveDest's cases).
int PackKind(TextureFormat f) {
  switch (f) {
    case TextureFormat::k_8:
    case TextureFormat::k_8_A:
    case TextureFormat::k_8_B: return 0;
    case TextureFormat::k_1_5_5_5: return 1;
    case TextureFormat::k_5_6_5: return 2;
    case TextureFormat::k_6_5_5: return 3;
    case TextureFormat::k_8_8: return 4;
    case TextureFormat::k_4_4_4_4: return 5;
    case TextureFormat::k_16: return 6;
    case TextureFormat::k_16_FLOAT: return 7;
    case TextureFormat::k_8_8_8_8:
    case TextureFormat::k_8_8_8_8_A:
    case TextureFormat::k_8_8_8_8_AS_16_16_16_16: return 8;
    case TextureFormat::k_2_10_10_10:
    case TextureFormat::k_2_10_10_10_AS_16_16_16_16: return 9;
    case TextureFormat::k_10_11_11:
    case TextureFormat::k_10_11_11_AS_16_16_16_16: return 10;
    case TextureFormat::k_11_11_10:
    case TextureFormat::k_11_11_10_AS_16_16_16_16: return 11;
    case TextureFormat::k_16_16: return 12;
    case TextureFormat::k_16_16_FLOAT: return 13;
    case TextureFormat::k_32_FLOAT: return 14;
    case TextureFormat::k_16_16_16_16: return 15;
    case TextureFormat::k_16_16_16_16_FLOAT: return 16;
    case TextureFormat::k_32_32_FLOAT: return 17;
    case TextureFormat::k_32_32_32_32_FLOAT: return 18;
    default: return -1;
  }
}

// resolve.cpp SwapRedBlueBits as edram_resolve.comp's raw swap kinds.
uint32_t RawSwapKind(ColorRenderTargetFormat f) {
  switch (f) {
    case ColorRenderTargetFormat::k_8_8_8_8:
    case ColorRenderTargetFormat::k_8_8_8_8_GAMMA: return 1;
    case ColorRenderTargetFormat::k_2_10_10_10:
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT:
    case ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10:
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16: return 2;
    case ColorRenderTargetFormat::k_16_16_16_16:
    case ColorRenderTargetFormat::k_16_16_16_16_FLOAT: return 3;
    default: return 0;
  }
}

bool EndianXor(xenos::Endian128 e, uint32_t& x) {
  switch (e) {
    case xenos::Endian128::kNone: x = 0; return true;
    case xenos::Endian128::k8in16: x = 1; return true;
    case xenos::Endian128::k8in32: x = 3; return true;
    case xenos::Endian128::k16in32: x = 2; return true;
    case xenos::Endian128::k8in64: x = 7; return true;
    case xenos::Endian128::k8in128: x = 15; return true;
  }
  return false;
}

void CreateHostBuffer(VulkanContext& context, uint64_t size, VkBuffer& buffer,
                      VkDeviceMemory& memory, void** data, const char* what) {
  VkDevice device = context.device();
  context.CreateBuffer(size,
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                           VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                       VK_MEMORY_PROPERTY_HOST_CACHED_BIT, buffer, memory, what);
  CheckVk(vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, data), what);
}

}  // namespace

EdramCompute::EdramCompute(VulkanContext& context, CommandStream& stream, VkBuffer edram,
                           VkDescriptorSetLayout dest_layout)
    : context_(context),
      stream_(stream),
      device_(context.device()),
      edram_(edram),
      dest_layout_(dest_layout) {
  const VkDescriptorSetLayoutBinding bindings[2] = {
      LayoutBinding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_COMPUTE_BIT),
      LayoutBinding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_COMPUTE_BIT)};
  // Layouts and pipelines kept with the device for its later sessions (kept_objects.h).
  edram_layout_ =
      context_.kept().SetLayout(bindings, "vkCreateDescriptorSetLayout(fsi EDRAM compute)");
  const VkDescriptorSetLayout sets[2] = {dest_layout_, edram_layout_};
  const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(CopyPlan::push)};
  layout_ = context_.kept().PipelineLayout(sets, {&push, 1},
                                           "vkCreatePipelineLayout(fsi EDRAM compute)");

  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 + 4};
  pool_ = CreateDescriptorPool(device_, 2, &size, 1, "vkCreateDescriptorPool(fsi EDRAM compute)");
  VkDescriptorSetLayout alloc_layouts[2] = {edram_layout_, dest_layout_};
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = pool_;
  alloc.descriptorSetCount = 2;
  alloc.pSetLayouts = alloc_layouts;
  VkDescriptorSet allocated[2];
  CheckVk(vkAllocateDescriptorSets(device_, &alloc, allocated),
          "vkAllocateDescriptorSets(fsi EDRAM compute)");
  edram_set_ = allocated[0];
  scratch_set_ = allocated[1];

  void* mapped = nullptr;
  CreateHostBuffer(context_, kMaxBands * 8, bands_, bands_memory_, &mapped, "fsi resolve bands");
  bands_data_ = static_cast<uint32_t*>(mapped);
  VkDescriptorBufferInfo buffers[2] = {{edram_, 0, VK_WHOLE_SIZE}, {bands_, 0, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet writes[2];
  for (uint32_t i = 0; i < 2; ++i) {
    writes[i] = BufferWrite(edram_set_, i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &buffers[i]);
  }
  vkUpdateDescriptorSets(device_, 2, writes, 0, nullptr);
}

EdramCompute::~EdramCompute() {
  if (pool_) vkDestroyDescriptorPool(device_, pool_, nullptr);
  for (auto [buffer, memory] : {std::pair{bands_, bands_memory_}, {scratch_, scratch_memory_}}) {
    if (buffer) vkDestroyBuffer(device_, buffer, nullptr);
    if (memory) vkFreeMemory(device_, memory, nullptr);
  }
}

void EdramCompute::CreatePipelines() {
  if (resolve_) return;
  auto create = [&](const uint32_t* words, size_t count, const char* what) {
    const VkShaderModule module = context_.kept().Module({words, count});
    std::string key = "fsi EDRAM compute";
    AppendKeyBytes(key, layout_, module);
    return context_.kept().Pipeline(
        key, [&] { return CreateComputePipeline(context_, module, layout_, false, what); });
  };
  resolve_ = create(kEdramResolve, std::size(kEdramResolve), "fsi edram_resolve pipeline");
  clear_ = create(kEdramClear, std::size(kEdramClear), "fsi edram_clear pipeline");
}

bool EdramCompute::Plan(const gpu::ResolveInfo& info, CopyPlan& plan, std::string& why) const {
  plan = CopyPlan{};
  plan.info = info;
  if (!info.copy || info.empty() || !info.unsupported.empty()) {
    why = "nothing to copy";
    return false;
  }
  if (info.dest_linear) {
    why = "linear destination";
    return false;
  }
  if (info.x0 < 0 || info.y0 < 0) {
    why = "a rectangle left of or above the origin";
    return false;
  }
  const TextureFormat dest_format = info.dest_format_effective();
  const uint32_t bpp = gpu::ResolveDestBytesPerPixel(dest_format);
  const bool bitwise = gpu::ResolveIsBitwiseCopy(info);
  const auto rt_format = ColorRenderTargetFormat(info.color_format);
  const int unpack = info.is_depth() ? 0 : UnpackKind(rt_format);
  const int pack = bitwise ? 0 : PackKind(dest_format);
  uint32_t endian_xor = 0;
  if (bpp == 0 || unpack < 0 || pack < 0 || !EndianXor(info.dest_endian, endian_xor)) {
    why = "a format or endianness the engine refuses";
    return false;
  }
  if (bpp == 1) endian_xor = 0;
  const uint32_t width = uint32_t(info.x1 - info.x0), height = uint32_t(info.y1 - info.y0);
  const uint64_t edram_samples = uint64_t(xenos::kEdramTileCount) *
                                 xenos::kEdramTileWidthSamples * xenos::kEdramTileHeightSamples *
                                 info.scale_x * info.scale_y;
  if (uint64_t(width) * height > edram_samples) {
    why = "a rectangle larger than the EDRAM";
    return false;
  }
  const uint32_t bpp_log2 = uint32_t(std::countr_zero(bpp));
  // Two pixels on one byte: x beyond the pitch (both layouts), y beyond the height (3D).
  const uint32_t pitch32 = (info.dest_pitch + 31u) & ~31u;
  const uint32_t height32 = (info.dest_height + 31u) & ~31u;
  if (uint32_t(info.x1) > pitch32 || (info.dest_array && uint32_t(info.y1) > height32)) {
    why = "a destination pitch or height smaller than the rectangle";
    return false;
  }
  const uint32_t first_band = uint32_t(info.y0) >> 5, last_band = uint32_t(info.y1 - 1) >> 5;
  if (last_band - first_band + 1 > kMaxBands) {
    why = "more than 4096 bands of 32 rows";
    return false;
  }
  // Each band's bytes, a superset: for the 2D layout, from the byte offsets of the macro tiles
  // (32x32 texels) the band's columns cover, whose low 12 address bits are free (texture_address
  // .cpp TiledOffset2D); for the 3D layout, from every texel's offset.
  plan.lo = INT64_MAX;
  plan.hi = INT64_MIN;
  for (uint32_t b = first_band; b <= last_band; ++b) {
    Band band;
    if (!info.dest_array) {
      const uint64_t pitch_tiles = pitch32 >> 5;
      const uint64_t macro_lo = b * pitch_tiles + (uint32_t(info.x0) >> 5);
      const uint64_t macro_hi = b * pitch_tiles + (uint32_t(info.x1 - 1) >> 5);
      const uint64_t oi_lo = macro_lo << (6 + bpp_log2);
      const uint64_t oi_hi = ((macro_hi + 1) << (6 + bpp_log2)) - 1;
      if (oi_hi >= (1ull << 31)) {
        why = "a destination beyond the tiled layout's 32-bit offsets";
        return false;
      }
      band.lo = int64_t((oi_lo >> 8) << 12);
      band.hi = int64_t(((oi_hi >> 8) << 12) + 4096);
    } else {
      band.lo = INT64_MAX;
      band.hi = INT64_MIN;
      const int32_t y_end = std::min<int32_t>(info.y1, int32_t(b + 1) * 32);
      for (int32_t y = std::max<int32_t>(info.y0, int32_t(b) * 32); y < y_end; ++y) {
        for (int32_t x = info.x0; x < info.x1; ++x) {
          const int64_t o = gpu::TiledOffset3D(x, y, int32_t(info.dest_slice), info.dest_pitch,
                                               info.dest_height, bpp_log2);
          band.lo = std::min(band.lo, o & ~int64_t(15));
          band.hi = std::max(band.hi, (o | 15) + 1);
        }
      }
    }
    // In whole 16-byte blocks after the base; a base that is not a multiple of the pixel size
    // lets a pixel's bytes run into the next block.
    band.lo = (band.lo + info.dest_base) & ~int64_t(15);
    band.hi = ((band.hi + info.dest_base + 15) & ~int64_t(15)) + (info.dest_base % bpp ? 16 : 0);
    // The engine throws for a band outside the 512 MiB or spanning more than 64 MiB.
    if (band.lo < 0 || band.hi > int64_t(xenos::kPhysicalMemorySize) ||
        band.hi - band.lo > int64_t(64u << 20)) {
      why = "a destination band outside guest memory or wider than 64 MiB";
      return false;
    }
    plan.lo = std::min(plan.lo, band.lo);
    plan.hi = std::max(plan.hi, band.hi);
    plan.bands.push_back(band);
  }
  plan.bytes_per_pixel = bpp;

  const gpu::edram::Surface surface = info.SourceSurface();
  // The engine's sample view: 1x over the same tiles, pitch in samples (resolve.cpp
  // SampleReader).
  gpu::edram::Surface view = surface;
  view.msaa = xenos::MsaaSamples::k1X;
  const uint32_t tiles = surface.pitch_tiles();
  view.pitch_pixels = (surface.is_64bpp() ? tiles / 2 : tiles) * xenos::kEdramTileWidthSamples;
  // The engine's SampleReader throws for a sample column beyond the view's pitch.
  if ((uint64_t(info.x1 - 1) * info.step_x + 1) * surface.samples_x() >
      uint64_t(view.pitch_pixels) * info.scale_x) {
    why = "a rectangle beyond the surface pitch";
    return false;
  }
  const bool single = uint32_t(info.sample_select) <= uint32_t(xenos::CopySampleSelect::k3);
  const uint32_t first = single ? uint32_t(info.sample_select)
                         : info.sample_select == xenos::CopySampleSelect::k23 ? 2u : 0u;
  const uint32_t summed = single ? 1u : info.sample_select == xenos::CopySampleSelect::k0123 ? 4u : 2u;
  int32_t exp_shift = info.dest_exp_bias - (summed == 4 ? 2 : summed == 2 ? 1 : 0);
  uint32_t channel = 0;  // the channel an 8bpp destination takes with the swap
  if (info.dest_swap && bpp == 1) {
    switch (rt_format) {
      case ColorRenderTargetFormat::k_16_16:
      case ColorRenderTargetFormat::k_16_16_FLOAT:
      case ColorRenderTargetFormat::k_32_FLOAT: channel = 0; break;
      case ColorRenderTargetFormat::k_32_32_FLOAT: channel = 1; break;
      default: channel = 2; break;
    }
  }
  uint32_t* push = plan.push;
  push[0] = uint32_t(info.x0);
  push[1] = uint32_t(info.y0);
  push[2] = width;
  push[3] = height;
  push[4] = surface.base_tiles;
  push[5] = view.pitch_tiles();
  push[6] = uint32_t(unpack) | (surface.is_depth ? 16u : 0u) | (surface.is_64bpp() ? 32u : 0u) |
            ((surface.samples_x() - 1) << 8) | ((surface.samples_y() - 1) << 10);
  push[7] = info.scale_x | (info.scale_y << 8) | (info.step_x << 16) | (info.step_y << 24);
  push[8] = first | (summed << 4);
  push[9] = uint32_t(exp_shift);
  push[10] = uint32_t(pack);
  push[11] = bpp_log2 | (endian_xor << 4) | (info.dest_array ? 0x100u : 0u) |
             ((!info.is_depth() && info.dest_swap ? RawSwapKind(rt_format) : 0u) << 9) |
             (bitwise ? 0x800u : 0u) | (info.dest_swap ? 0x1000u : 0u) | (channel << 13) |
             (info.dest_slice << 16);
  push[12] = info.dest_pitch;
  push[13] = info.dest_height;
  push[14] = info.dest_base;
  push[15] = 0;  // dest_sub, set when recorded
  return true;
}

void EdramCompute::BarrierComputeWrites(VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = dst_access;
  vkCmdPipelineBarrier(stream_.cmd(), VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, dst_stage, 0, 1,
                       &barrier, 0, nullptr, 0, nullptr);
}

void EdramCompute::RecordCopy(const CopyPlan& plan, VkDescriptorSet dest, uint32_t dest_sub) {
  CreatePipelines();
  for (size_t i = 0; i < plan.bands.size(); ++i) {
    bands_data_[2 * i] = UINT32_MAX;
    bands_data_[2 * i + 1] = 0;
  }
  uint32_t push[16];
  std::memcpy(push, plan.push, sizeof(push));
  push[15] = dest_sub;
  VkCommandBuffer cmd = stream_.cmd();
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, resolve_);
  VkDescriptorSet sets[2] = {dest, edram_set_};
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 2, sets, 0, nullptr);
  vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
  vkCmdDispatch(cmd, (push[2] + 7) / 8, (push[3] + 7) / 8, 1);
  // Every later user of the mirror, not only today's (each caller flushes and waits right after,
  // which drivers honour but the memory model does not promise): transfers out of it and uploads
  // into it, the host, later copies, and the next draws' vertex fetches, texture reads and exports.
  BarrierComputeWrites(VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT |
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT |
                           VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                       VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                           VK_ACCESS_HOST_READ_BIT | VK_ACCESS_SHADER_READ_BIT |
                           VK_ACCESS_SHADER_WRITE_BIT);
}

std::vector<std::pair<uint32_t, uint32_t>> EdramCompute::WrittenBands(const CopyPlan& plan) const {
  std::vector<std::pair<uint32_t, uint32_t>> bands(plan.bands.size());
  for (size_t i = 0; i < bands.size(); ++i) bands[i] = {bands_data_[2 * i], bands_data_[2 * i + 1]};
  return bands;
}

VkDescriptorSet EdramCompute::Scratch(uint64_t bytes, uint8_t** data) {
  *data = nullptr;
  if (bytes > kRangeBytes) return VK_NULL_HANDLE;
  bytes = std::max<uint64_t>((bytes + 0xFFFFu) & ~uint64_t(0xFFFFu), 1u << 20);
  if (bytes > scratch_bytes_) {
    // Only replaced between copies, each of which waited for its submission.
    if (scratch_) vkDestroyBuffer(device_, scratch_, nullptr);
    if (scratch_memory_) vkFreeMemory(device_, scratch_memory_, nullptr);
    scratch_ = VK_NULL_HANDLE;
    scratch_memory_ = VK_NULL_HANDLE;
    void* mapped = nullptr;
    CreateHostBuffer(context_, bytes, scratch_, scratch_memory_, &mapped, "fsi resolve scratch");
    scratch_data_ = static_cast<uint8_t*>(mapped);
    scratch_bytes_ = bytes;
    VkDescriptorBufferInfo ranges[4];
    for (auto& r : ranges) r = {scratch_, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = scratch_set_;
    write.dstBinding = 0;
    write.descriptorCount = 4;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = ranges;
    vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
  }
  *data = scratch_data_;
  return scratch_set_;
}

bool EdramCompute::RecordClears(const gpu::ResolveInfo& info, gpu::RegisterValues regs,
                                uint32_t scale_x, uint32_t scale_y) {
  bool any = false;
  auto clear = [&](const gpu::edram::Surface& s, uint64_t bits) {
    const uint32_t x0 = uint32_t(info.x0) * s.scale_x;
    const uint32_t x1 = std::min<uint32_t>(uint32_t(info.x1), info.surface_pitch) * s.scale_x;
    const uint32_t y0 = uint32_t(info.y0) * s.scale_y, y1 = uint32_t(info.y1) * s.scale_y;
    if (x1 <= x0 || y1 <= y0) return;
    CreatePipelines();
    const DebugLabelRegion label(context_.labels(), stream_, [&] {
      return std::string(s.is_depth ? "depth" : "colour") + " clear (compute on the EDRAM buffer)";
    });
    VkCommandBuffer cmd = stream_.cmd();
    if (any) {
      // Colour then depth, as the model writes them (they may share tiles).
      BarrierComputeWrites(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                           VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    }
    uint32_t push[10] = {x0, y0, x1 - x0, y1 - y0, s.base_tiles, s.pitch_tiles(),
                         (s.is_depth ? 1u : 0u) | (s.is_64bpp() ? 2u : 0u) | (uint32_t(s.msaa) << 2),
                         s.scale_x | (s.scale_y << 8), uint32_t(bits), uint32_t(bits >> 32)};
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, clear_);
    // The clear shader reads set 1 (the EDRAM) only.
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 1, 1, &edram_set_, 0,
                            nullptr);
    const uint32_t groups_x = uint32_t((uint64_t(x1 - x0) * s.samples_x() + 63) / 64);
    // Dispatches of at most 32767 pixel rows (the device guarantees 65535 groups in y).
    for (uint32_t y = y0; y < y1; y += 32767) {
      push[1] = y;
      push[3] = std::min(y1 - y, 32767u);
      vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
      vkCmdDispatch(cmd, groups_x, push[3] * s.samples_y(), 1);
    }
    any = true;
  };
  gpu::ForEachResolveClear(info, regs, scale_x, scale_y, clear);
  if (any) {
    BarrierComputeWrites(VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                             VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                             VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  }
  return any;
}

}  // namespace xnt::vk::fsi
