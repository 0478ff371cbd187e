// GPU ownership transfers of the EDRAM cache (edram_transfer.h): between targets whose texels the
// shaders convert (GpuTransferSupports), the old owner's tiles are stored by a compute shader into
// a device-local copy of the EDRAM in the guest layout, and the new owner loads its pixels of them
// with a full-screen draw per host sample, so no transfer waits on a CPU round trip. Going through
// the guest layout (rather than copying between host images) keeps the result the one the CPU
// model gives: formats reinterpret, MSAA sample positions and depth's tile half swap apply exactly
// as the hardware's EDRAM does. The shaders are edram_copy_shaders.cpp.
#include "xnt/vk/fbo/edram_transfer.h"

#include <algorithm>
#include <string>

#include "edram_copy_shaders.h"
#include "edram_transfer_internal.h"
#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/vk/translator/shader_compiler.h"

namespace xnt::vk {

using transfer_internal::BeginRowRendering;
using transfer_internal::EdramD24RawSource;
using transfer_internal::EdramLoadDepthSource;
using transfer_internal::EdramLoadSource;
using transfer_internal::EdramPush;
using transfer_internal::EdramStoreDepthSource;
using transfer_internal::EdramStoreSource;
using transfer_internal::kSrgbTableBytes;
using transfer_internal::UintViewFormat;
using transfer_internal::WriteSampleSet;
using transfer_internal::WriteTexelBinding;

namespace {

bool IsSrgbGamma(const RenderTarget& rt) {
  return rt.key.guest_format == uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8_GAMMA) &&
         rt.format == VK_FORMAT_R8G8B8A8_SRGB;
}

// Exact-mode k_8_8_8_8_GAMMA: PWL codes / 255 in 32-bit floats (render_targets.cpp).
bool IsPwlCodes(const RenderTarget& rt) {
  return rt.key.guest_format == uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8_GAMMA) &&
         rt.format == VK_FORMAT_R32G32B32A32_SFLOAT;
}

bool Is7e3(uint32_t guest) {
  return guest == uint32_t(xenos::ColorRenderTargetFormat::k_2_10_10_10_FLOAT) ||
         guest == uint32_t(xenos::ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16);
}

EdramPush MakeEdramPush(const RenderTarget& rt, const gpu::edram::Surface& s, uint32_t start,
                        uint32_t end, uint32_t y0, uint32_t y1) {
  EdramPush push{};
  push.width = std::min(rt.width, s.pitch_pixels * s.scale_x);
  push.y0 = y0;
  push.rows = y1 - y0;
  push.base_tiles = s.base_tiles % xenos::kEdramTileCount;
  push.pitch_tiles = s.pitch_tiles();
  // Bits 4-5 / 6-7: the resolution scale per axis (tiles of 80S x 16T samples, edram.h).
  push.flags = (s.is_64bpp() ? 1u : 0u) | (uint32_t(s.msaa) << 1) | ((s.scale_x & 3u) << 4) |
               ((s.scale_y & 3u) << 6);
  push.start_tile = start;
  push.end_tile = end;
  push.host_samples = uint32_t(rt.samples);
  if (s.is_depth) {
    push.flags |= 8u;
    push.kind = s.format;  // DepthRenderTargetFormat
    return push;
  }
  UintViewFormat(rt.format, &push.kind);
  push.convert = rt.raw ? 0u : IsSrgbGamma(rt) ? 2u : IsPwlCodes(rt) ? 3u : 1u;
  return push;
}

}  // namespace

bool SampleTransport::GpuTransferSupports(const RenderTarget& rt) {
  if (rt.key.is_depth) return rt.depth_view && rt.stencil_view;
  if (!rt.uint_view) return false;
  uint32_t kind = 0;
  UintViewFormat(rt.format, &kind);
  if (IsPwlCodes(rt)) return true;
  if (kind == transfer_internal::k32x4) return false;  // fallback format, converted on the CPU
  return rt.raw || (Is7e3(rt.key.guest_format) && rt.format == VK_FORMAT_R16G16B16A16_SFLOAT) ||
         IsSrgbGamma(rt);
}

// The load draws (colour and depth) read the GPU EDRAM copy through binding 2 of load_set_.
void SampleTransport::BindEdramToLoadSet(VkCommandBuffer cmd) {
  WriteTexelBinding(device_, load_set_, {EdramBuffer(cmd), 0, VK_WHOLE_SIZE});
}

