// Per-sample transport of MSAA host render targets: copy commands cannot read or write
// multisampled images, so the EDRAM cache moves their raw host texel bits through a buffer with
// shaders instead.
//
// - Read: a compute dispatch texelFetch-es every sample of rows [y0, y1) through a UINT view of
//   the colour image (bit-exact whatever the host format: R8G8B8A8_UINT for R8G8B8A8_UNORM/SRGB,
//   A2B10G10R10_UINT, R16G16(B16A16)_UINT for SNORM/SFLOAT, R32..._UINT) or through the depth and
//   stencil aspect views, and stores the texels in buffer order
//   ((y - y0) * width + x) * samples + sample (colour: texel_bytes each; depth: a float dword per
//   sample, then a stencil dword per sample).
// - Write: a full-rectangle draw per host sample (gl_SampleMask selects the sample) reads the
//   same layout back: colour through the UINT view as the attachment (bit-exact), depth through
//   gl_FragDepth (32-bit float host depth, exact), stencil with VK_EXT_shader_stencil_export where
//   the device has it, otherwise eight bit-plane passes (stencil write mask 1 << bit, reference
//   0xFF, replace; fragments whose bit is 0 are discarded), as Xenia does on devices without
//   stencil export (vulkan_render_target_cache.cc, "stencil bit" transfer shaders).
// Both record into the caller's command buffer; the caller flushes (the descriptor sets are
// reused, so one read and one write at most per submission).
//
// GPU transfers: the EDRAM cache's ownership transfers between targets whose texels the shaders
// can convert (GpuTransferSupports) run without a CPU round trip: a compute shader stores the
// source's tiles into a device-local copy of the EDRAM in the guest layout (the edram.h
// addressing, depth's half swap, every guest sample at its position), then a full-rectangle draw
// per host sample loads the destination's pixels of those tiles from it. Colour: through the
// UINT view (bit-exact; 7e3 <-> its half-float stand-in with edram.h's rules; sRGB gamma mode
// through per-channel tables of the CPU conversion). Depth: the depth/stencil aspect views ->
// (d24 << 8) | stencil words (unorm24 / 20e4 with edram.h's rounding) plus the float host depth
// beside each word (Xenia's host-depth buffer); loads write gl_FragDepth (the host depth while it
// still converts to the word's 24 bits) and stencil by export or bit planes; a
// 1-sample D24_UNORM_S8_UINT image moves through copies of its rows (RecordD24Raw). Only the
// fallback host formats still go through the CPU model.
//
// One class, as both jobs share the descriptor sets, pipeline layout and full-screen vertex
// shader; its definitions are split by job: sample_transport.cpp (the per-sample transport and the
// shared resources), edram_gpu_copy.cpp (GPU transfers) with edram_copy_shaders.cpp (their GLSL).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "xnt/gpu/edram.h"
#include "xnt/vk/fbo/render_targets.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

// The UINT format of the view through which MSAA colour texels move (R8G8B8A8_UINT for
// R8G8B8A8_UNORM/SRGB, ...); throws xnt::Error for a format without one.
VkFormat SampleTransportUintFormat(VkFormat format);

class SampleTransport {
 public:
  explicit SampleTransport(VulkanContext& context);
  ~SampleTransport();
  SampleTransport(const SampleTransport&) = delete;
  SampleTransport& operator=(const SampleTransport&) = delete;

