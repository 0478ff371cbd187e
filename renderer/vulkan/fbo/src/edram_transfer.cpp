// Per-sample transport of MSAA host render targets (see edram_transfer.h).
#include "xnt/vk/fbo/edram_transfer.h"

#include <algorithm>
#include <string>

#include "xnt/vk/translator/shader_compiler.h"
#include "xnt/base/error.h"

namespace xnt::vk {

namespace {

// Push constants shared by every transport shader.
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

constexpr uint32_t kPushBytes = 64;
constexpr uint32_t kSrgbTableBytes = 512 * 4;
static_assert(sizeof(Push) <= kPushBytes);

// How a UINT view's components pack into the host texel's bits (little-endian, R lowest).
enum ViewKind : uint32_t {
  k8888 = 0,
  k1010102 = 1,
  k16x2 = 2,
  k16x4 = 3,
  k32x1 = 4,
  k32x2 = 5,
  k32x4 = 6,
};

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

constexpr const char* kVertexSource = R"(#version 450
void main() {
  vec2 q = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
  gl_Position = vec4(q * 2.0 - 1.0, 0.0, 1.0);
}
)";

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

}  // namespace

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
  VkDescriptorSetLayoutBinding bindings[4]{};
  for (uint32_t i = 0; i < 2; ++i) {
    bindings[i].binding = i;
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  bindings[2].binding = 2;
  bindings[2].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  bindings[2].descriptorCount = 1;
  bindings[2].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  bindings[3] = bindings[2];  // the D24 scratch buffer (copies of a D24S8 image's rows)
  bindings[3].binding = 3;
  bindings[3].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.bindingCount = 4;
  info.pBindings = bindings;
  CheckVk(vkCreateDescriptorSetLayout(device_, &info, nullptr, &set_layout_),
          "vkCreateDescriptorSetLayout(transport)");
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
  VkDescriptorPoolCreateInfo pool{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool.maxSets = 5;
  pool.poolSizeCount = 2;
  pool.pPoolSizes = sizes;
  CheckVk(vkCreateDescriptorPool(device_, &pool, nullptr, &pool_),
          "vkCreateDescriptorPool(transport)");
  VkDescriptorSetLayout layouts[5] = {set_layout_, set_layout_, set_layout_, set_layout_,
                                      set_layout_};
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = pool_;
  alloc.descriptorSetCount = 5;
  alloc.pSetLayouts = layouts;
  VkDescriptorSet sets[5];
  CheckVk(vkAllocateDescriptorSets(device_, &alloc, sets), "vkAllocateDescriptorSets(transport)");
  read_set_ = sets[0];
  write_set_ = sets[1];
  store_set_ = sets[2];
  load_set_ = sets[3];
  raw_set_ = sets[4];
}

SampleTransport::~SampleTransport() {
  vkDeviceWaitIdle(device_);
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

namespace {

VkShaderModule Module(VkDevice device, const std::vector<uint32_t>& spirv) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = spirv.size() * 4;
  info.pCode = spirv.data();
  VkShaderModule m = VK_NULL_HANDLE;
  CheckVk(vkCreateShaderModule(device, &info, nullptr, &m), "vkCreateShaderModule(transport)");
  return m;
}

}  // namespace

VkPipeline SampleTransport::ReadPipeline(bool depth) {
  VkPipeline& p = read_pipelines_[depth ? 1 : 0];
  if (p) return p;
  VkShaderModule& m = depth ? read_depth_ : read_color_;
  if (!m) {
    m = Module(device_, CompileGlsl(depth ? ReadDepthSource() : ReadColorSource(),
                                    GlslStage::kCompute, depth ? "msaa_read_depth" : "msaa_read"));
  }
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = m;
  info.stage.pName = "main";
  info.layout = layout_;
  CheckVk(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &p),
          "vkCreateComputePipelines(transport)");
  return p;
}

VkPipeline SampleTransport::WritePipeline(VkFormat format, VkSampleCountFlagBits samples,
                                          WriteKind kind) {
  auto key = std::make_tuple(uint32_t(format), uint32_t(samples), uint32_t(kind));
  auto it = write_pipelines_.find(key);
  if (it != write_pipelines_.end()) return it->second;
  if (!vertex_) vertex_ = Module(device_, CompileGlsl(kVertexSource, GlslStage::kVertex, "msaa_vs"));
  VkShaderModule& fs = write_modules_[kind];
  if (!fs) {
    fs = Module(device_, CompileGlsl(WriteSource(kind == WriteKind::kColor,
                                                 kind == WriteKind::kDepthExport,
                                                 kind == WriteKind::kStencilBit),
                                     GlslStage::kFragment, "msaa_write"));
  }
  VkPipeline pipeline = GraphicsPipeline(fs, format, samples, kind);
  write_pipelines_.emplace(key, pipeline);
  return pipeline;
}