VkBuffer SampleTransport::EdramBuffer(VkCommandBuffer cmd) {
  if (edram_buffer_) return edram_buffer_;
  // Guest words, the host depth beside them (both S x T times 10 MiB at a resolution scale), the
  // sRGB and gamma-code tables.
  const uint64_t edram_bytes = uint64_t(xenos::kEdramSizeBytes) * scale_x_ * scale_y_;
  context_.CreateBuffer(2ull * edram_bytes + kSrgbTableBytes,
                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                            VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                        0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, edram_buffer_, edram_memory_,
                        "EDRAM buffer");
  // Zero, so words no store reached read the same on every run (the CPU model starts at zero).
  vkCmdFillBuffer(cmd, edram_buffer_, 0, VK_WHOLE_SIZE, 0);
  VkMemoryBarrier fill{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  fill.srcAccessMask = fill.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                       &fill, 0, nullptr, 0, nullptr);
  // sRGB <-> PWL per channel code, from the CPU conversion itself (so both paths agree).
  std::vector<uint32_t> tables(kSrgbTableBytes / 4);
  const uint32_t gamma = uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8_GAMMA);
  for (uint32_t c = 0; c < 256; ++c) {
    uint8_t texel[4] = {uint8_t(c), uint8_t(c), uint8_t(c), uint8_t(c)};
    tables[c] = uint32_t(HostTexelToGuest(gamma, VK_FORMAT_R8G8B8A8_SRGB, texel));
    GuestToHostTexel(gamma, VK_FORMAT_R8G8B8A8_SRGB, c * 0x01010101u, texel);
    tables[256 + c] = uint32_t(texel[0]) | (uint32_t(texel[1]) << 8) | (uint32_t(texel[2]) << 16) |
                      (uint32_t(texel[3]) << 24);
    uint8_t codes[16];
    GuestToHostTexel(gamma, VK_FORMAT_R32G32B32A32_SFLOAT, c, codes);
    tables[512 + c] = LoadLE32(codes);
  }
  vkCmdUpdateBuffer(cmd, edram_buffer_, 2ull * edram_bytes, kSrgbTableBytes,
                    tables.data());
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                       0, 1, &barrier, 0, nullptr, 0, nullptr);
  return edram_buffer_;
}

void SampleTransport::RecordStoreToEdram(VkCommandBuffer cmd, const RenderTarget& rt,
                                         const gpu::edram::Surface& s, uint32_t start, uint32_t end,
                                         uint32_t y0, uint32_t y1) {
  bool msaa = rt.samples != VK_SAMPLE_COUNT_1_BIT;
  bool depth = rt.key.is_depth;
  if (depth != s.is_depth) throw Error("EDRAM store: surface and host image disagree on depth");
  auto key = std::make_tuple(uint32_t(VK_FORMAT_UNDEFINED), msaa ? 1u : 0u, depth ? 101u : 100u);
  VkPipeline& pipeline = gpu_pipelines_[key];
  if (!pipeline) {
    VkShaderModule m = CreateShaderModule(
        device_, CompileGlsl(depth ? EdramStoreDepthSource(msaa) : EdramStoreSource(msaa),
                             GlslStage::kCompute, "edram_store"));
    gpu_modules_.push_back(m);
    pipeline = CreateComputePipeline(context_, m, layout_, false,
                                     "vkCreateComputePipelines(EDRAM store)");
  }
  WriteSampleSet(device_, store_set_, sampler_, rt, {EdramBuffer(cmd), 0, VK_WHOLE_SIZE});
  EdramPush push = MakeEdramPush(rt, s, start, end, y0, y1);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &store_set_, 0,
                          nullptr);
  vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                     sizeof(push), &push);
  uint64_t total = uint64_t(push.width) * push.rows * s.sample_count();
  if (total == 0) return;
  if ((total + 63) / 64 > 65535) {
    throw Error("EDRAM store of " + std::to_string(total) + " samples exceeds one dispatch");
  }
  vkCmdDispatch(cmd, uint32_t((total + 63) / 64), 1, 1);
}

void SampleTransport::RecordLoadFromEdram(VkCommandBuffer cmd, const RenderTarget& rt,
                                          const gpu::edram::Surface& s, uint32_t start, uint32_t end,
                                          uint32_t y0, uint32_t y1) {
  if (rt.key.is_depth) {
    RecordLoadDepthFromEdram(cmd, rt, s, start, end, y0, y1);
    return;
  }
  uint32_t kind = 0;
  VkFormat format = UintViewFormat(rt.format, &kind);
  auto key = std::make_tuple(uint32_t(format), uint32_t(rt.samples), 200u);
  VkPipeline& pipeline = gpu_pipelines_[key];
  if (!pipeline) {
    VkShaderModule fs = CreateShaderModule(
        device_, CompileGlsl(EdramLoadSource(), GlslStage::kFragment, "edram_load"));
    gpu_modules_.push_back(fs);
    pipeline = FullscreenPipeline(fs, format, rt.samples, WriteKind::kColor, "EDRAM load");
  }
  BindEdramToLoadSet(cmd);

  BeginRowRendering(cmd, rt, y0, y1);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &load_set_, 0,
                          nullptr);
  EdramPush push = MakeEdramPush(rt, s, start, end, y0, y1);
  for (uint32_t h = 0; h < push.host_samples; ++h) {
    push.host_sample = h;
    vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                       0, sizeof(push), &push);
    vkCmdDraw(cmd, 3, 1, 0, 0);
  }
  vkCmdEndRendering(cmd);
}

