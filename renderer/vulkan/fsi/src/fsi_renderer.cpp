// fsi render path engine (see fsi_renderer.h): set-up, draws and the EDRAM buffer's transfers.
// Resolves and the swap are in fsi_resolve.cpp; textures and memexport are the shared
// path_renderer.h's.
#include "xnt/vk/fsi/fsi_renderer.h"

#include <algorithm>
#include <cstring>

#include "edram_compute.h"
#include "output_merger_state.h"
#include "xnt/base/error.h"
#include "xnt/gpu/draw_plan.h"
#include "xnt/vk/draw_state.h"
#include "xnt/vk/host_shaders.h"
#include "xnt/vk/kept_objects.h"
#include "xnt/vk/translator/output_merger_interface.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk::fsi {

using xenos::Reg;

namespace {


uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace

const char* FsiOrderingName(FsiOrdering ordering) {
  return ordering == FsiOrdering::kInterlock ? "interlock" : "unordered";
}

size_t FsiRenderer::PipelineKeyHash::operator()(const PipelineKey& k) const {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  mix(uint64_t(reinterpret_cast<uintptr_t>(k.vs)));
  mix(uint64_t(reinterpret_cast<uintptr_t>(k.ps)));
  mix(k.topology | (uint64_t(k.polygon_mode) << 8) | (uint64_t(k.samples) << 16) |
      (uint64_t(k.polygon_offset_gs) << 32) | (uint64_t(k.depth_clamp) << 33) |
      (uint64_t(k.clip_distances) << 40) | (uint64_t(k.cull_distances) << 48));
  mix(uint64_t(reinterpret_cast<uintptr_t>(k.quad_shader)));
  return size_t(h);
}

FsiRenderer::FsiRenderer(VulkanContext& context, FsiOrdering ordering, gpu::RendererOptions options)
    : PathRenderer(context, options), ordering_(ordering), model_(options.scale_x, options.scale_y) {
  if (ordering_ == FsiOrdering::kInterlock && !context.capabilities().fragment_shader_interlock) {
    throw Error("--path fsi: " + context.capabilities().device_name +
                " lacks VK_EXT_fragment_shader_interlock (fragmentShaderPixelInterlock); the "
                "fsi path needs it to order its EDRAM writes (--fsi-ordering unordered is a "
                "test mode for lavapipe only, see docs/fsi.md)");
  }
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(context.physical_device(), &props);
  const uint32_t height_limit =
      std::min(props.limits.maxFramebufferHeight, props.limits.maxViewportDimensions[1]);
  guest_height_ = std::min<uint32_t>(8192, height_limit / options_.scale_y);
  render_area_width_ =
      std::min(props.limits.maxFramebufferWidth, props.limits.maxViewportDimensions[0]);
  render_area_height_ = guest_height_ * options_.scale_y;
  CreateEdramBuffer();
  CreateOutputMergerSet();
  depth_only_ps_ = CreateModule(CompileHostGlsl(
      OutputMergerDepthOnlyShaderGlsl(ordering_ == FsiOrdering::kInterlock),
      VK_SHADER_STAGE_FRAGMENT_BIT, "fsi_depth_only"));
  Flush();
}

void FsiRenderer::CreateEdramBuffer() {
  // 10 MiB of guest bits times the scale, zero like the model.
  edram_bytes_ = uint64_t(xenos::kEdramSizeBytes) * options_.scale_x * options_.scale_y;
  context_.CreateBuffer(edram_bytes_,
                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                            VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, edram_, edram_memory_,
                        "EDRAM buffer");
  vkCmdFillBuffer(stream_.cmd(), edram_, 0, VK_WHOLE_SIZE, 0);
}

void FsiRenderer::CreateOutputMergerSet() {
  // Set 3: the EDRAM and the output merger's constants (output_merger_interface.h).
  const VkDescriptorSetLayoutBinding om[2] = {
      LayoutBinding(kEdramBinding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_FRAGMENT_BIT),
      LayoutBinding(kOutputMergerConstantsBinding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                    VK_SHADER_STAGE_FRAGMENT_BIT)};
  // Kept with the device, as the pipelines made over them (kept_objects.h).
  om_layout_ = context_.kept().SetLayout(om, "vkCreateDescriptorSetLayout(fsi)");
  const VkDescriptorSetLayout sets[4] = {shared_memory_.set_layout(), layouts_.constants_layout(),
                                         layouts_.textures_layout(), om_layout_};
  pipeline_layout_ = context_.kept().PipelineLayout(sets, {}, "vkCreatePipelineLayout(fsi)");

  // One set per draw (descriptor_set_ring.h): the EDRAM written once when the set is made, the
  // draw's constants by each draw (UploadDrawData).
  om_sets_ = std::make_unique<DescriptorSetRing>(
      device_, om_layout_,
      std::vector<VkDescriptorPoolSize>{{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1},
                                        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}},
      "vkCreateDescriptorPool(fsi)", [this](VkDescriptorSet set) {
        const VkDescriptorBufferInfo edram{edram_, 0, VK_WHOLE_SIZE};
        const VkWriteDescriptorSet write =
            BufferWrite(set, kEdramBinding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &edram);
        vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
      });
}

