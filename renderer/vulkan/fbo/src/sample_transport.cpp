// The MSAA sample transport (edram_transfer.h): copy commands cannot read or write multisampled
// images, so the EDRAM cache's CPU-model transfers move an MSAA target's raw host texel bits
// through a buffer: a compute read of every sample, and a full-rectangle draw per host sample to
// write them back. Also the resources both halves of SampleTransport share (sampler, descriptor
// sets, pipeline layout, the full-screen vertex shader); the GPU EDRAM copy is edram_gpu_copy.cpp.
#include "xnt/vk/fbo/edram_transfer.h"

#include <algorithm>
#include <string>

#include "edram_copy_shaders.h"
#include "edram_transfer_internal.h"
#include "xnt/base/error.h"
#include "xnt/vk/fullscreen_pipeline.h"
#include "xnt/vk/translator/shader_compiler.h"

namespace xnt::vk {

using transfer_internal::BeginRowRendering;
using transfer_internal::kPushBytes;
using transfer_internal::UintViewFormat;
using transfer_internal::WriteSampleSet;
using transfer_internal::WriteTexelBinding;

namespace {

// Push constants of the transport shaders.
struct Push {
  uint32_t width;    // texels per row (the host image width)
  uint32_t y0;       // first row
  uint32_t rows;     // rows
  uint32_t samples;  // host samples per pixel
  uint32_t kind;     // UINT view kind (colour) or bit index (stencil bit planes)
  uint32_t dwords;   // dwords per colour texel
  uint32_t sample;   // write: the host sample this draw writes
  uint32_t first;    // read: first texel-sample index of this dispatch
};
static_assert(sizeof(Push) <= kPushBytes);

// The fields every transport pass sets: rows [y0, y1) of `rt`, all its samples.
Push RowsPush(const RenderTarget& rt, uint32_t y0, uint32_t y1) {
  Push push{};
  push.width = rt.width;
  push.y0 = y0;
  push.rows = y1 - y0;
  push.samples = uint32_t(rt.samples);
  return push;
}

constexpr const char* kPushBlock = R"(
layout(push_constant) uniform Push {
  uint width; uint y0; uint rows; uint samples; uint kind; uint dwords; uint host_sample; uint first;
} p;
layout(std430, set = 0, binding = 2) buffer Texels { uint w[]; } texels;
)";

std::string ReadColorSource() {
  return std::string("#version 450\nlayout(local_size_x = 64) in;\n") + kPushBlock + R"(
layout(set = 0, binding = 0) uniform usampler2DMS src;
void main() {
  uint i = p.first + gl_GlobalInvocationID.x;
  if (i >= p.width * p.rows * p.samples) { return; }
  uint s = i % p.samples, pix = i / p.samples;
  uvec4 c = texelFetch(src, ivec2(int(pix % p.width), int(p.y0 + pix / p.width)), int(s));
  uint b = i * p.dwords;
  switch (p.kind) {
    case 0u: texels.w[b] = c.r | (c.g << 8) | (c.b << 16) | (c.a << 24); break;
    case 1u: texels.w[b] = c.r | (c.g << 10) | (c.b << 20) | (c.a << 30); break;
    case 2u: texels.w[b] = c.r | (c.g << 16); break;
    case 3u: texels.w[b] = c.r | (c.g << 16); texels.w[b + 1u] = c.b | (c.a << 16); break;
    case 4u: texels.w[b] = c.r; break;
    case 5u: texels.w[b] = c.r; texels.w[b + 1u] = c.g; break;
    default:
      texels.w[b] = c.r; texels.w[b + 1u] = c.g; texels.w[b + 2u] = c.b; texels.w[b + 3u] = c.a;
      break;
  }
}
)";
}

std::string ReadDepthSource() {
  return std::string("#version 450\nlayout(local_size_x = 64) in;\n") + kPushBlock + R"(
layout(set = 0, binding = 0) uniform sampler2DMS depth;
layout(set = 0, binding = 1) uniform usampler2DMS stencil;
void main() {
  uint total = p.width * p.rows * p.samples;
  uint i = p.first + gl_GlobalInvocationID.x;
  if (i >= total) { return; }
  uint s = i % p.samples, pix = i / p.samples;
  ivec2 xy = ivec2(int(pix % p.width), int(p.y0 + pix / p.width));
  texels.w[i] = floatBitsToUint(texelFetch(depth, xy, int(s)).r);
  texels.w[total + i] = texelFetch(stencil, xy, int(s)).r & 0xFFu;
}
)";
}