VkPipeline SampleTransport::GraphicsPipeline(VkShaderModule fs, VkFormat format,
                                             VkSampleCountFlagBits samples, WriteKind kind) {
  if (!vertex_) vertex_ = Module(device_, CompileGlsl(kVertexSource, GlslStage::kVertex, "msaa_vs"));
  VkPipelineShaderStageCreateInfo stages[2]{};
  for (auto& s : stages) {
    s.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    s.pName = "main";
  }
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vertex_;
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = fs;
  VkPipelineVertexInputStateCreateInfo vertex_input{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = samples;
  VkPipelineDepthStencilStateCreateInfo ds{
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  bool depth = kind != WriteKind::kColor;
  if (depth) {
    ds.depthTestEnable = kind == WriteKind::kStencilBit ? VK_FALSE : VK_TRUE;
    ds.depthWriteEnable = ds.depthTestEnable;
    ds.depthCompareOp = VK_COMPARE_OP_ALWAYS;
    ds.stencilTestEnable = kind == WriteKind::kDepthOnly ? VK_FALSE : VK_TRUE;
    ds.front.failOp = ds.front.passOp = ds.front.depthFailOp = VK_STENCIL_OP_REPLACE;
    ds.front.compareOp = VK_COMPARE_OP_ALWAYS;
    ds.front.compareMask = 0xFF;
    ds.front.writeMask = 0xFF;  // dynamic for the bit planes
    ds.front.reference = 0xFF;
    ds.back = ds.front;
    ds.maxDepthBounds = 1.0f;
  }
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo color_blend{
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  color_blend.attachmentCount = depth ? 0 : 1;
  color_blend.pAttachments = &blend;
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR,
                                           VK_DYNAMIC_STATE_STENCIL_WRITE_MASK,
                                           VK_DYNAMIC_STATE_STENCIL_REFERENCE};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = depth ? 4 : 2;
  dynamic.pDynamicStates = dynamic_states;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  if (depth) {
    rendering.depthAttachmentFormat = format;
    rendering.stencilAttachmentFormat = format;
  } else {
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &format;
  }
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.pNext = &rendering;
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &ds;
  info.pColorBlendState = &color_blend;
  info.pDynamicState = &dynamic;
  info.layout = layout_;
  VkPipeline pipeline = VK_NULL_HANDLE;
  CheckVk(vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
          "vkCreateGraphicsPipelines(transport)");
  return pipeline;
}

void SampleTransport::RecordRead(VkCommandBuffer cmd, const RenderTarget& rt, uint32_t y0,
                                 uint32_t y1, VkBuffer buffer, uint64_t offset) {
  bool depth = rt.key.is_depth;
  VkDescriptorImageInfo images[2] = {
      {sampler_, depth ? rt.depth_view : rt.uint_view, VK_IMAGE_LAYOUT_GENERAL},
      {sampler_, depth ? rt.stencil_view : rt.uint_view, VK_IMAGE_LAYOUT_GENERAL}};
  VkDescriptorBufferInfo texels{buffer, offset, Bytes(rt, y1 - y0)};
  VkWriteDescriptorSet writes[3]{};
  for (uint32_t i = 0; i < 3; ++i) {
    writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[i].dstSet = read_set_;
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
  vkUpdateDescriptorSets(device_, 3, writes, 0, nullptr);
  VkPipeline pipeline = ReadPipeline(depth);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &read_set_, 0,
                          nullptr);
  Push push{};
  push.width = rt.width;
  push.y0 = y0;
  push.rows = y1 - y0;
  push.samples = uint32_t(rt.samples);
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
  VkDescriptorBufferInfo texels{buffer, offset, Bytes(rt, y1 - y0)};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = write_set_;
  write.dstBinding = 2;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &texels;
  vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);

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
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &write_set_, 0,
                          nullptr);
  Push push{};
  push.width = rt.width;
  push.y0 = y0;
  push.rows = y1 - y0;
  push.samples = uint32_t(rt.samples);
  VkFormat attachment_format = rt.format;
  if (!depth) {
    attachment_format = UintViewFormat(rt.format, &push.kind);
    push.dwords = rt.texel_bytes / 4;
  }
  if (depth && !stencil_export()) {
    VkClearAttachment clear{};
    clear.aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
    VkClearRect rect{info.renderArea, 0, 1};
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

// ---- GPU transfers through a GPU copy of the EDRAM ------------------------------------------------

namespace {

// Push constants of the EDRAM store / load shaders.
struct EdramPush {
  uint32_t width;         // columns to move: min(image width, pitch)
  uint32_t y0;
  uint32_t rows;
  uint32_t base_tiles;
  uint32_t pitch_tiles;
  uint32_t flags;         // bit 0: 64bpp; bits 1-2: guest MSAA (0 1x, 1 2x, 2 4x)
  uint32_t start_tile;
  uint32_t end_tile;
  uint32_t host_samples;
  uint32_t kind;          // ViewKind of the host UINT view
  uint32_t convert;       // 0: host bits are the guest bits; 1: 7e3 in an RGBA16F host texel;
                          // 2: PWL gamma in an R8G8B8A8_SRGB texel (tables)
  uint32_t host_sample;   // load: the host sample this draw writes
  uint32_t bit;           // depth load, stencil bit planes: bit index | (bit value << 8)
  uint32_t host_width;    // D24 scratch: texels per copied row (the host image width)
};
static_assert(sizeof(EdramPush) <= kPushBytes);

constexpr const char* kEdramCommon = R"(
layout(push_constant) uniform Push {
  uint width; uint y0; uint rows; uint base_tiles; uint pitch_tiles; uint flags;
  uint start_tile; uint end_tile; uint host_samples; uint kind; uint convert; uint host_sample;
  uint bit; uint host_width;
} p;
layout(std430, set = 0, binding = 2) buffer Edram { uint w[]; } edram;
// The host depth (float bits) of a depth sample sits kHostDepth dwords after its guest word.
const uint kHostDepth = 2621440u;
// sRGB-mode k_8_8_8_8_GAMMA: 256 dwords sRGB code -> PWL code, then 256 PWL -> sRGB, one byte
// per channel (R lowest), filled from render_targets.h's CPU conversion.
const uint kSrgbTables = 5242880u;

uint guest_samples() { uint m = (p.flags >> 1) & 3u; return m == 0u ? 1u : m == 1u ? 2u : 4u; }
// edram.h Surface::SampleOffset, in dwords (flags bit 3: depth, 40-sample halves swapped).
uint sample_offset(uint x, uint y, uint s) {
  uint m = (p.flags >> 1) & 3u;
  uint sx = x * (m == 2u ? 2u : 1u), sy = y * (m == 0u ? 1u : 2u);
  if (m == 1u) { sy += s; } else if (m == 2u) { sx += s & 1u; sy += s >> 1u; }
  bool wide = (p.flags & 1u) != 0u;
  uint tw = wide ? 40u : 80u;
  uint tile = (p.base_tiles + (sy / 16u) * p.pitch_tiles + sx / tw) % 2048u;
  uint in_x = sx % tw;
  if ((p.flags & 8u) != 0u) { in_x = (in_x + 40u) % 80u; }
  return tile * 1280u + ((sy % 16u) * tw + in_x) * (wide ? 2u : 1u);
}
// render_targets.h HostSampleOfGuest / GuestSampleOfHost.
uint host_of_guest(uint g) {
  uint gs = guest_samples();
  if (p.host_samples <= 1u) { return 0u; }
  if (gs == 2u) { return p.host_samples == 2u ? (g == 0u ? 1u : 0u) : (g == 0u ? 0u : 2u); }
  return g;
}
uint guest_of_host(uint h) {
  uint gs = guest_samples();
  if (gs <= 1u) { return 0u; }
  if (gs == 2u) { return p.host_samples == 2u ? (h == 0u ? 1u : 0u) : (h >> 1u); }
  return h;
}
// edram.h Float32To7e3 / Float7e3To32.
uint f32_to_7e3(float f) {
  if (!(f > 0.0)) { return 0u; }
  uint u = min(floatBitsToUint(f), 0x41FF0000u);
  if (u < 0x3E800000u) {
    uint shift = min(125u - (u >> 23u), 24u);
    u = (0x800000u | (u & 0x7FFFFFu)) >> shift;
  } else {
    u += 0xC2000000u;
  }
  u += 0x7FFFu + ((u >> 16u) & 1u);
  return (u >> 16u) & 0x3FFu;
}
float f7e3_to_32(uint v) {
  v &= 0x3FFu;
  if (v == 0u) { return 0.0; }
  uint mantissa = v & 0x7Fu, exponent = v >> 7u;
  if (exponent == 0u) {
    uint lz = 7u - uint(findMSB(mantissa));
    exponent = 1u - lz;
    mantissa = (mantissa << lz) & 0x7Fu;
  }
  return uintBitsToFloat(((exponent + 124u) << 23u) | (mantissa << 16u));
}
uint unorm2(float v) { return !(v > 0.0) ? 0u : v >= 1.0 ? 3u : uint(v * 3.0 + 0.5); }
// edram.h Float32To20e4 / Float20e4To32.
uint f32_to_20e4(float f) {
  if (!(f > 0.0)) { return 0u; }
  uint u = min(floatBitsToUint(f), 0x3FFFFFF8u);
  if (u < 0x38800000u) {
    uint shift = 113u - (u >> 23u);
    u = shift < 24u ? (0x800000u | (u & 0x7FFFFFu)) >> shift : 0u;
  } else {
    u += 0xC8000000u;
  }
  return ((u + 3u + ((u >> 3u) & 1u)) >> 3u) & 0xFFFFFFu;
}
float f20e4_to_32(uint v) {
  v &= 0xFFFFFFu;
  if (v == 0u) { return 0.0; }
  uint mantissa = v & 0xFFFFFu, exponent = v >> 20u;
  if (exponent == 0u) {
    uint lz = 20u - uint(findMSB(mantissa));
    exponent = 1u - lz;
    mantissa = (mantissa << lz) & 0xFFFFFu;
  }
  return uintBitsToFloat(((exponent + 112u) << 23u) | (mantissa << 3u));
}
// edram.h PackDepth's unorm24: floor(f * 16777215 + 0.5), exact in 64-bit integer arithmetic
// (f = m * 2^-sh with a 24-bit m; (m * (2^24 - 1) + 2^(sh - 1)) >> sh).
uint f32_to_unorm24(float f) {
  if (!(f > 0.0)) { return 0u; }
  if (f >= 1.0) { return 0xFFFFFFu; }
  uint u = floatBitsToUint(f), e = u >> 23u;
  if (e == 0u) { return 0u; }
  uint sh = 150u - e;  // >= 24 below 1.0
  if (sh >= 49u) { return 0u; }
  uint hi, lo, carry;
  umulExtended(0x800000u | (u & 0x7FFFFFu), 0xFFFFFFu, hi, lo);
  uint half_lo = sh - 1u < 32u ? 1u << (sh - 1u) : 0u, half_hi = sh - 1u >= 32u ? 1u << (sh - 33u) : 0u;
  lo = uaddCarry(lo, half_lo, carry);
  hi += half_hi + carry;
  return (sh < 32u ? (lo >> sh) | (hi << (32u - sh)) : hi >> (sh - 32u)) & 0xFFFFFFu;
}
// d / (2^24 - 1) rounded to the nearest float: d * 2^-24 is exact and the rest,
// d * 2^-48 / (1 - 2^-24), lies in (0.5, 1] ulp of it, so the result is the next float up.
float unorm24_to_f32(uint d) {
  d &= 0xFFFFFFu;
  if (d == 0u) { return 0.0; }
  return uintBitsToFloat(floatBitsToUint(float(d) * (1.0 / 16777216.0)) + 1u);
}
uint depth_to_d24(uint format, float f) { return format == 1u ? f32_to_20e4(f) : f32_to_unorm24(f); }
float d24_to_depth(uint format, uint d) { return format == 1u ? f20e4_to_32(d) : unorm24_to_f32(d); }
)";

// Depth source: the depth and stencil aspects -> guest (depth24 << 8) | stencil words at the depth
// tile layout, and the host depth (float bits) kHostDepth dwords after each word.
// p.kind: guest depth format (0 kD24S8 unorm, 1 kD24FS8 20e4).
std::string EdramStoreDepthSource(bool msaa) {
  std::string s = "#version 450\nlayout(local_size_x = 64) in;\n";
  s += kEdramCommon;
  s += msaa ? "layout(set = 0, binding = 0) uniform sampler2DMS depth;\n"
              "layout(set = 0, binding = 1) uniform usampler2DMS stencil;\n"
            : "layout(set = 0, binding = 0) uniform sampler2D depth;\n"
              "layout(set = 0, binding = 1) uniform usampler2D stencil;\n";
  s += R"(
void main() {
  uint gs = guest_samples();
  uint i = gl_GlobalInvocationID.x;
  if (i >= p.width * p.rows * gs) { return; }
  uint g = i % gs, pix = i / gs;
  uint x = pix % p.width, y = p.y0 + pix / p.width;
  uint tile = sample_offset(x, y, 0u) / 1280u;
  if (tile < p.start_tile || tile >= p.end_tile) { return; }
)";
  s += msaa ? "  int hs = int(host_of_guest(g));\n" : "  int hs = 0;\n";
  s += msaa ? "  float d = texelFetch(depth, ivec2(int(x), int(y)), hs).r;\n"
              "  uint st = texelFetch(stencil, ivec2(int(x), int(y)), hs).r & 0xFFu;\n"
            : "  float d = texelFetch(depth, ivec2(int(x), int(y)), 0).r;\n"
              "  uint st = texelFetch(stencil, ivec2(int(x), int(y)), 0).r & 0xFFu;\n";
  s += R"(
  uint off = sample_offset(x, y, g);
  edram.w[off] = (depth_to_d24(p.kind, d) << 8u) | st;
  edram.w[kHostDepth + off] = floatBitsToUint(d);
}
)";
  return s;
}