FsiRenderer::~FsiRenderer() {
  try {
    Flush();
  } catch (...) {
    // Destruction must not throw; the device is idled below either way.
  }
  context_.WaitIdle();
  om_sets_.reset();
  if (edram_) vkDestroyBuffer(device_, edram_, nullptr);
  if (edram_memory_) vkFreeMemory(device_, edram_memory_, nullptr);
}

VkPipeline FsiRenderer::GetPipeline(const PipelineKey& key) {
  auto it = pipelines_.find(key);
  if (it != pipelines_.end()) return it->second;
  // Kept with the device for its later sessions (kept_objects.h): modules and layout are kept
  // handles, the rest the key's fields.
  std::string kept_key = "fsi draw";
  AppendKeyBytes(kept_key, pipeline_layout_, key.vs, key.ps, key.quad_shader, key.topology,
                 key.polygon_mode, key.samples, uint32_t(key.polygon_offset_gs),
                 uint32_t(key.depth_clamp), key.clip_distances, key.cull_distances);
  const VkPipeline pipeline =
      context_.kept().Pipeline(kept_key, [&] { return CreatePipeline(key); });
  pipelines_.emplace(key, pipeline);
  return pipeline;
}

VkPipeline FsiRenderer::CreatePipeline(const PipelineKey& key) const {
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  stage.pName = "main";
  stage.stage = VK_SHADER_STAGE_VERTEX_BIT;
  stage.module = key.vs;
  stages.push_back(stage);
  const auto topology = gpu::HostTopology(key.topology);
  if (topology == gpu::HostTopology::kRectangleList) {
    if (!context_.capabilities().geometry_shader) {
      throw Error("rectangle lists need geometry shaders, which this device lacks");
    }
    // PathRenderer::QuadsOf's rectangle-list geometry shader for the vertex shader's distances.
    stage.stage = VK_SHADER_STAGE_GEOMETRY_BIT;
    stage.module = key.quad_shader;
    stages.push_back(stage);
  } else if (key.quad_shader) {
    stage.stage = VK_SHADER_STAGE_GEOMETRY_BIT;
    stage.module = key.quad_shader;
    stages.push_back(stage);
  }
  stage.stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stage.module = key.ps;
  stages.push_back(stage);

  VkPipelineVertexInputStateCreateInfo vertex_input{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo input_assembly{
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  input_assembly.topology = topology == gpu::HostTopology::kPointList
                                ? VK_PRIMITIVE_TOPOLOGY_POINT_LIST
                                : topology == gpu::HostTopology::kLineList
                                      ? VK_PRIMITIVE_TOPOLOGY_LINE_LIST
                                      : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VkPolygonMode(key.polygon_mode);
  raster.depthClampEnable = key.depth_clamp ? VK_TRUE : VK_FALSE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VkSampleCountFlagBits(key.samples);
  VkPipelineDepthStencilStateCreateInfo depth_stencil{
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  VkPipelineColorBlendStateCreateInfo color_blend{
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR,
                                           VK_DYNAMIC_STATE_CULL_MODE, VK_DYNAMIC_STATE_FRONT_FACE,
                                           VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY,
                                           VK_DYNAMIC_STATE_LINE_WIDTH};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = uint32_t(std::size(dynamic_states));
  dynamic.pDynamicStates = dynamic_states;
  // No attachments at all: the fragment shader writes the EDRAM buffer.
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.pNext = &rendering;
  info.stageCount = uint32_t(stages.size());
  info.pStages = stages.data();
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &input_assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth_stencil;
  info.pColorBlendState = &color_blend;
  info.pDynamicState = &dynamic;
  info.layout = pipeline_layout_;
  VkPipeline pipeline = VK_NULL_HANDLE;
  CheckVk(vkCreateGraphicsPipelines(device_, context_.pipeline_cache(), 1, &info, nullptr, &pipeline),
          "vkCreateGraphicsPipelines(fsi)");
  return pipeline;
}

void FsiRenderer::BeginRendering(uint32_t width, uint32_t height) {
  EndRendering();
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
  rendering.renderArea = {{0, 0}, {width, height}};
  rendering.layerCount = 1;
  vkCmdBeginRendering(stream_.cmd(), &rendering);
  rendering_ = true;
}

void FsiRenderer::EndRendering() {
  if (!rendering_) return;
  vkCmdEndRendering(stream_.cmd());
  rendering_ = false;
}

void FsiRenderer::BarrierAfterDraws(VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
  EndRendering();
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = dst_access;
  vkCmdPipelineBarrier(stream_.cmd(), VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, dst_stage, 0, 1,
                       &barrier, 0, nullptr, 0, nullptr);
  draws_since_barrier_ = false;
}

bool FsiRenderer::Draw(const FsiDrawInput& draw, const gpu::GuestMemoryAccess& memory) {
  const gpu::RegisterValues regs = draw.regs;
  gpu::DrawPlan plan = PlanDrawInput(draw, {options_.scale_x, options_.scale_y});
  if (plan.resolve) {
    Resolve(regs, memory);
    return true;
  }
  // A draw run for its pixel-shader exports alone (DrawPlan::exports_only) goes through with
  // every colour write and the depth/stencil test off, so the output merger epilogue writes
  // nothing to the EDRAM and only the exports remain.
  using gpu::DrawSkip;
  if (Skipped(plan, {DrawSkip::kEdramMode, DrawSkip::kPrimitiveType, DrawSkip::kSurfacePitch,
                     DrawSkip::kNoTarget})) {
    return false;
  }
  // Ownership is logged as every path logs it; the data never moves (one EDRAM of guest bits).
  const gpu::EdramEventTargets targets =
      gpu::EdramTargetsForDraw(regs, plan.color_used, plan.depth.used, draw.estimate_rows);
  tracker_.Use(tracker_.BeginEvent(), targets.used, targets.bound, "draw",
               [this](const auto& t, auto& entry) { MoveEdram(t, entry); });

  const gpu::HostPrimitives prims = DrawPrimitives(draw);
  gpu::PlanPrimitives(plan, prims);
  if (Skipped(plan, {DrawSkip::kNoPrimitive})) return false;
  // Guest viewport over pitch x guest_height_ guest pixels; the host's is S x T times larger,
  // and must fit the device's viewport and framebuffer width (a pitch past 10,922 guest pixels
  // at 3x on a 32,768-pixel device: garbage registers, not a frame a title draws).
  if (uint64_t(plan.surface_pitch) * plan.scale.x > render_area_width_) {
    Note("draw skipped: surface pitch " + std::to_string(plan.surface_pitch) + " at " +
         std::to_string(plan.scale.x) + "x is wider than the device's viewport (" +
         std::to_string(render_area_width_) + " host pixels)");
    if (!draw.continues_draw) ++stats_.draws_skipped;
    return false;
  }
  gpu::PlanScissor(plan, regs, plan.surface_pitch, guest_height_);
  if (Skipped(plan, {DrawSkip::kEmptyScissor})) return false;
  OutputMergerInput om_input;
  om_input.has_pixel_shader = draw.pixel_shader != VK_NULL_HANDLE;
  om_input.scale_x = plan.scale.x;
  om_input.scale_y = plan.scale.y;
  om_input.derivatives = options_.derivatives;
  std::copy(plan.color_used, plan.color_used + 4, om_input.color_used);
  om_input.polygonal = plan.polygonal;
  om_input.host_samples = HostSamples(plan.samples);

  // Everything recorded outside rendering first: memory, textures, the barrier between draws.
  SyncSharedMemory(draw, memory);
  uint32_t scaled_slots = 0;
  const VkDescriptorSet textures_set = BindTextures(draw, regs, memory, &scaled_slots);
  if (ordering_ == FsiOrdering::kUnordered && draws_since_barrier_) {
    // Without interlock, each draw's EDRAM writes are made visible to the next by a barrier.
    BarrierAfterDraws(VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  }
  const DrawQuads quads = QuadsOf(plan, draw);
  const DrawUpload upload = UploadDrawData(draw, plan, prims, om_input, scaled_slots, quads.kind);
  HostRasterizer raster;
  const VkPipeline pipeline =
      DrawPipeline(draw, regs, plan, om_input.host_samples, quads, raster);
  BeginDrawRendering(plan);
  VkCommandBuffer cmd = stream_.cmd();

  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  VkDescriptorSet sets[4] = {shared_memory_.descriptor_set(), upload.constants.set, textures_set,
                             upload.om_set};
  const uint64_t base = upload.allocation.offset;
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_layout_, 0, 4, sets, 0,
                          nullptr);
  vkCmdBindIndexBuffer(cmd, upload.allocation.buffer, base, VK_INDEX_TYPE_UINT32);
  const VkViewport vp{0.0f, 0.0f, float(plan.surface_pitch * plan.scale.x),
                      float(guest_height_ * plan.scale.y), plan.viewport.host_depth_min,
                      plan.viewport.host_depth_max};
  vkCmdSetViewport(cmd, 0, 1, &vp);
  if (const std::string n = gpu::HostDepthRangeNote(plan.viewport); !n.empty()) Note(n);
  const VkRect2D scissor = ToVkRect(plan.host_scissor);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
  vkCmdSetCullMode(cmd, raster.cull);
  vkCmdSetFrontFace(cmd, raster.front_face);
  vkCmdSetPrimitiveTopology(cmd, plan.topology == gpu::HostTopology::kPointList
                                     ? VK_PRIMITIVE_TOPOLOGY_POINT_LIST
                                     : plan.topology == gpu::HostTopology::kLineList
                                           ? VK_PRIMITIVE_TOPOLOGY_LINE_LIST
                                           : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  SetLineWidth(cmd, regs, plan.topology, quads.kind);
  vkCmdDrawIndexed(cmd, uint32_t(prims.indices.size()), 1, 0, 0, 0);
  if (ordering_ == FsiOrdering::kUnordered) EndRendering();
  draws_since_barrier_ = true;
  gpu_wrote_ = true;
  if (!draw.continues_draw) ++stats_.draws;  // a tessellated draw in parts counts once
  return true;
}

uint32_t FsiRenderer::HostSamples(uint32_t guest_samples) {
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(context_.physical_device(), &props);
  const VkSampleCountFlags counts = props.limits.framebufferNoAttachmentsSampleCounts;
  if (counts & guest_samples) return guest_samples;
  if (guest_samples == 2 && (counts & VK_SAMPLE_COUNT_4_BIT)) {
    Note("2x MSAA coverage from 4 host samples (the device lacks 2 samples without "
         "attachments): guest sample positions approximated");
    return 4;
  }
  Note("MSAA coverage from 1 host sample (the device lacks the sample count)");
  return 1;
}

FsiRenderer::DrawUpload FsiRenderer::UploadDrawData(const FsiDrawInput& draw,
                                                    const gpu::DrawPlan& plan,
                                                    const gpu::HostPrimitives& prims,
                                                    const OutputMergerInput& om_input,
                                                    uint32_t scaled_slots,
                                                    PrimitiveQuads quads) {
  // One ring allocation: the indices, then the system and output merger constants, then a
  // tessellated draw's domain inputs; the guest constants after it, part by part
  // (PlaceGuestConstants), all in the same submission.
  const gpu::RegisterValues regs = draw.regs;
  DrawUpload upload;
  uint64_t ubo_align = UniformAlignment();
  const uint64_t index_bytes = prims.indices.size() * 4;
  upload.system_offset = AlignUp(index_bytes, ubo_align);
  upload.om_offset = AlignUp(upload.system_offset + sizeof(XeSystemConstants), ubo_align);
  uint64_t total = upload.om_offset + sizeof(XeOutputMergerConstants);
  const gpu::TessellatedDraw* tess = draw.tessellation.get();
  upload.domain_offset = ReserveDomainInputs(tess, total, ubo_align);
  upload.allocation = AllocateDrawData(draw, total, ubo_align, upload.constants);
  WriteConstantsSet(upload.constants, upload.allocation, upload.system_offset, upload.domain_offset,
                    DomainInputBytes(tess));
  upload.om_set = om_sets_->Next(stream_.submission_count());
  const VkDescriptorBufferInfo om_buffer{
      upload.allocation.buffer, upload.allocation.offset + upload.om_offset,
      sizeof(XeOutputMergerConstants)};
  const VkWriteDescriptorSet om_write = BufferWrite(
      upload.om_set, kOutputMergerConstantsBinding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &om_buffer);
  vkUpdateDescriptorSets(device_, 1, &om_write, 0, nullptr);
  std::memcpy(upload.allocation.data, prims.indices.data(), index_bytes);
  if (tess) WriteDomainInputs(*tess, upload.allocation.data + upload.domain_offset);
  XeSystemConstants system = ComputeSystemConstants(regs, plan.viewport, plan.topology, quads);
  system.color_output_modes = 0;  // unused: the output merger packs the guest formats itself
  // Resolution scale for the translated shaders (param gen in guest pixels: shader_interface.h).
  system.resolution_scale = plan.scale.x | (plan.scale.y << 8);
  if (options_.derivatives == gpu::ScaledDerivatives::kHost) {
    system.resolution_scale |= kXeResolutionScaleHostDerivatives;
  }
  system.scaled_texture_slots = scaled_slots;
  std::memcpy(upload.allocation.data + upload.system_offset, &system, sizeof(system));
  const XeOutputMergerConstants om = ComputeOutputMergerConstants(regs, om_input);
  std::memcpy(upload.allocation.data + upload.om_offset, &om, sizeof(om));
  return upload;
}

VkPipeline FsiRenderer::DrawPipeline(const FsiDrawInput& draw, gpu::RegisterValues regs,
                                     const gpu::DrawPlan& plan, uint32_t host_samples,
                                     const DrawQuads& quads, HostRasterizer& raster) {
  PipelineKey key;
  key.vs = draw.vertex_shader;
  key.topology = uint32_t(plan.topology);
  key.quad_shader = quads.shader;
  raster = ComputeRasterizer(regs, plan.topology, quads.kind);
  key.polygon_mode = uint32_t(raster.polygon_mode);
  key.depth_clamp = HostDepthClamp(raster);
  key.samples = host_samples;
  key.polygon_offset_gs =
      draw.exact_polygon_offset && plan.topology == gpu::HostTopology::kTriangleList;
  if (key.polygon_offset_gs) {
    key.clip_distances = draw.clip_distances;
    key.cull_distances = draw.cull_distances;
  }
  key.ps = draw.pixel_shader;
  if (!key.ps && key.polygon_offset_gs) {
    // A depth pre-pass's samples from the snapped vertices too, as its later EQUAL-tested
    // colour pass computes them (docs/fsi.md "Polygon offset").
    if (!depth_only_exact_ps_) {
      depth_only_exact_ps_ = CreateModule(CompileHostGlsl(
          OutputMergerDepthOnlyShaderGlsl(ordering_ == FsiOrdering::kInterlock, true),
          VK_SHADER_STAGE_FRAGMENT_BIT, "fsi_depth_only_exact"));
    }
    key.ps = depth_only_exact_ps_;
  } else if (!key.ps) {
    key.ps = depth_only_ps_;
  }
  return GetPipeline(key);
}

void FsiRenderer::BeginDrawRendering(const gpu::DrawPlan& plan) {
  if (ordering_ == FsiOrdering::kInterlock) {
    // Interlock orders the critical sections of overlapping fragments in rasterization order,
    // which Vulkan defines within one render pass instance only: consecutive draws stay in one
    // instance covering the largest render area (no attachments, so it costs nothing), and a
    // new instance after draws starts behind a barrier.
    if (!rendering_) {
      if (draws_since_barrier_) {
        BarrierAfterDraws(VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
      }
      BeginRendering(render_area_width_, render_area_height_);
    }
  } else {
    // Unordered: one instance per draw, its area down to the scissor's bottom row (llvmpipe bins
    // the whole area).
    BeginRendering(plan.surface_pitch * plan.scale.x,
                   uint32_t(plan.host_scissor.offset.y) + plan.host_scissor.extent.height);
  }
}

void FsiRenderer::MoveEdram(const gpu::edram::Transfer& transfer, gpu::EdramLogEntry& entry) {
  entry.on_gpu = true;
  if (transfer.source.edram_snapshot &&
      gpu::edram::SnapshotNeedsRelayout(transfer.dest, options_.scale_x, options_.scale_y)) {
    EndRendering();
    ReadBack();  // the other tiles keep what draws wrote since the restore
    bool rewritten = false;
    snapshot_.Move(transfer, model_, entry, &rewritten);
    Upload();
    entry.on_gpu = false;
    return;
  }
  entry.data_moved = true;
  entry.note += "in place (fsi path: one EDRAM buffer of guest bits)";
}

void FsiRenderer::RestoreEdram(std::span<const uint8_t> guest) {
  EndRendering();
  snapshot_.Restore(guest, model_, tracker_);
  Upload();
  gpu_wrote_ = false;
}

void FsiRenderer::ReadBack() {
  if (!gpu_wrote_) return;
  BarrierAfterDraws(VK_PIPELINE_STAGE_TRANSFER_BIT,
                    VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  const std::span<uint8_t> bytes = model_.bytes();
  for (uint64_t at = 0; at < edram_bytes_; at += kTransferChunk) {
    const uint64_t size = std::min(kTransferChunk, edram_bytes_ - at);
    const CommandStream::Allocation alloc = RingAllocate(size, 16);
    const VkBufferCopy region{at, alloc.offset, size};
    vkCmdCopyBuffer(stream_.cmd(), edram_, alloc.buffer, 1, &region);
    Flush();  // submits and waits: the ring holds the bytes until the next allocation
    std::memcpy(bytes.data() + at, alloc.data, size_t(size));
  }
  gpu_wrote_ = false;
  ++stats_.readbacks;
}

void FsiRenderer::Upload() {
  BarrierAfterDraws(VK_PIPELINE_STAGE_TRANSFER_BIT,
                    VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  const std::span<const uint8_t> bytes = model_.bytes();
  for (uint64_t at = 0; at < edram_bytes_; at += kTransferChunk) {
    const uint64_t size = std::min(kTransferChunk, edram_bytes_ - at);
    const CommandStream::Allocation alloc = RingAllocate(size, 16);
    std::memcpy(alloc.data, bytes.data() + at, size_t(size));
    const VkBufferCopy region{alloc.offset, at, size};
    vkCmdCopyBuffer(stream_.cmd(), alloc.buffer, edram_, 1, &region);
  }
  CmdMemoryBarrier(stream_.cmd(), VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  ++stats_.uploads;
}

const gpu::edram::Edram& FsiRenderer::Snapshot() {
  ReadBack();
  return model_;
}

}  // namespace xnt::vk::fsi