std::string WriteSource(bool color, bool stencil_export, bool stencil_bit) {
  std::string s = "#version 450\n";
  if (stencil_export) s += "#extension GL_ARB_shader_stencil_export : require\n";
  s += kPushBlock;
  if (color) s += "layout(location = 0) out uvec4 o;\n";
  s += R"(
void main() {
  uint total = p.width * p.rows * p.samples;
  uvec2 xy = uvec2(gl_FragCoord.xy);
  uint i = ((xy.y - p.y0) * p.width + xy.x) * p.samples + p.host_sample;
  gl_SampleMask[0] = int(1u << p.host_sample);
)";
  if (color) {
    s += R"(
  uint b = i * p.dwords;
  uint v = texels.w[b];
  switch (p.kind) {
    case 0u: o = uvec4(v & 0xFFu, (v >> 8) & 0xFFu, (v >> 16) & 0xFFu, v >> 24); break;
    case 1u: o = uvec4(v & 0x3FFu, (v >> 10) & 0x3FFu, (v >> 20) & 0x3FFu, v >> 30); break;
    case 2u: o = uvec4(v & 0xFFFFu, v >> 16, 0u, 0u); break;
    case 3u: o = uvec4(v & 0xFFFFu, v >> 16, texels.w[b + 1u] & 0xFFFFu, texels.w[b + 1u] >> 16);
             break;
    case 4u: o = uvec4(v, 0u, 0u, 0u); break;
    case 5u: o = uvec4(v, texels.w[b + 1u], 0u, 0u); break;
    default: o = uvec4(v, texels.w[b + 1u], texels.w[b + 2u], texels.w[b + 3u]); break;
  }
}
)";
  } else if (stencil_bit) {
    s += R"(
  if (((texels.w[total + i] >> p.kind) & 1u) == 0u) { discard; }
}
)";
  } else {
    s += "  gl_FragDepth = uintBitsToFloat(texels.w[i]);\n";
    if (stencil_export) s += "  gl_FragStencilRefARB = int(texels.w[total + i] & 0xFFu);\n";
    s += "}\n";
  }
  return s;
}

}  // namespace

namespace transfer_internal {

VkFormat UintViewFormat(VkFormat format, uint32_t* kind) {
  switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
      *kind = k8888;
      return VK_FORMAT_R8G8B8A8_UINT;
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
      *kind = k1010102;
      return VK_FORMAT_A2B10G10R10_UINT_PACK32;
    case VK_FORMAT_R16G16_SNORM:
    case VK_FORMAT_R16G16_SFLOAT:
      *kind = k16x2;
      return VK_FORMAT_R16G16_UINT;
    case VK_FORMAT_R16G16B16A16_SNORM:
    case VK_FORMAT_R16G16B16A16_SFLOAT:
      *kind = k16x4;
      return VK_FORMAT_R16G16B16A16_UINT;
    case VK_FORMAT_R32_SFLOAT:
      *kind = k32x1;
      return VK_FORMAT_R32_UINT;
    case VK_FORMAT_R32G32_SFLOAT:
      *kind = k32x2;
      return VK_FORMAT_R32G32_UINT;
    case VK_FORMAT_R32G32B32A32_SFLOAT:
      *kind = k32x4;
      return VK_FORMAT_R32G32B32A32_UINT;
    default:
      throw Error("MSAA transport: no UINT view for VkFormat " + std::to_string(uint32_t(format)));
  }
}

void WriteSampleSet(VkDevice device, VkDescriptorSet set, VkSampler sampler, const RenderTarget& rt,
                    const VkDescriptorBufferInfo& texels) {
  const bool depth = rt.key.is_depth;
  VkDescriptorImageInfo images[2] = {
      {sampler, depth ? rt.depth_view : rt.uint_view, VK_IMAGE_LAYOUT_GENERAL},
      {sampler, depth ? rt.stencil_view : rt.uint_view, VK_IMAGE_LAYOUT_GENERAL}};
  VkWriteDescriptorSet writes[3]{};
  for (uint32_t i = 0; i < 3; ++i) {
    writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[i].dstSet = set;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = i < 2 ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
                                     : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    if (i < 2) {
      writes[i].pImageInfo = &images[i];
    } else {
      writes[i].pBufferInfo = &texels;
    }
  }
  vkUpdateDescriptorSets(device, 3, writes, 0, nullptr);
}