  // Bytes the layout above takes for `rows` rows of `rt`.
  static uint64_t Bytes(const RenderTarget& rt, uint32_t rows);
  void RecordRead(VkCommandBuffer cmd, const RenderTarget& rt, uint32_t y0, uint32_t y1,
                  VkBuffer buffer, uint64_t offset);
  void RecordWrite(VkCommandBuffer cmd, const RenderTarget& rt, uint32_t y0, uint32_t y1,
                   VkBuffer buffer, uint64_t offset);
  // ---- GPU transfers (colour) ----
  // Whether `rt`'s texels convert to guest bits in the shaders below: colour targets whose host
  // format holds the guest bits, and 7e3 in its RGBA16F stand-in.
  static bool GpuTransferSupports(const RenderTarget& rt);
  // Compute: the texels of `rt` in tiles [start, end) (rows [y0, y1)) of surface `s` -> guest bits
  // at their EDRAM positions in a 10 MiB device-local copy of the EDRAM, every guest sample.
  void RecordStoreToEdram(VkCommandBuffer cmd, const RenderTarget& rt, const gpu::edram::Surface& s,
                          uint32_t start, uint32_t end, uint32_t y0, uint32_t y1);
  // A draw per host sample: those tiles of `rt` (surface `s`) from the EDRAM copy; pixels of
  // other tiles are discarded. Records its own rendering (the caller has none open).
  void RecordLoadFromEdram(VkCommandBuffer cmd, const RenderTarget& rt, const gpu::edram::Surface& s,
                           uint32_t start, uint32_t end, uint32_t y0, uint32_t y1);
  // Created (and zeroed with `cmd`) on first use: 20 MiB (x S x T at a resolution scale), the
  // guest words, then the host depth (float bits) of each depth word 10 MiB (x S x T) after it
  // (Xenia's host-depth buffer).
  VkBuffer EdramBuffer(VkCommandBuffer cmd);
  void BindEdramToLoadSet(VkCommandBuffer cmd);
  // A 1-sample D24_UNORM_S8_UINT host image moves through copies of its rows in `scratch`
  // (ScratchBuffer; the depth aspect's X8_D24 dwords, then the stencil bytes, as the copy
  // commands lay them out). load false: the copied rows' texels of tiles [start, end) -> EDRAM
  // words and host depth; load true: the EDRAM words of those tiles -> the copied rows, to be
  // copied back by the caller.
  void RecordD24Raw(VkCommandBuffer cmd, const RenderTarget& rt, const gpu::edram::Surface& s,
                    uint32_t start, uint32_t end, uint32_t y0, uint32_t y1, VkBuffer scratch,
                    bool load);
  // Device bytes of the GPU EDRAM copy (0 until the first GPU transfer).
  uint64_t edram_buffer_bytes() const {
    return edram_buffer_ ? 2ull * xenos::kEdramSizeBytes * scale_x_ * scale_y_ : 0;
  }
  // A device-local storage/transfer buffer of at least `bytes` (grown after a device wait).
  VkBuffer ScratchBuffer(uint64_t bytes);

  // Resolution scale of the EDRAM copy (set before the first transfer): S x T times 10 MiB of
  // words and host depth, tiles of 80S x 16T samples.
  void set_scale(uint32_t scale_x, uint32_t scale_y) { scale_x_ = scale_x, scale_y_ = scale_y; }

  // Tests: use the bit-plane stencil passes even where stencil export exists.
  void set_force_stencil_bit_planes(bool force) { force_bit_planes_ = force; }
  bool stencil_export() const { return stencil_export_ && !force_bit_planes_; }

 private:
  enum class WriteKind : uint32_t { kColor, kDepthExport, kDepthOnly, kStencilBit };
  VkPipeline ReadPipeline(bool depth);
  VkPipeline WritePipeline(VkFormat format, VkSampleCountFlagBits samples, WriteKind kind);
  // The full-screen draw pipeline (fullscreen_pipeline.h) with fragment shader `fs` for `kind`'s
  // attachment and state; `what` names it in a creation error.
  VkPipeline FullscreenPipeline(VkShaderModule fs, VkFormat format, VkSampleCountFlagBits samples,
                                WriteKind kind, const char* what);
  VkShaderModule FullscreenVertex();  // compiled on first use
  void RecordLoadDepthFromEdram(VkCommandBuffer cmd, const RenderTarget& rt,
                                const gpu::edram::Surface& s, uint32_t start, uint32_t end, uint32_t y0,
                                uint32_t y1);

  VulkanContext& context_;
  VkDevice device_;
  bool stencil_export_ = false;
  bool force_bit_planes_ = false;
  uint32_t scale_x_ = 1, scale_y_ = 1;
  VkSampler sampler_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet read_set_ = VK_NULL_HANDLE, write_set_ = VK_NULL_HANDLE;
  VkDescriptorSet store_set_ = VK_NULL_HANDLE, load_set_ = VK_NULL_HANDLE;
  VkDescriptorSet raw_set_ = VK_NULL_HANDLE;
  VkBuffer scratch_buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory scratch_memory_ = VK_NULL_HANDLE;
  uint64_t scratch_bytes_ = 0;
  VkBuffer edram_buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory edram_memory_ = VK_NULL_HANDLE;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, VkPipeline> gpu_pipelines_;
  std::vector<VkShaderModule> gpu_modules_;
  VkShaderModule read_color_ = VK_NULL_HANDLE, read_depth_ = VK_NULL_HANDLE;
  VkShaderModule vertex_ = VK_NULL_HANDLE;
  std::map<WriteKind, VkShaderModule> write_modules_;
  VkPipeline read_pipelines_[2] = {};
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, VkPipeline> write_pipelines_;
};

// Compiles every variant of the transfer shaders (sample transport, EDRAM store / load / D24)
// through the calls the transfers make: the build-time baker collects them as built-in SPIR-V
// (spirv_cache.h SetBuiltinSpirv). A variant added to the transfers belongs here too.
void CompileEveryEdramTransferShader();

}  // namespace xnt::vk