// D24S8 guest in a 1-sample D24_UNORM_S8_UINT host image, through copies of its rows (sampling
// or rendering a 24-bit unorm through floats is not exact on every device; lavapipe's sampler is
// off by one step near 1.0). Scratch layout: the depth aspect (X8_D24 dwords, host_width per
// row), then the stencil bytes. store: rows -> EDRAM words + host depth; load (4 texels per
// invocation, for whole stencil dwords): EDRAM words of the transferred tiles -> the scratch
// rows, which the caller copies back (texels of other tiles keep their copied values).
std::string EdramD24RawSource(bool load) {
  std::string s = "#version 450\nlayout(local_size_x = 64) in;\n";
  s += kEdramCommon;
  s += "layout(std430, set = 0, binding = 3) buffer Scratch { uint w[]; } scratch;\n";
  if (!load) {
    s += R"(
void main() {
  uint t = gl_GlobalInvocationID.x, texels = p.host_width * p.rows;
  if (t >= texels) { return; }
  uint x = t % p.host_width, y = p.y0 + t / p.host_width;
  if (x >= p.width) { return; }
  uint tile = sample_offset(x, y, 0u) / 1280u;
  if (tile < p.start_tile || tile >= p.end_tile) { return; }
  uint d = scratch.w[t] & 0xFFFFFFu;
  uint st = (scratch.w[texels + t / 4u] >> (8u * (t % 4u))) & 0xFFu;
  uint off = sample_offset(x, y, 0u);
  edram.w[off] = (d << 8u) | st;
  edram.w[kHostDepth + off] = floatBitsToUint(unorm24_to_f32(d));
}
)";
    return s;
  }
  s += R"(