void WriteTexelBinding(VkDevice device, VkDescriptorSet set, const VkDescriptorBufferInfo& texels) {
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstBinding = 2;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &texels;
  vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
}

VkRect2D BeginRowRendering(VkCommandBuffer cmd, const RenderTarget& rt, uint32_t y0, uint32_t y1) {
  const bool depth = rt.key.is_depth;
  VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  attachment.imageView = depth ? rt.view : rt.uint_view;
  attachment.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = {{0, int32_t(y0)}, {rt.width, y1 - y0}};
  info.layerCount = 1;
  if (depth) {
    info.pDepthAttachment = &attachment;
    info.pStencilAttachment = &attachment;
  } else {
    info.colorAttachmentCount = 1;
    info.pColorAttachments = &attachment;
  }
  vkCmdBeginRendering(cmd, &info);
  VkViewport viewport{0.0f, 0.0f, float(rt.width), float(rt.height), 0.0f, 1.0f};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &info.renderArea);
  return info.renderArea;
}

}  // namespace transfer_internal

VkFormat SampleTransportUintFormat(VkFormat format) {
  uint32_t kind = 0;
  return UintViewFormat(format, &kind);
}

SampleTransport::SampleTransport(VulkanContext& context)
    : context_(context),
      device_(context.device()),
      stencil_export_(context.capabilities().shader_stencil_export) {
  VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sampler.magFilter = sampler.minFilter = VK_FILTER_NEAREST;
  sampler.addressModeU = sampler.addressModeV = sampler.addressModeW =
      VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  CheckVk(vkCreateSampler(device_, &sampler, nullptr, &sampler_), "vkCreateSampler(transport)");
  const VkDescriptorSetLayoutBinding bindings[4] = {
      LayoutBinding(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_COMPUTE_BIT),
      LayoutBinding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_COMPUTE_BIT),
      LayoutBinding(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                    VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT),
      // The D24 scratch buffer (copies of a D24S8 image's rows).
      LayoutBinding(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_COMPUTE_BIT)};
  set_layout_ = CreateSetLayout(device_, bindings, 4, "vkCreateDescriptorSetLayout(transport)");
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                            kPushBytes};
  VkPipelineLayoutCreateInfo layout{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout.setLayoutCount = 1;
  layout.pSetLayouts = &set_layout_;
  layout.pushConstantRangeCount = 1;
  layout.pPushConstantRanges = &range;
  CheckVk(vkCreatePipelineLayout(device_, &layout, nullptr, &layout_),
          "vkCreatePipelineLayout(transport)");
  VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 10},
                                   {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 10}};
  pool_ = CreateDescriptorPool(device_, 5, sizes, 2, "vkCreateDescriptorPool(transport)");
  // A set per use (transport read and write; GPU copy store, load, D24 load), each rewritten when
  // recorded, so each use can appear once per submission without disturbing the others.
  VkDescriptorSetLayout layouts[5] = {set_layout_, set_layout_, set_layout_, set_layout_,
                                      set_layout_};
  VkDescriptorSet sets[5];
  AllocateSets(device_, pool_, layouts, 5, sets, "vkAllocateDescriptorSets(transport)");
  read_set_ = sets[0];
  write_set_ = sets[1];
  store_set_ = sets[2];
  load_set_ = sets[3];
  raw_set_ = sets[4];
}

