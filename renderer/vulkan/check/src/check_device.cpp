#include "check_device.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "xnt/base/error.h"

namespace xnt::vk {
namespace {

const uint32_t kLanesVs[] =
#include "lanes.vert.spv.inc"
    ;
const uint32_t kQuadsVs[] =
#include "quads.vert.spv.inc"
    ;
const uint32_t kCaptureLowGs[] =
#include "capture_low.geom.spv.inc"
    ;
const uint32_t kCaptureHighGs[] =
#include "capture_high.geom.spv.inc"
    ;

constexpr VkFormat kColorFormat = VK_FORMAT_R32G32B32A32_SFLOAT;
// Depth as written (float), stencil 1 where a fragment survived its kills.
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT_S8_UINT;
constexpr uint32_t kRows = TranslateChecker::Device::kMaxLanes / TranslateChecker::Device::kColumns;
constexpr VkDeviceSize kColorBytes = VkDeviceSize(TranslateChecker::Device::kMaxLanes) * 16;
constexpr VkDeviceSize kDepthOffset = 4 * kColorBytes;
constexpr VkDeviceSize kStencilOffset = kDepthOffset + VkDeviceSize(TranslateChecker::Device::kMaxLanes) * 4;
constexpr VkDeviceSize kReadbackBytes = kStencilOffset + TranslateChecker::Device::kMaxLanes;
constexpr VkDeviceSize kCaptureBytes = VkDeviceSize(TranslateChecker::Device::kMaxLanes) * TranslateChecker::Device::kCaptureVectors * 16;
// The lanes' inputs: 16 vectors per point, or 17 per vertex of the quads' triangles (up to six
// vertices per pixel).
constexpr VkDeviceSize kLaneBytes = VkDeviceSize(TranslateChecker::Device::kMaxLanes) * 16 * 16;
constexpr VkShaderStageFlags kStages =
    VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_GEOMETRY_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

}  // namespace

using Device = TranslateChecker::Device;

Device::Device(VulkanContext& context) : context_(context), device_(context.device()) {
  if (!context.capabilities().geometry_shader) {
    throw Error("translate --check needs geometry shaders (vertex shader outputs are captured by one)");
  }
  if (!context.capabilities().clip_cull_distance) {
    throw Error("translate --check needs shaderCullDistance (the vertex kill is captured as a cull distance)");
  }
  const auto interface_layouts = check::MakeShaderInterfaceSetLayouts(device_, kStages, 3);
  std::copy(interface_layouts.begin(), interface_layouts.end(), set_layouts_.begin());
  // Set 3: the harness's own, the lanes' inputs (pixel check) and the capture (vertex check).
  VkDescriptorSetLayoutBinding harness[2] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_GEOMETRY_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo harness_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  harness_info.bindingCount = 2;
  harness_info.pBindings = harness;
  CheckVk(vkCreateDescriptorSetLayout(device_, &harness_info, nullptr, &set_layouts_[3]),
          "vkCreateDescriptorSetLayout");
  VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT, 0, 4};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 4;
  layout_info.pSetLayouts = set_layouts_.data();
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push;
  CheckVk(vkCreatePipelineLayout(device_, &layout_info, nullptr, &layout_), "vkCreatePipelineLayout");