void main() {
  uint q = gl_GlobalInvocationID.x, texels = p.host_width * p.rows;
  if (q * 4u >= texels) { return; }
  uint stencil = scratch.w[texels + q];
  for (uint j = 0u; j < 4u; ++j) {
    uint t = q * 4u + j;
    if (t >= texels) { break; }
    uint x = t % p.host_width, y = p.y0 + t / p.host_width;
    if (x >= p.width) { continue; }
    uint tile = sample_offset(x, y, 0u) / 1280u;
    if (tile < p.start_tile || tile >= p.end_tile) { continue; }
    uint word = edram.w[sample_offset(x, y, 0u)];
    scratch.w[t] = word >> 8u;
    stencil = (stencil & ~(0xFFu << (8u * j))) | ((word & 0xFFu) << (8u * j));
  }
  scratch.w[texels + q] = stencil;
}
)";
  return s;
}

// Depth destination, one host sample per draw: the host depth beside the word while it still
// converts to the word's 24 bits (xenia.md §3.2), else the 24-bit value converted; stencil by
// export (mode 0), or a depth-only pass (mode 1) and bit-plane passes (mode 2) that keep the
// fragments whose stencil bit p.bit & 0xFF equals p.bit >> 8.
std::string EdramLoadDepthSource(uint32_t mode) {
  std::string s = "#version 450\n";
  if (mode == 0) s += "#extension GL_ARB_shader_stencil_export : require\n";
  s += kEdramCommon;
  s += R"(
void main() {
  uint x = uint(gl_FragCoord.x), y = uint(gl_FragCoord.y);
  gl_SampleMask[0] = int(1u << p.host_sample);
  if (x >= p.width) { discard; }
  uint tile = sample_offset(x, y, 0u) / 1280u;
  if (tile < p.start_tile || tile >= p.end_tile) { discard; }
  uint off = sample_offset(x, y, guest_of_host(p.host_sample));
  uint word = edram.w[off];
)";
  if (mode == 2) {
    s += "  if (((word >> (p.bit & 0xFFu)) & 1u) != (p.bit >> 8u)) { discard; }\n}\n";
    return s;
  }
  s += R"(
  float host = uintBitsToFloat(edram.w[kHostDepth + off]);
  gl_FragDepth = depth_to_d24(p.kind, host) == (word >> 8u) ? host : d24_to_depth(p.kind, word >> 8u);
)";
  if (mode == 0) s += "  gl_FragStencilRefARB = int(word & 0xFFu);\n";
  s += "}\n";
  return s;
}