SampleTransport::~SampleTransport() {
  context_.WaitIdle();
  for (VkPipeline p : read_pipelines_) {
    if (p) vkDestroyPipeline(device_, p, nullptr);
  }
  for (auto& [key, p] : write_pipelines_) vkDestroyPipeline(device_, p, nullptr);
  for (auto& [kind, m] : write_modules_) vkDestroyShaderModule(device_, m, nullptr);
  for (VkShaderModule m : {read_color_, read_depth_, vertex_}) {
    if (m) vkDestroyShaderModule(device_, m, nullptr);
  }
  for (auto& [key, p] : gpu_pipelines_) vkDestroyPipeline(device_, p, nullptr);
  for (VkShaderModule m : gpu_modules_) vkDestroyShaderModule(device_, m, nullptr);
  if (edram_buffer_) vkDestroyBuffer(device_, edram_buffer_, nullptr);
  if (scratch_buffer_) vkDestroyBuffer(device_, scratch_buffer_, nullptr);
  if (scratch_memory_) vkFreeMemory(device_, scratch_memory_, nullptr);
  if (edram_memory_) vkFreeMemory(device_, edram_memory_, nullptr);
  if (pool_) vkDestroyDescriptorPool(device_, pool_, nullptr);
  if (layout_) vkDestroyPipelineLayout(device_, layout_, nullptr);
  if (set_layout_) vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
  if (sampler_) vkDestroySampler(device_, sampler_, nullptr);
}

uint64_t SampleTransport::Bytes(const RenderTarget& rt, uint32_t rows) {
  uint64_t n = uint64_t(rt.width) * rows * uint32_t(rt.samples);
  return rt.key.is_depth ? n * 8 : n * rt.texel_bytes;
}

VkShaderModule SampleTransport::FullscreenVertex() {
  if (!vertex_) {
    vertex_ = CreateShaderModule(
        device_, CompileGlsl(kFullscreenTriangleVertexGlsl, GlslStage::kVertex, "msaa_vs"));
  }
  return vertex_;
}

VkPipeline SampleTransport::ReadPipeline(bool depth) {
  VkPipeline& p = read_pipelines_[depth ? 1 : 0];
  if (p) return p;
  VkShaderModule& m = depth ? read_depth_ : read_color_;
  if (!m) {
    m = CreateShaderModule(device_, CompileGlsl(depth ? ReadDepthSource() : ReadColorSource(),
                                                GlslStage::kCompute,
                                                depth ? "msaa_read_depth" : "msaa_read"));
  }
  p = CreateComputePipeline(context_, m, layout_, false, "vkCreateComputePipelines(transport)");
  return p;
}

VkPipeline SampleTransport::WritePipeline(VkFormat format, VkSampleCountFlagBits samples,
                                          WriteKind kind) {
  auto key = std::make_tuple(uint32_t(format), uint32_t(samples), uint32_t(kind));
  auto it = write_pipelines_.find(key);
  if (it != write_pipelines_.end()) return it->second;
  VkShaderModule& fs = write_modules_[kind];
  if (!fs) {
    fs = CreateShaderModule(device_, CompileGlsl(WriteSource(kind == WriteKind::kColor,
                                                             kind == WriteKind::kDepthExport,
                                                             kind == WriteKind::kStencilBit),
                                                 GlslStage::kFragment, "msaa_write"));
  }
  VkPipeline pipeline = FullscreenPipeline(fs, format, samples, kind, "transport");
  write_pipelines_.emplace(key, pipeline);
  return pipeline;
}

VkPipeline SampleTransport::FullscreenPipeline(VkShaderModule fs, VkFormat format,
                                               VkSampleCountFlagBits samples, WriteKind kind,
                                               const char* what) {
  FullscreenPipelineDesc desc;
  desc.vertex = FullscreenVertex();
  desc.fragment = fs;
  desc.layout = layout_;
  desc.samples = samples;
  if (kind == WriteKind::kColor) {
    desc.color_format = format;
  } else {
    desc.depth_stencil_format = format;
    desc.depth_write = kind != WriteKind::kStencilBit;
    desc.stencil_write = kind != WriteKind::kDepthOnly;
  }
  desc.what = what;
  return CreateFullscreenPipeline(context_, desc);
}

