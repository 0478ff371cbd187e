#include "draw_harness.h"

#include <cstring>
#include <optional>
#include <stdexcept>

namespace xnt::vk::test {

DrawHarness::DrawHarness(VulkanContext& context) : context_(context), device_(context.device()) {
  // Textures: the 2D-array binding only (the harness binds its 2x2 texture there).
  set_layouts_ = check::MakeShaderInterfaceSetLayouts(
      device_, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 1);
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 3;
  layout_info.pSetLayouts = set_layouts_.data();
  CheckVk(vkCreatePipelineLayout(device_, &layout_info, nullptr, &pipeline_layout_),
          "vkCreatePipelineLayout");

  VkDescriptorPoolSize sizes[3] = {
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kSharedMemoryBindingCount},
      {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 + kXeConstantPartCount},
      {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kTextureBindingCount}};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 3;
  pool_info.poolSizeCount = 3;
  pool_info.pPoolSizes = sizes;
  CheckVk(vkCreateDescriptorPool(device_, &pool_info, nullptr, &pool_), "vkCreateDescriptorPool");
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = pool_;
  alloc.descriptorSetCount = 3;
  alloc.pSetLayouts = set_layouts_.data();
  CheckVk(vkAllocateDescriptorSets(device_, &alloc, sets_.data()), "vkAllocateDescriptorSets");