std::string EdramStoreSource(bool msaa) {
  std::string s = "#version 450\nlayout(local_size_x = 64) in;\n";
  s += kEdramCommon;
  s += msaa ? "layout(set = 0, binding = 0) uniform usampler2DMS src;\n"
            : "layout(set = 0, binding = 0) uniform usampler2D src;\n";
  s += R"(
void main() {
  uint gs = guest_samples();
  uint i = gl_GlobalInvocationID.x;
  if (i >= p.width * p.rows * gs) { return; }
  uint g = i % gs, pix = i / gs;
  uint x = pix % p.width, y = p.y0 + pix / p.width;
  uint tile = sample_offset(x, y, 0u) / 1280u;
  if (tile < p.start_tile || tile >= p.end_tile) { return; }
)";
  s += msaa ? "  uvec4 c = texelFetch(src, ivec2(int(x), int(y)), int(host_of_guest(g)));\n"
            : "  uvec4 c = texelFetch(src, ivec2(int(x), int(y)), 0);\n";
  s += R"(
  uint lo = 0u, hi = 0u;
  if (p.convert == 2u) {
    lo = (edram.w[kSrgbTables + c.r] & 0xFFu) | (edram.w[kSrgbTables + c.g] & 0xFF00u) |
         (edram.w[kSrgbTables + c.b] & 0xFF0000u) | (edram.w[kSrgbTables + c.a] & 0xFF000000u);
  } else if (p.convert == 1u) {
    vec2 rg = unpackHalf2x16(c.r | (c.g << 16u)), ba = unpackHalf2x16(c.b | (c.a << 16u));
    lo = f32_to_7e3(rg.x) | (f32_to_7e3(rg.y) << 10u) | (f32_to_7e3(ba.x) << 20u) |
         (unorm2(ba.y) << 30u);
  } else {
    switch (p.kind) {
      case 0u: lo = c.r | (c.g << 8u) | (c.b << 16u) | (c.a << 24u); break;
      case 1u: lo = c.r | (c.g << 10u) | (c.b << 20u) | (c.a << 30u); break;
      case 2u: lo = c.r | (c.g << 16u); break;
      case 3u: lo = c.r | (c.g << 16u); hi = c.b | (c.a << 16u); break;
      case 4u: lo = c.r; break;
      case 5u: lo = c.r; hi = c.g; break;
      default: lo = c.r; hi = c.g; break;
    }
  }
  uint off = sample_offset(x, y, g);
  edram.w[off] = lo;
  if ((p.flags & 1u) != 0u) { edram.w[off + 1u] = hi; }
}
)";
  return s;
}