void SampleTransport::RecordLoadDepthFromEdram(VkCommandBuffer cmd, const RenderTarget& rt,
                                               const gpu::edram::Surface& s, uint32_t start,
                                               uint32_t end, uint32_t y0, uint32_t y1) {
  if (!s.is_depth) throw Error("EDRAM load: a depth image for a colour surface");
  auto pipeline = [&](WriteKind kind) {
    auto key = std::make_tuple(uint32_t(rt.format), uint32_t(rt.samples), 300u + uint32_t(kind));
    VkPipeline& p = gpu_pipelines_[key];
    if (!p) {
      uint32_t mode = kind == WriteKind::kDepthExport ? 0 : kind == WriteKind::kDepthOnly ? 1 : 2;
      VkShaderModule fs =
          CreateShaderModule(device_, CompileGlsl(EdramLoadDepthSource(mode),
                                                  GlslStage::kFragment, "edram_load_depth"));
      gpu_modules_.push_back(fs);
      p = FullscreenPipeline(fs, rt.format, rt.samples, kind, "transport");
    }
    return p;
  };
  BindEdramToLoadSet(cmd);

  BeginRowRendering(cmd, rt, y0, y1);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &load_set_, 0,
                          nullptr);
  EdramPush push = MakeEdramPush(rt, s, start, end, y0, y1);
  auto draw = [&](VkPipeline p) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
    vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                       0, sizeof(push), &push);
    vkCmdDraw(cmd, 3, 1, 0, 0);
  };
  vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 0xFF);
  for (uint32_t h = 0; h < push.host_samples; ++h) {
    push.host_sample = h;
    if (stencil_export()) {
      vkCmdSetStencilWriteMask(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 0xFF);
      draw(pipeline(WriteKind::kDepthExport));
      continue;
    }
    // Depth, then each stencil bit set where it is 1 and cleared where it is 0 (no clear of the
    // rows: pixels of other tiles in them keep their stencil).
    draw(pipeline(WriteKind::kDepthOnly));
    for (uint32_t bit = 0; bit < 8; ++bit) {
      vkCmdSetStencilWriteMask(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 1u << bit);
      for (uint32_t value = 0; value < 2; ++value) {
        push.bit = bit | (value << 8);
        vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, value ? 0xFF : 0x00);
        draw(pipeline(WriteKind::kStencilBit));
      }
    }
  }
  vkCmdEndRendering(cmd);
}

VkBuffer SampleTransport::ScratchBuffer(uint64_t bytes) {
  bytes = std::max<uint64_t>(bytes, 16);
  if (scratch_buffer_ && scratch_bytes_ >= bytes) return scratch_buffer_;
  if (scratch_buffer_) {
    context_.WaitIdle();
    vkDestroyBuffer(device_, scratch_buffer_, nullptr);
    vkFreeMemory(device_, scratch_memory_, nullptr);
    scratch_buffer_ = VK_NULL_HANDLE;
    scratch_memory_ = VK_NULL_HANDLE;
  }
  context_.CreateBuffer(bytes,
                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                            VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                        0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, scratch_buffer_, scratch_memory_,
                        "D24 scratch buffer");
  scratch_bytes_ = bytes;
  return scratch_buffer_;
}

void SampleTransport::RecordD24Raw(VkCommandBuffer cmd, const RenderTarget& rt,
                                   const gpu::edram::Surface& s, uint32_t start, uint32_t end,
                                   uint32_t y0, uint32_t y1, VkBuffer scratch, bool load) {
  if (rt.samples != VK_SAMPLE_COUNT_1_BIT || !s.is_depth || s.sample_count() != 1) {
    throw Error("EDRAM D24 copy path: only 1-sample D24S8 targets");
  }
  auto key = std::make_tuple(uint32_t(VK_FORMAT_UNDEFINED), 0u, load ? 401u : 400u);
  VkPipeline& pipeline = gpu_pipelines_[key];
  if (!pipeline) {
    VkShaderModule m = CreateShaderModule(
        device_, CompileGlsl(EdramD24RawSource(load), GlslStage::kCompute, "edram_d24"));
    gpu_modules_.push_back(m);
    pipeline = CreateComputePipeline(context_, m, layout_, false,
                                     "vkCreateComputePipelines(EDRAM D24)");
  }
  VkDescriptorSet set = load ? raw_set_ : store_set_;
  VkDescriptorBufferInfo buffers[2] = {{EdramBuffer(cmd), 0, VK_WHOLE_SIZE},
                                       {scratch, 0, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet writes[2]{};
  for (uint32_t i = 0; i < 2; ++i) {
    writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[i].dstSet = set;
    writes[i].dstBinding = 2 + i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &buffers[i];
  }
  vkUpdateDescriptorSets(device_, 2, writes, 0, nullptr);
  EdramPush push = MakeEdramPush(rt, s, start, end, y0, y1);
  push.host_width = rt.width;
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set, 0, nullptr);
  vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                     sizeof(push), &push);
  uint64_t texels = uint64_t(rt.width) * (y1 - y0);
  uint64_t invocations = load ? (texels + 3) / 4 : texels;
  if (invocations == 0) return;
  if ((invocations + 63) / 64 > 65535) {
    throw Error("EDRAM D24 transfer of " + std::to_string(texels) + " texels exceeds one dispatch");
  }
  vkCmdDispatch(cmd, uint32_t((invocations + 63) / 64), 1, 1);
}

}  // namespace xnt::vk