  for (auto& b : memory_buffers_) {
    b = check::MakeMappedBuffer(context_, kMemoryBindingBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  }
  constants_buffer_ =
      check::MakeMappedBuffer(context_, sizeof(XeConstants), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  system_buffer_ =
      check::MakeMappedBuffer(context_, sizeof(XeSystemConstants), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  texture_staging_ =
      check::MakeMappedBuffer(context_, sizeof(texels), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);

  // xe_textures are sampler2DArray: a 2x2 2D image seen through a one-layer array view.
  texture_ = check::MakeDeviceImage(context_, VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY,
                                    VK_FORMAT_R8G8B8A8_UNORM, {2, 2, 1}, 1,
                                    VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                    VK_IMAGE_ASPECT_COLOR_BIT);
  VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sampler.magFilter = VK_FILTER_NEAREST;
  sampler.minFilter = VK_FILTER_NEAREST;
  sampler.addressModeU = sampler.addressModeV = sampler.addressModeW =
      VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  sampler.maxLod = 0.0f;
  CheckVk(vkCreateSampler(device_, &sampler, nullptr, &sampler_), "vkCreateSampler");

  VkDescriptorBufferInfo memory_infos[kSharedMemoryBindingCount];
  for (uint32_t i = 0; i < kSharedMemoryBindingCount; ++i) {
    memory_infos[i] = {memory_buffers_[i].buffer, 0, VK_WHOLE_SIZE};
  }
  std::array<VkDescriptorBufferInfo, kXeConstantPartCount> constants_infos;
  VkDescriptorBufferInfo system_info{system_buffer_.buffer, 0, VK_WHOLE_SIZE};
  VkDescriptorImageInfo image_infos[kTextureBindingCount];
  for (auto& info : image_infos) {
    info = {sampler_, texture_.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  }
  VkWriteDescriptorSet writes[3] = {};
  for (auto& w : writes) w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
  writes[0].dstSet = sets_[0];
  writes[0].dstBinding = kSharedMemoryBinding;
  writes[0].descriptorCount = kSharedMemoryBindingCount;
  writes[0].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  writes[0].pBufferInfo = memory_infos;
  writes[1].dstSet = sets_[1];
  writes[1].dstBinding = kSystemConstantsBinding;
  writes[1].descriptorCount = 1;
  writes[1].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  writes[1].pBufferInfo = &system_info;
  writes[2].dstSet = sets_[2];
  writes[2].dstBinding = kTexturesBinding;
  writes[2].descriptorCount = kTextureBindingCount;
  writes[2].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  writes[2].pImageInfo = image_infos;
  vkUpdateDescriptorSets(device_, 3, writes, 0, nullptr);
  // The guest constants' three parts from the one XeConstants buffer.
  const auto constants_writes =
      check::GuestConstantWrites(sets_[1], constants_buffer_.buffer, constants_infos);
  vkUpdateDescriptorSets(device_, kXeConstantPartCount, constants_writes.data(), 0, nullptr);

  // Texture fetch constants: type 2 (texture) with the identity swizzle xyzw (dword 3 bits 1-12,
  // 3 bits per component), as a title's texture set-up leaves them.
  for (uint32_t i = 0; i < kTextureBindingCount; ++i) {
    constants.fetch_constants[i * 6] = 2u;
    constants.fetch_constants[i * 6 + 3] = (0u | (1u << 3) | (2u << 6) | (3u << 9)) << 1;
  }
  // Identity VTE: ndc = position.
  for (int i = 0; i < 3; ++i) system.ndc_scale[i] = 1.0f;
  system.ndc_scale[3] = 1.0f;
  system.flags = kXeSysFlagWNotReciprocal;
  system.point_size_min_max[0] = 1.0f;
  system.point_size_min_max[1] = 1.0f;
  system.point_size_min_max[2] = 1.0f;
}

DrawHarness::~DrawHarness() {
  vkDeviceWaitIdle(device_);
  vkDestroySampler(device_, sampler_, nullptr);
  check::Destroy(device_, texture_);
  for (auto& b : memory_buffers_) check::Destroy(device_, b);
  check::Destroy(device_, constants_buffer_);
  check::Destroy(device_, system_buffer_);
  check::Destroy(device_, texture_staging_);
  vkDestroyDescriptorPool(device_, pool_, nullptr);
  vkDestroyPipelineLayout(device_, pipeline_layout_, nullptr);
  for (auto l : set_layouts_) vkDestroyDescriptorSetLayout(device_, l, nullptr);
}

namespace {

// One colour attachment of `format`, cleared, left ready for a transfer read.
VkRenderPass MakeColorRenderPass(VkDevice device, VkFormat format) {
  VkAttachmentDescription attachment{};
  attachment.format = format;
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachment.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &ref;
  VkSubpassDependency dependency{};
  dependency.srcSubpass = 0;
  dependency.dstSubpass = VK_SUBPASS_EXTERNAL;
  dependency.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dependency.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  dependency.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  dependency.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  VkRenderPassCreateInfo rp_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  rp_info.attachmentCount = 1;
  rp_info.pAttachments = &attachment;
  rp_info.subpassCount = 1;
  rp_info.pSubpasses = &subpass;
  rp_info.dependencyCount = 1;
  rp_info.pDependencies = &dependency;
  VkRenderPass render_pass = VK_NULL_HANDLE;
  CheckVk(vkCreateRenderPass(device, &rp_info, nullptr, &render_pass), "vkCreateRenderPass");
  return render_pass;
}

// No vertex input (the shaders fetch their own), no culling, no blending, one viewport = scissor.
VkPipeline MakePipeline(VkDevice device, VkPipelineLayout layout, VkRenderPass render_pass, VkShaderModule vs,
                        VkShaderModule fs, VkPrimitiveTopology topology, const VkRect2D& scissor,
                        const std::optional<uint32_t>& output_modes) {
  VkPipelineShaderStageCreateInfo stages[2] = {};
  stages[0].sType = stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vs;
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = fs;
  stages[1].pName = "main";
  const VkSpecializationMapEntry entry{kXeSpecColorOutputModes, 0, sizeof(uint32_t)};
  const VkSpecializationInfo specialization{1, &entry, sizeof(uint32_t),
                                            output_modes ? &*output_modes : nullptr};
  if (output_modes) stages[1].pSpecializationInfo = &specialization;
  VkPipelineVertexInputStateCreateInfo vertex_input{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = topology;
  VkViewport viewport{0.0f, 0.0f, float(scissor.extent.width), float(scissor.extent.height), 0.0f, 1.0f};
  VkPipelineViewportStateCreateInfo viewport_state{
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport_state.viewportCount = 1;
  viewport_state.pViewports = &viewport;
  viewport_state.scissorCount = 1;
  viewport_state.pScissors = &scissor;
  VkPipelineRasterizationStateCreateInfo raster{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend_attachment{};
  blend_attachment.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.attachmentCount = 1;
  blend.pAttachments = &blend_attachment;
  VkGraphicsPipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  pipeline_info.stageCount = 2;
  pipeline_info.pStages = stages;
  pipeline_info.pVertexInputState = &vertex_input;
  pipeline_info.pInputAssemblyState = &assembly;
  pipeline_info.pViewportState = &viewport_state;
  pipeline_info.pRasterizationState = &raster;
  pipeline_info.pMultisampleState = &multisample;
  pipeline_info.pColorBlendState = &blend;
  pipeline_info.layout = layout;
  pipeline_info.renderPass = render_pass;
  VkPipeline pipeline = VK_NULL_HANDLE;
  CheckVk(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline),
          "vkCreateGraphicsPipelines");
  return pipeline;
}

}  // namespace

std::vector<float> DrawHarness::Draw(const std::vector<uint32_t>& vertex_spirv,
                                     const std::vector<uint32_t>& fragment_spirv,
                                     VkPrimitiveTopology topology, uint32_t vertex_count,
                                     uint32_t width, uint32_t height) {
  std::memcpy(memory_buffers_[0].mapped, memory.data(),
              std::min<size_t>(memory.size(), kMemoryBindingBytes));
  std::memcpy(constants_buffer_.mapped, &constants, sizeof(constants));
  std::memcpy(system_buffer_.mapped, &system, sizeof(system));
  std::memcpy(texture_staging_.mapped, texels.data(), sizeof(texels));

  const VkFormat format = VK_FORMAT_R32G32B32A32_SFLOAT;
  check::DeviceImage target = check::MakeDeviceImage(
      context_, VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D, format, {width, height, 1}, 1,
      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
      VK_IMAGE_ASPECT_COLOR_BIT);

  VkRenderPass render_pass = MakeColorRenderPass(device_, format);
  VkFramebufferCreateInfo fb_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fb_info.renderPass = render_pass;
  fb_info.attachmentCount = 1;
  fb_info.pAttachments = &target.view;
  fb_info.width = width;
  fb_info.height = height;
  fb_info.layers = 1;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  CheckVk(vkCreateFramebuffer(device_, &fb_info, nullptr, &framebuffer), "vkCreateFramebuffer");

  VkShaderModule vs = check::MakeShaderModule(device_, vertex_spirv.data(), vertex_spirv.size());
  VkShaderModule fs =
      check::MakeShaderModule(device_, fragment_spirv.data(), fragment_spirv.size());
  const VkRect2D scissor{{0, 0}, {width, height}};
  VkPipeline pipeline = MakePipeline(device_, pipeline_layout_, render_pass, vs, fs, topology, scissor,
                                     color_output_modes_specialization);

  const VkDeviceSize readback_size = VkDeviceSize(width) * height * 16;
  Buffer readback = check::MakeMappedBuffer(context_, readback_size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

  context_.SubmitAndWait([&](VkCommandBuffer cmd) {
    VkImageMemoryBarrier to_dst{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    to_dst.srcAccessMask = 0;
    to_dst.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_dst.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    to_dst.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    to_dst.srcQueueFamilyIndex = to_dst.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_dst.image = texture_.image;
    to_dst.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                         0, nullptr, 0, nullptr, 1, &to_dst);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {2, 2, 1};
    vkCmdCopyBufferToImage(cmd, texture_staging_.buffer, texture_.image,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    VkImageMemoryBarrier to_read = to_dst;
    to_read.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_read.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    to_read.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    to_read.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                         0, 0, nullptr, 0, nullptr, 1, &to_read);

    VkClearValue clear{};
    for (float& c : clear.color.float32) c = clear_value;
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = render_pass;
    begin.framebuffer = framebuffer;
    begin.renderArea = scissor;
    begin.clearValueCount = 1;
    begin.pClearValues = &clear;
    vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_layout_, 0, 3,
                            sets_.data(), 0, nullptr);
    vkCmdDraw(cmd, vertex_count, 1, 0, 0);
    vkCmdEndRenderPass(cmd);
    VkBufferImageCopy out{};
    out.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    out.imageExtent = {width, height, 1};
    vkCmdCopyImageToBuffer(cmd, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1,
                           &out);
    VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &host, 0, nullptr, 0, nullptr);
  });

  std::vector<float> result(size_t(width) * height * 4);
  std::memcpy(result.data(), readback.mapped, readback_size);
  check::Destroy(device_, readback);
  vkDestroyPipeline(device_, pipeline, nullptr);
  vkDestroyShaderModule(device_, vs, nullptr);
  vkDestroyShaderModule(device_, fs, nullptr);
  vkDestroyFramebuffer(device_, framebuffer, nullptr);
  vkDestroyRenderPass(device_, render_pass, nullptr);
  check::Destroy(device_, target);
  return result;
}

}  // namespace xnt::vk::test