std::string EdramLoadSource() {
  std::string s = "#version 450\n";
  s += kEdramCommon;
  s += R"(
layout(location = 0) out uvec4 o;
void main() {
  uint x = uint(gl_FragCoord.x), y = uint(gl_FragCoord.y);
  gl_SampleMask[0] = int(1u << p.host_sample);
  if (x >= p.width) { discard; }
  uint tile = sample_offset(x, y, 0u) / 1280u;
  if (tile < p.start_tile || tile >= p.end_tile) { discard; }
  uint off = sample_offset(x, y, guest_of_host(p.host_sample));
  uint lo = edram.w[off], hi = (p.flags & 1u) != 0u ? edram.w[off + 1u] : 0u;
  if (p.convert == 2u) {
    uint t = kSrgbTables + 256u;
    o = uvec4(edram.w[t + (lo & 0xFFu)] & 0xFFu, (edram.w[t + ((lo >> 8u) & 0xFFu)] >> 8u) & 0xFFu,
              (edram.w[t + ((lo >> 16u) & 0xFFu)] >> 16u) & 0xFFu, edram.w[t + (lo >> 24u)] >> 24u);
    return;
  }
  if (p.convert == 1u) {
    uint rg = packHalf2x16(vec2(f7e3_to_32(lo), f7e3_to_32(lo >> 10u)));
    uint ba = packHalf2x16(vec2(f7e3_to_32(lo >> 20u), float(lo >> 30u) / 3.0));
    o = uvec4(rg & 0xFFFFu, rg >> 16u, ba & 0xFFFFu, ba >> 16u);
    return;
  }
  switch (p.kind) {
    case 0u: o = uvec4(lo & 0xFFu, (lo >> 8u) & 0xFFu, (lo >> 16u) & 0xFFu, lo >> 24u); break;
    case 1u: o = uvec4(lo & 0x3FFu, (lo >> 10u) & 0x3FFu, (lo >> 20u) & 0x3FFu, lo >> 30u); break;
    case 2u: o = uvec4(lo & 0xFFFFu, lo >> 16u, 0u, 0u); break;
    case 3u: o = uvec4(lo & 0xFFFFu, lo >> 16u, hi & 0xFFFFu, hi >> 16u); break;
    case 4u: o = uvec4(lo, 0u, 0u, 0u); break;
    default: o = uvec4(lo, hi, 0u, 0u); break;
  }
}
)";
  return s;
}

bool IsSrgbGamma(const RenderTarget& rt) {
  return rt.key.guest_format == uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8_GAMMA) &&
         rt.format == VK_FORMAT_R8G8B8A8_SRGB;
}