void SampleTransport::RecordRead(VkCommandBuffer cmd, const RenderTarget& rt, uint32_t y0,
                                 uint32_t y1, VkBuffer buffer, uint64_t offset) {
  bool depth = rt.key.is_depth;
  WriteSampleSet(device_, read_set_, sampler_, rt, {buffer, offset, Bytes(rt, y1 - y0)});
  VkPipeline pipeline = ReadPipeline(depth);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &read_set_, 0,
                          nullptr);
  Push push = RowsPush(rt, y0, y1);
  if (!depth) {
    UintViewFormat(rt.format, &push.kind);
    push.dwords = rt.texel_bytes / 4;
  }
  uint64_t total = uint64_t(rt.width) * push.rows * push.samples;
  constexpr uint64_t kPerDispatch = 65535ull * 64;
  for (uint64_t first = 0; first < total; first += kPerDispatch) {
    push.first = uint32_t(first);
    vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                       sizeof(push), &push);
    uint64_t n = std::min(total - first, kPerDispatch);
    vkCmdDispatch(cmd, uint32_t((n + 63) / 64), 1, 1);
  }
}

void SampleTransport::RecordWrite(VkCommandBuffer cmd, const RenderTarget& rt, uint32_t y0,
                                  uint32_t y1, VkBuffer buffer, uint64_t offset) {
  bool depth = rt.key.is_depth;
  WriteTexelBinding(device_, write_set_, {buffer, offset, Bytes(rt, y1 - y0)});

  const VkRect2D area = BeginRowRendering(cmd, rt, y0, y1);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &write_set_, 0,
                          nullptr);
  Push push = RowsPush(rt, y0, y1);
  VkFormat attachment_format = rt.format;
  if (!depth) {
    attachment_format = UintViewFormat(rt.format, &push.kind);
    push.dwords = rt.texel_bytes / 4;
  }
  if (depth && !stencil_export()) {
    VkClearAttachment clear{};
    clear.aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
    VkClearRect rect{area, 0, 1};
    vkCmdClearAttachments(cmd, 1, &clear, 1, &rect);
  }
  if (depth) vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 0xFF);
  auto draw = [&](VkPipeline pipeline) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                       sizeof(push), &push);
    vkCmdDraw(cmd, 3, 1, 0, 0);
  };
  for (uint32_t s = 0; s < push.samples; ++s) {
    push.sample = s;
    if (!depth) {
      draw(WritePipeline(attachment_format, rt.samples, WriteKind::kColor));
    } else if (stencil_export()) {
      vkCmdSetStencilWriteMask(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 0xFF);
      draw(WritePipeline(attachment_format, rt.samples, WriteKind::kDepthExport));
    } else {
      // Depth (stencil untouched), then the set bits of each stencil plane; the rows' stencil
      // was cleared to 0 above.
      draw(WritePipeline(attachment_format, rt.samples, WriteKind::kDepthOnly));
      for (uint32_t bit = 0; bit < 8; ++bit) {
        push.kind = bit;
        vkCmdSetStencilWriteMask(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 1u << bit);
        draw(WritePipeline(attachment_format, rt.samples, WriteKind::kStencilBit));
      }
    }
  }
  vkCmdEndRendering(cmd);
}

void CompileEveryEdramTransferShader() {
  using namespace transfer_internal;
  CompileGlsl(kFullscreenTriangleVertexGlsl, GlslStage::kVertex, "msaa_vs");
  CompileGlsl(ReadColorSource(), GlslStage::kCompute, "msaa_read");
  CompileGlsl(ReadDepthSource(), GlslStage::kCompute, "msaa_read_depth");
  // WritePipeline's four kinds: colour, depth with stencil export, depth only, stencil bit.
  for (int kind = 0; kind < 4; ++kind) {
    CompileGlsl(WriteSource(kind == 0, kind == 1, kind == 3), GlslStage::kFragment, "msaa_write");
  }
  for (bool msaa : {false, true}) {
    CompileGlsl(EdramStoreSource(msaa), GlslStage::kCompute, "edram_store");
    CompileGlsl(EdramStoreDepthSource(msaa), GlslStage::kCompute, "edram_store");
  }
  CompileGlsl(EdramLoadSource(), GlslStage::kFragment, "edram_load");
  // RecordLoadDepthFromEdram's modes: 0 stencil export, 1 depth only, 2 stencil bit.
  for (uint32_t mode = 0; mode < 3; ++mode) {
    CompileGlsl(EdramLoadDepthSource(mode), GlslStage::kFragment, "edram_load_depth");
  }
  for (bool load : {false, true}) {
    CompileGlsl(EdramD24RawSource(load), GlslStage::kCompute, "edram_d24");
  }
}

}  // namespace xnt::vk