  VkDescriptorPoolSize sizes[3] = {
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kSharedMemoryBindingCount + 2},
      {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 + kXeConstantPartCount},
      {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 3 * kTextureBindingCount}};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 4;
  pool_info.poolSizeCount = 3;
  pool_info.pPoolSizes = sizes;
  CheckVk(vkCreateDescriptorPool(device_, &pool_info, nullptr, &pool_), "vkCreateDescriptorPool");
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = pool_;
  alloc.descriptorSetCount = 4;
  alloc.pSetLayouts = set_layouts_.data();
  CheckVk(vkAllocateDescriptorSets(device_, &alloc, sets_.data()), "vkAllocateDescriptorSets");

  for (auto& b : memory_) b = MakeBuffer(kMemoryBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  constants_ = MakeBuffer(sizeof(XeConstants), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  system_ = MakeBuffer(sizeof(XeSystemConstants), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  lanes_ = MakeBuffer(kLaneBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  capture_ = MakeBuffer(kCaptureBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  staging_ = MakeBuffer(8 * 16, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  readback_ = MakeBuffer(kReadbackBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

  const VkImageUsageFlags sampled = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  textures_[0] = MakeImage(VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY, kColorFormat, {1, 1, 1}, 1,
                           sampled, VK_IMAGE_ASPECT_COLOR_BIT);
  textures_[1] = MakeImage(VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_CUBE, kColorFormat, {1, 1, 1}, 6,
                           sampled, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT);
  textures_[2] = MakeImage(VK_IMAGE_TYPE_3D, VK_IMAGE_VIEW_TYPE_3D, kColorFormat, {1, 1, 1}, 1,
                           sampled, VK_IMAGE_ASPECT_COLOR_BIT);
  VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sampler.magFilter = sampler.minFilter = VK_FILTER_NEAREST;
  sampler.addressModeU = sampler.addressModeV = sampler.addressModeW =
      VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  CheckVk(vkCreateSampler(device_, &sampler, nullptr, &sampler_), "vkCreateSampler");

  const VkImageUsageFlags target = VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  for (auto& c : colors_) {
    c = MakeImage(VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D, kColorFormat, {kColumns, kRows, 1}, 1,
                  target | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
  }
  depth_ = MakeImage(VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D, kDepthFormat, {kColumns, kRows, 1}, 1,
                     target | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                     VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);

  VkDescriptorBufferInfo memory_infos[kSharedMemoryBindingCount];
  for (uint32_t i = 0; i < kSharedMemoryBindingCount; ++i) memory_infos[i] = {memory_[i].buffer, 0, VK_WHOLE_SIZE};
  std::array<VkDescriptorBufferInfo, kXeConstantPartCount> constants_infos;
  VkDescriptorBufferInfo system_info{system_.buffer, 0, VK_WHOLE_SIZE};
  VkDescriptorBufferInfo lanes_info{lanes_.buffer, 0, VK_WHOLE_SIZE};
  VkDescriptorBufferInfo capture_info{capture_.buffer, 0, VK_WHOLE_SIZE};
  std::array<std::array<VkDescriptorImageInfo, kTextureBindingCount>, 3> image_infos;
  for (int t = 0; t < 3; ++t) {
    for (auto& info : image_infos[t]) {
      info = {sampler_, textures_[t].view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    }
  }
  VkWriteDescriptorSet writes[7 + kXeConstantPartCount] = {};
  auto buffer_write = [&](VkWriteDescriptorSet& w, VkDescriptorSet set, uint32_t binding,
                          VkDescriptorType type, uint32_t count, const VkDescriptorBufferInfo* info) {
    w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    w.dstSet = set;
    w.dstBinding = binding;
    w.descriptorCount = count;
    w.descriptorType = type;
    w.pBufferInfo = info;
  };
  buffer_write(writes[0], sets_[0], kSharedMemoryBinding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
               kSharedMemoryBindingCount, memory_infos);
  buffer_write(writes[1], sets_[1], kSystemConstantsBinding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, &system_info);
  buffer_write(writes[2], sets_[3], 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &lanes_info);
  buffer_write(writes[3], sets_[3], 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &capture_info);
  const uint32_t texture_bindings[3] = {kTexturesBinding, kTexturesCubeBinding, kTextures3DBinding};
  for (int t = 0; t < 3; ++t) {
    VkWriteDescriptorSet& w = writes[4 + t];
    w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    w.dstSet = sets_[2];
    w.dstBinding = texture_bindings[t];
    w.descriptorCount = kTextureBindingCount;
    w.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    w.pImageInfo = image_infos[t].data();
  }
  // The guest constants' three parts from the one XeConstants buffer.
  const auto constants_writes =
      check::GuestConstantWrites(sets_[1], constants_.buffer, constants_infos);
  std::copy(constants_writes.begin(), constants_writes.end(), writes + 7);
  vkUpdateDescriptorSets(device_, 10, writes, 0, nullptr);

  CreateRenderPass();
  lanes_vs_ = Module(kLanesVs, std::size(kLanesVs));
  quads_vs_ = Module(kQuadsVs, std::size(kQuadsVs));
  capture_gs_[0] = Module(kCaptureLowGs, std::size(kCaptureLowGs));
  capture_gs_[1] = Module(kCaptureHighGs, std::size(kCaptureHighGs));
}

// The four colour targets and the depth/stencil target in one subpass, read back by transfers.
void Device::CreateRenderPass() {
  VkAttachmentDescription attachments[5] = {};
  for (int i = 0; i < 5; ++i) {
    VkAttachmentDescription& a = attachments[i];
    a.format = i < 4 ? kColorFormat : kDepthFormat;
    a.samples = VK_SAMPLE_COUNT_1_BIT;
    a.loadOp = a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    a.storeOp = a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    a.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  }
  VkAttachmentReference color_refs[4];
  for (uint32_t i = 0; i < 4; ++i) color_refs[i] = {i, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkAttachmentReference depth_ref{4, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 4;
  subpass.pColorAttachments = color_refs;
  subpass.pDepthStencilAttachment = &depth_ref;
  VkSubpassDependency dependency{};
  dependency.srcSubpass = 0;
  dependency.dstSubpass = VK_SUBPASS_EXTERNAL;
  dependency.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                            VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  dependency.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  dependency.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  dependency.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  VkRenderPassCreateInfo rp{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  rp.attachmentCount = 5;
  rp.pAttachments = attachments;
  rp.subpassCount = 1;
  rp.pSubpasses = &subpass;
  rp.dependencyCount = 1;
  rp.pDependencies = &dependency;
  CheckVk(vkCreateRenderPass(device_, &rp, nullptr, &render_pass_), "vkCreateRenderPass");
  VkImageView views[5] = {colors_[0].view, colors_[1].view, colors_[2].view, colors_[3].view, depth_.view};
  VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fb.renderPass = render_pass_;
  fb.attachmentCount = 5;
  fb.pAttachments = views;
  fb.width = kColumns;
  fb.height = kRows;
  fb.layers = 1;
  CheckVk(vkCreateFramebuffer(device_, &fb, nullptr, &framebuffer_), "vkCreateFramebuffer");
}

Device::~Device() {
  context_.WaitIdle();
  vkDestroyShaderModule(device_, lanes_vs_, nullptr);
  vkDestroyShaderModule(device_, quads_vs_, nullptr);
  for (VkShaderModule m : capture_gs_) vkDestroyShaderModule(device_, m, nullptr);
  vkDestroyFramebuffer(device_, framebuffer_, nullptr);
  vkDestroyRenderPass(device_, render_pass_, nullptr);
  for (auto& c : colors_) Destroy(c);
  Destroy(depth_);
  for (auto& t : textures_) Destroy(t);
  vkDestroySampler(device_, sampler_, nullptr);
  for (auto& b : memory_) Destroy(b);
  for (Buffer* b : {&constants_, &system_, &lanes_, &capture_, &staging_, &readback_}) Destroy(*b);
  vkDestroyDescriptorPool(device_, pool_, nullptr);
  vkDestroyPipelineLayout(device_, layout_, nullptr);
  for (auto l : set_layouts_) vkDestroyDescriptorSetLayout(device_, l, nullptr);
}

void Device::Upload(const Inputs& in) {
  // Guest memory is uploaded again for every check: a memexport shader may have written it.
  std::memcpy(memory_[0].mapped, in.memory.data(), std::min<size_t>(in.memory.size() * 4, kMemoryBytes));
  for (uint32_t i = 1; i < kSharedMemoryBindingCount; ++i) std::memset(memory_[i].mapped, 0, kMemoryBytes);
  std::memcpy(constants_.mapped, &in.constants, sizeof(in.constants));
  std::memcpy(system_.mapped, &in.system, sizeof(in.system));
  const std::vector<uint32_t>& lane_words = in.quad_vertices.empty() ? in.lane_words : in.quad_vertices;
  if (lane_words.size() * 4 > kLaneBytes) throw Error("translate --check: too many quad vertices");
  if (!lane_words.empty()) std::memcpy(lanes_.mapped, lane_words.data(), lane_words.size() * 4);
  // Texels: 2D, six cube faces, 3D.
  auto* texels = static_cast<float*>(staging_.mapped);
  std::memcpy(texels, in.texels[0].data(), 16);
  for (int f = 0; f < 6; ++f) std::memcpy(texels + 4 + 4 * f, in.texels[1].data(), 16);
  std::memcpy(texels + 28, in.texels[2].data(), 16);
}

void Device::Draw(const std::vector<VkPipeline>& pipelines, uint32_t vertices, uint32_t pixels,
                  bool pixel, Outputs& out) {
  const uint32_t rows = (pixels + kColumns - 1) / kColumns;
  // A vertex check rasterizes nothing, but a render area and viewport must not be empty.
  const uint32_t area_rows = std::max(rows, 1u);
  const uint32_t lanes = pixel ? pixels : vertices;
  context_.SubmitAndWait([&](VkCommandBuffer cmd) {
    // The textures: the check's texels, copied each time (seeded).
    VkImageMemoryBarrier to_dst[3];
    for (int t = 0; t < 3; ++t) {
      VkImageMemoryBarrier& b = to_dst[t];
      b = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      b.srcAccessMask = textures_ready_ ? VK_ACCESS_SHADER_READ_BIT : 0;
      b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      b.image = textures_[t].image;
      b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, t == 1 ? 6u : 1u};
    }
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                         0, nullptr, 0, nullptr, 3, to_dst);
    VkBufferImageCopy copies[3] = {};
    const VkDeviceSize offsets[3] = {0, 16, 112};
    for (int t = 0; t < 3; ++t) {
      copies[t].bufferOffset = offsets[t];
      copies[t].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, t == 1 ? 6u : 1u};
      copies[t].imageExtent = {1, 1, 1};
      vkCmdCopyBufferToImage(cmd, staging_.buffer, textures_[t].image,
                             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copies[t]);
    }
    VkImageMemoryBarrier to_read[3];
    for (int t = 0; t < 3; ++t) {
      to_read[t] = to_dst[t];
      to_read[t].srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      to_read[t].dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
      to_read[t].oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      to_read[t].newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    }
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT, 0,
                         0, nullptr, 0, nullptr, 3, to_read);
    textures_ready_ = true;

    VkClearValue clears[5] = {};
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = render_pass_;
    begin.framebuffer = framebuffer_;
    begin.renderArea = {{0, 0}, {kColumns, area_rows}};
    begin.clearValueCount = 5;
    begin.pClearValues = clears;
    for (size_t i = 0; i < pipelines.size(); ++i) {
      if (i > 0) {
        // The capture draws write disjoint words of one buffer; ordered all the same.
        VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        b.srcAccessMask = b.dstAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_GEOMETRY_SHADER_BIT,
                             VK_PIPELINE_STAGE_GEOMETRY_SHADER_BIT, 0, 1, &b, 0, nullptr, 0, nullptr);
      }
      vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[i]);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 4, sets_.data(), 0, nullptr);
      vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_VERTEX_BIT, 0, 4, &rows);
      const VkViewport viewport{0.0f, 0.0f, float(kColumns), float(area_rows), 0.0f, 1.0f};
      vkCmdSetViewport(cmd, 0, 1, &viewport);
      vkCmdSetScissor(cmd, 0, 1, &begin.renderArea);
      vkCmdDraw(cmd, vertices, 1, 0, 0);
      vkCmdEndRenderPass(cmd);
    }
    if (pixel) {
      for (uint32_t t = 0; t < 4; ++t) {
        VkBufferImageCopy c{};
        c.bufferOffset = t * kColorBytes;
        c.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        c.imageExtent = {kColumns, rows, 1};
        vkCmdCopyImageToBuffer(cmd, colors_[t].image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               readback_.buffer, 1, &c);
      }
      VkBufferImageCopy d{};
      d.bufferOffset = kDepthOffset;
      d.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
      d.imageExtent = {kColumns, rows, 1};
      vkCmdCopyImageToBuffer(cmd, depth_.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_.buffer, 1, &d);
      d.bufferOffset = kStencilOffset;
      d.imageSubresource.aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
      vkCmdCopyImageToBuffer(cmd, depth_.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_.buffer, 1, &d);
    }
    VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  });
  if (pixel) {
    const auto* bytes = static_cast<const uint8_t*>(readback_.mapped);
    for (uint32_t t = 0; t < 4; ++t) {
      out.colors[t].resize(size_t(lanes) * 4);
      std::memcpy(out.colors[t].data(), bytes + t * kColorBytes, size_t(lanes) * 16);
    }
    out.depth.resize(lanes);
    std::memcpy(out.depth.data(), bytes + kDepthOffset, size_t(lanes) * 4);
    out.stencil.assign(bytes + kStencilOffset, bytes + kStencilOffset + lanes);
  } else {
    out.capture.resize(size_t(lanes) * kCaptureVectors * 4);
    std::memcpy(out.capture.data(), capture_.mapped, out.capture.size() * 4);
  }
  for (uint32_t b = 0; b < kSharedMemoryBindingCount; ++b) {
    const auto* words = static_cast<const uint32_t*>(memory_[b].mapped);
    out.memory[b].assign(words, words + kMemoryBytes / 4);
  }
}

namespace {

// The fixed-function state both checks share; `pixel` adds the fragment stage's targets.
VkPipeline MakePipeline(VkDevice device, VkPipelineLayout layout, VkRenderPass render_pass,
                        VkShaderModule first, VkShaderStageFlagBits first_stage,
                        VkShaderModule second, VkShaderStageFlagBits second_stage, bool pixel,
                        uint32_t color_targets, VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST) {
  VkPipelineShaderStageCreateInfo stages[2] = {};
  stages[0].sType = stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[0].stage = first_stage;
  stages[0].module = first;
  stages[0].pName = "main";
  stages[1].stage = second_stage;
  stages[1].module = second;
  stages[1].pName = "main";
  VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = topology;
  VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport_state.viewportCount = 1;
  viewport_state.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.lineWidth = 1.0f;
  raster.rasterizerDiscardEnable = pixel ? VK_FALSE : VK_TRUE;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  depth.depthTestEnable = VK_TRUE;
  depth.depthWriteEnable = VK_TRUE;
  depth.depthCompareOp = VK_COMPARE_OP_ALWAYS;
  depth.stencilTestEnable = VK_TRUE;
  depth.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS,
                 0xFF, 0xFF, 1};
  depth.back = depth.front;
  VkPipelineColorBlendAttachmentState blend_attachments[4] = {};
  for (uint32_t i = 0; i < 4; ++i) blend_attachments[i].colorWriteMask = (color_targets >> i) & 1 ? 0xF : 0;
  VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.attachmentCount = 4;
  blend.pAttachments = blend_attachments;
  VkDynamicState dynamic_states[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamic_states;
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport_state;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic;
  info.layout = layout;
  info.renderPass = render_pass;
  VkPipeline pipeline = VK_NULL_HANDLE;
  CheckVk(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
          "vkCreateGraphicsPipelines");
  return pipeline;
}

// Runs `run`, which creates pipelines into its argument and draws with them, then destroys them
// and `module` (made for them), also when `run` throws.
void RunAndDestroy(VkDevice device, VkShaderModule module,
                   const std::function<void(std::vector<VkPipeline>&)>& run) {
  std::vector<VkPipeline> pipelines;
  auto destroy = [&] {
    for (VkPipeline p : pipelines) vkDestroyPipeline(device, p, nullptr);
    vkDestroyShaderModule(device, module, nullptr);
  };
  try {
    run(pipelines);
  } catch (...) {
    destroy();
    throw;
  }
  destroy();
}

}  // namespace

void Device::RunPixel(const std::vector<uint32_t>& spirv, uint32_t color_targets, uint32_t lanes,
                      const Inputs& in, Outputs& out) {
  Upload(in);
  VkShaderModule fs = Module(spirv.data(), spirv.size());
  const bool quads = !in.quad_vertices.empty();
  RunAndDestroy(device_, fs, [&](std::vector<VkPipeline>& pipelines) {
    pipelines.push_back(MakePipeline(device_, layout_, render_pass_, quads ? quads_vs_ : lanes_vs_,
                                     VK_SHADER_STAGE_VERTEX_BIT, fs, VK_SHADER_STAGE_FRAGMENT_BIT,
                                     true, color_targets,
                                     quads ? VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST : VK_PRIMITIVE_TOPOLOGY_POINT_LIST));
    if (quads) {
      Draw(pipelines, uint32_t(in.quad_vertices.size() / 68), in.quad_rows * kColumns, true, out);
    } else {
      Draw(pipelines, lanes, lanes, true, out);
    }
  });
}

void Device::RunVertex(const std::vector<uint32_t>& spirv, uint32_t lanes, const Inputs& in,
                       Outputs& out) {
  Upload(in);
  VkShaderModule vs = Module(spirv.data(), spirv.size());
  RunAndDestroy(device_, vs, [&](std::vector<VkPipeline>& pipelines) {
    for (VkShaderModule gs : capture_gs_) {
      pipelines.push_back(MakePipeline(device_, layout_, render_pass_, vs, VK_SHADER_STAGE_VERTEX_BIT,
                                       gs, VK_SHADER_STAGE_GEOMETRY_BIT, false, 0));
    }
    Draw(pipelines, lanes, 0, false, out);
  });
}

}  // namespace xnt::vk