bool Is7e3(uint32_t guest) {
  return guest == uint32_t(xenos::ColorRenderTargetFormat::k_2_10_10_10_FLOAT) ||
         guest == uint32_t(xenos::ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16);
}

}  // namespace

bool SampleTransport::GpuTransferSupports(const RenderTarget& rt) {
  if (rt.key.is_depth) return rt.depth_view && rt.stencil_view;
  if (!rt.uint_view) return false;
  uint32_t kind = 0;
  UintViewFormat(rt.format, &kind);
  if (kind == k32x4) return false;  // fallback format, converted on the CPU
  return rt.raw || (Is7e3(rt.key.guest_format) && rt.format == VK_FORMAT_R16G16B16A16_SFLOAT) ||
         IsSrgbGamma(rt);
}

// The load draws (colour and depth) read the GPU EDRAM copy through binding 2 of load_set_.
void SampleTransport::BindEdramToLoadSet(VkCommandBuffer cmd) {
  VkDescriptorBufferInfo buffer{EdramBuffer(cmd), 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = load_set_;
  write.dstBinding = 2;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &buffer;
  vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
}

VkBuffer SampleTransport::EdramBuffer(VkCommandBuffer cmd) {
  if (edram_buffer_) return edram_buffer_;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  // Guest words, the host depth beside them, the sRGB tables.
  info.size = 2ull * xenos::kEdramSizeBytes + kSrgbTableBytes;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  CheckVk(vkCreateBuffer(device_, &info, nullptr, &edram_buffer_), "vkCreateBuffer(EDRAM)");
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device_, edram_buffer_, &req);
  VkMemoryAllocateInfo mem{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mem.allocationSize = req.size;
  mem.memoryTypeIndex =
      context_.FindMemoryType(req.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  CheckVk(vkAllocateMemory(device_, &mem, nullptr, &edram_memory_), "vkAllocateMemory(EDRAM)");
  CheckVk(vkBindBufferMemory(device_, edram_buffer_, edram_memory_, 0), "vkBindBufferMemory");
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
  }
  vkCmdUpdateBuffer(cmd, edram_buffer_, 2ull * xenos::kEdramSizeBytes, kSrgbTableBytes,
                    tables.data());
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                       0, 1, &barrier, 0, nullptr, 0, nullptr);
  return edram_buffer_;
}

namespace {

EdramPush MakeEdramPush(const RenderTarget& rt, const gpu::edram::Surface& s, uint32_t start,
                        uint32_t end, uint32_t y0, uint32_t y1) {
  EdramPush push{};
  push.width = std::min(rt.width, s.pitch_pixels);
  push.y0 = y0;
  push.rows = y1 - y0;
  push.base_tiles = s.base_tiles % xenos::kEdramTileCount;
  push.pitch_tiles = s.pitch_tiles();
  push.flags = (s.is_64bpp() ? 1u : 0u) | (uint32_t(s.msaa) << 1);
  push.start_tile = start;
  push.end_tile = end;
  push.host_samples = uint32_t(rt.samples);
  if (s.is_depth) {
    push.flags |= 8u;
    push.kind = s.format;  // DepthRenderTargetFormat
    return push;
  }
  UintViewFormat(rt.format, &push.kind);
  push.convert = rt.raw ? 0u : IsSrgbGamma(rt) ? 2u : 1u;
  return push;
}

}  // namespace

void SampleTransport::RecordStoreToEdram(VkCommandBuffer cmd, const RenderTarget& rt,
                                         const gpu::edram::Surface& s, uint32_t start, uint32_t end,
                                         uint32_t y0, uint32_t y1) {
  bool msaa = rt.samples != VK_SAMPLE_COUNT_1_BIT;
  bool depth = rt.key.is_depth;
  if (depth != s.is_depth) throw Error("EDRAM store: surface and host image disagree on depth");
  auto key = std::make_tuple(uint32_t(VK_FORMAT_UNDEFINED), msaa ? 1u : 0u, depth ? 101u : 100u);
  VkPipeline& pipeline = gpu_pipelines_[key];
  if (!pipeline) {
    VkShaderModule m = Module(device_, CompileGlsl(depth ? EdramStoreDepthSource(msaa)
                                                         : EdramStoreSource(msaa),
                                                   GlslStage::kCompute, "edram_store"));
    gpu_modules_.push_back(m);
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = m;
    info.stage.pName = "main";
    info.layout = layout_;
    CheckVk(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
            "vkCreateComputePipelines(EDRAM store)");
  }
  VkDescriptorImageInfo images[2] = {
      {sampler_, depth ? rt.depth_view : rt.uint_view, VK_IMAGE_LAYOUT_GENERAL},
      {sampler_, depth ? rt.stencil_view : rt.uint_view, VK_IMAGE_LAYOUT_GENERAL}};
  VkDescriptorBufferInfo buffer{EdramBuffer(cmd), 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet writes[3]{};
  for (uint32_t i = 0; i < 3; ++i) {
    writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[i].dstSet = store_set_;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = i < 2 ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
                                     : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    if (i < 2) {
      writes[i].pImageInfo = &images[i];
    } else {
      writes[i].pBufferInfo = &buffer;
    }
  }
  vkUpdateDescriptorSets(device_, 3, writes, 0, nullptr);
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
    if (!vertex_) {
      vertex_ = Module(device_, CompileGlsl(kVertexSource, GlslStage::kVertex, "msaa_vs"));
    }
    VkShaderModule fs = Module(device_, CompileGlsl(EdramLoadSource(), GlslStage::kFragment,
                                                    "edram_load"));
    gpu_modules_.push_back(fs);
    VkPipelineShaderStageCreateInfo stages[2]{};
    for (auto& st : stages) {
      st.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
      st.pName = "main";
    }
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = vertex_;
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = fs;
    VkPipelineVertexInputStateCreateInfo vertex_input{
        VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo assembly{
        VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo viewport{
        VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewport.viewportCount = viewport.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo raster{
        VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE;
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample{
        VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = rt.samples;
    VkPipelineDepthStencilStateCreateInfo ds{
        VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    VkPipelineColorBlendAttachmentState blend{};
    blend.colorWriteMask = 0xF;
    VkPipelineColorBlendStateCreateInfo color_blend{
        VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    color_blend.attachmentCount = 1;
    color_blend.pAttachments = &blend;
    const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{
        VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dynamic.dynamicStateCount = 2;
    dynamic.pDynamicStates = dynamic_states;
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &format;
    VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    info.pNext = &rendering;
    info.stageCount = 2;
    info.pStages = stages;
    info.pVertexInputState = &vertex_input;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewport;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &ds;
    info.pColorBlendState = &color_blend;
    info.pDynamicState = &dynamic;
    info.layout = layout_;
    CheckVk(vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
            "vkCreateGraphicsPipelines(EDRAM load)");
  }
  BindEdramToLoadSet(cmd);

  VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  attachment.imageView = rt.uint_view;
  attachment.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = {{0, int32_t(y0)}, {rt.width, y1 - y0}};
  info.layerCount = 1;
  info.colorAttachmentCount = 1;
  info.pColorAttachments = &attachment;
  vkCmdBeginRendering(cmd, &info);
  VkViewport viewport{0.0f, 0.0f, float(rt.width), float(rt.height), 0.0f, 1.0f};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &info.renderArea);
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
      VkShaderModule fs = Module(device_, CompileGlsl(EdramLoadDepthSource(mode),
                                                      GlslStage::kFragment, "edram_load_depth"));
      gpu_modules_.push_back(fs);
      p = GraphicsPipeline(fs, rt.format, rt.samples, kind);
    }
    return p;
  };
  BindEdramToLoadSet(cmd);

  VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  attachment.imageView = rt.view;
  attachment.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = {{0, int32_t(y0)}, {rt.width, y1 - y0}};
  info.layerCount = 1;
  info.pDepthAttachment = &attachment;
  info.pStencilAttachment = &attachment;
  vkCmdBeginRendering(cmd, &info);
  VkViewport viewport{0.0f, 0.0f, float(rt.width), float(rt.height), 0.0f, 1.0f};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &info.renderArea);
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
    vkDeviceWaitIdle(device_);
    vkDestroyBuffer(device_, scratch_buffer_, nullptr);
    vkFreeMemory(device_, scratch_memory_, nullptr);
    scratch_buffer_ = VK_NULL_HANDLE;
    scratch_memory_ = VK_NULL_HANDLE;
  }
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = bytes;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  CheckVk(vkCreateBuffer(device_, &info, nullptr, &scratch_buffer_), "vkCreateBuffer(D24 scratch)");
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device_, scratch_buffer_, &req);
  VkMemoryAllocateInfo mem{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mem.allocationSize = req.size;
  mem.memoryTypeIndex =
      context_.FindMemoryType(req.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  CheckVk(vkAllocateMemory(device_, &mem, nullptr, &scratch_memory_),
          "vkAllocateMemory(D24 scratch)");
  CheckVk(vkBindBufferMemory(device_, scratch_buffer_, scratch_memory_, 0), "vkBindBufferMemory");
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
    VkShaderModule m = Module(device_, CompileGlsl(EdramD24RawSource(load), GlslStage::kCompute,
                                                   "edram_d24"));
    gpu_modules_.push_back(m);
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = m;
    info.stage.pName = "main";
    info.layout = layout_;
    CheckVk(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
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
