// What the Vulkan render paths share (see path_renderer.h): set-up, shader modules, the
// constants and all-dummy texture sets, flushing.
#include "xnt/vk/path_renderer.h"

#include <cstring>

#include "xnt/base/error.h"
#include "xnt/gpu/polygon_mode.h"
#include "xnt/vk/draw_state.h"
#include "xnt/vk/host_shaders.h"
#include "xnt/vk/kept_objects.h"
#include "xnt/vk/scaled_resolve_mirror.h"
#include "xnt/vk/translator/output_merger_interface.h"
#include "xnt/vk/translator/polygon_mode.h"
#include "xnt/vk/translator/shader_interface.h"
#include "xnt/xenos/enums.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {

PathRenderer::PathRenderer(VulkanContext& context, gpu::RendererOptions options)
    : context_(context),
      device_(context.device()),
      options_(options),
      stream_(context,
              context.initial_ring_bytes() ? context.initial_ring_bytes() : kInitialRingSize,
              kRingSize),
      shared_memory_(context, stream_),
      layouts_(context, shared_memory_.set_layout()),
      textures_(context, stream_, shared_memory_),
      samplers_(context),
      guest_constants_(UniformAlignment()),
      constants_sets_(device_, layouts_.constants_layout(),
                      {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 + kXeConstantPartCount},
                       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}},
                      "vkCreateDescriptorPool(constants)"),
      texture_sets_(device_, layouts_.textures_layout(),
                    {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                      kTextureBindingCount * kTextureBindingArrays}},
                    "vkCreateDescriptorPool(textures)") {
  stream_.set_before_submit([this](VkCommandBuffer) { EndRendering(); });
  // Texture loads are compute dispatches: outside rendering. They read the mirror over ranges
  // the shared memory is not told of, so no later upload of the submission may pass them.
  textures_.set_before_load([this] {
    EndRendering();
    shared_memory_.CloseAhead();
  });
  CreateDescriptorSets();
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(context.physical_device(), &props);
  line_width_range_[0] = props.limits.lineWidthRange[0];
  line_width_range_[1] = props.limits.lineWidthRange[1];
  if (context.labels_unavailable()) {
    Note("debug labels not recorded: the Vulkan instance offers no VK_EXT_debug_utils");
  }
}

PathRenderer::~PathRenderer() {
  // The path's destructor has flushed; nothing may still use the sets (the modules are the
  // device's, kept_objects.h).
  context_.WaitIdle();
  if (descriptor_pool_) vkDestroyDescriptorPool(device_, descriptor_pool_, nullptr);
}

void PathRenderer::CreateDescriptorSets() {
  const VkDescriptorPoolSize sizes[1] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                          kTextureBindingCount * kTextureBindingArrays}};
  descriptor_pool_ = CreateDescriptorPool(device_, 1, sizes, 1, "vkCreateDescriptorPool(renderer)");
  const VkDescriptorSetLayout textures_layout = layouts_.textures_layout();
  AllocateSets(device_, descriptor_pool_, &textures_layout, 1, &textures_set_,
               "vkAllocateDescriptorSets(renderer)");
  // The all-dummy texture set.
  WriteTextureSet(textures_set_, DummyImages());
}

VkShaderModule PathRenderer::CreateModule(const std::vector<uint32_t>& spirv) {
  return context_.kept().Module(spirv);
}

PathRenderer::DrawQuads PathRenderer::QuadsOf(const gpu::DrawPlan& plan, const DrawInput& draw) {
  const Capabilities& caps = context_.capabilities();
  DrawQuads quads;
  const gpu::PolygonModes modes = gpu::ReadPolygonModes(draw.regs);
  quads.kind = ComputePrimitiveQuads(plan.topology, plan.scale, caps.geometry_shader,
                                     caps.geometry_point_size, modes.Active());
  if (plan.topology == gpu::HostTopology::kTriangleList) {
    if (const std::string n = gpu::PolygonModeOffsetNote(draw.regs); !n.empty()) Note(n);
  }
  if (quads.kind == PrimitiveQuads::kPolygonModes) {
    quads.shader = PolygonModeShaderModule(modes, draw);
    return quads;
  }
  if (plan.topology == gpu::HostTopology::kTriangleList && modes.Active()) {
    Note("polygon modes (PA_SU_SC_MODE_CNTL poly_mode 1) through the host's polygonMode: one "
         "mode for both faces, host line and point rasterization (the device lacks geometry "
         "shaders reading gl_PointSize)");
  }
  if (plan.topology == gpu::HostTopology::kRectangleList) {
    // Not quads of another primitive, but a geometry shader all the same, keyed the same way
    // (the pipeline refuses rectangle lists on a device without geometry shaders).
    if (!caps.geometry_shader) return quads;
    const uint32_t key = 0xFFu | (draw.clip_distances << 8) | (draw.cull_distances << 16) |
                         (uint32_t(draw.kill_clip_distance) << 24);
    VkShaderModule& module = quad_shaders_[key];
    if (!module) {
      module = CreateModule(RectangleListGeometryShader(
          GeometryShaderInterpolators(context_.physical_device(), draw.clip_distances,
                                      draw.cull_distances),
          draw.clip_distances,
          draw.cull_distances, draw.kill_clip_distance));
    }
    quads.shader = module;
    return quads;
  }
  if (draw.exact_polygon_offset && plan.topology == gpu::HostTopology::kTriangleList) {
    // The triangle's exported positions for the pixel shader's exact depth (DrawInput::
    // exact_polygon_offset), keyed apart from the quads (kind 0xFE).
    // The vertex shader put its position after the interpolators passed on (PathBackend::
    // ExactDepthPositionLocation, for the most distances the draw may have).
    const uint32_t key = 0xFEu | (draw.clip_distances << 8) | (draw.cull_distances << 16) |
                         (draw.exact_position_location << 24);
    VkShaderModule& module = quad_shaders_[key];
    if (!module) {
      module = CreateModule(CompileHostGlsl(
          PolygonOffsetGeometryShaderGlsl(draw.exact_position_location, draw.clip_distances,
                                          draw.cull_distances),
          VK_SHADER_STAGE_GEOMETRY_BIT, "polygon_offset_gs"));
    }
    quads.shader = module;
    return quads;
  }
  if (quads.kind == PrimitiveQuads::kNone) {
    if (plan.topology == gpu::HostTopology::kPointList) {
      Note("points drawn square (PA_SU_POINT_SIZE width times the horizontal scale on both "
           "axes): the device lacks geometry shaders reading gl_PointSize "
           "(shaderTessellationAndGeometryPointSize)");
      if (draw.point_corner_planes) {
        Note("PA_CL_CLIP_CNTL ps_ucp_mode 2-3: point sprites kept or removed by their centre, not "
             "clipped at their corners (no point-quad geometry shader on this device)");
      }
    }
    return quads;
  }
  const bool points = quads.kind == PrimitiveQuads::kPoints;
  const uint32_t corner_planes = points ? draw.point_corner_planes : 0;
  const uint32_t key = uint32_t(quads.kind) | (draw.clip_distances << 8) |
                       (draw.cull_distances << 16) | (corner_planes << 24) |
                       (uint32_t(points && draw.point_corner_cull) << 28);
  VkShaderModule& module = quad_shaders_[key];
  if (!module) {
    module = CreateModule(QuadGeometryShader(
        quads.kind,
        GeometryShaderInterpolators(context_.physical_device(), draw.clip_distances,
                                    draw.cull_distances),
        draw.clip_distances,
        draw.cull_distances, corner_planes, points && draw.point_corner_cull));
  }
  quads.shader = module;
  return quads;
}

VkShaderModule PathRenderer::PolygonModeShaderModule(const gpu::PolygonModes& modes,
                                                     const DrawInput& draw) {
  const bool front_is_cw =
      gpu::DecodeRegister<xenos::reg::PA_SU_SC_MODE_CNTL>(draw.regs).face;
  PolygonModeShader s;
  s.clockwise = PolygonModeFill(uint32_t(modes.For(true, front_is_cw)));
  s.counter_clockwise = PolygonModeFill(uint32_t(modes.For(false, front_is_cw)));
  s.passed_interpolators = GeometryShaderInterpolators(context_.physical_device(),
                                                       draw.clip_distances, draw.cull_distances);
  s.clip_distances = draw.clip_distances;
  s.cull_distances = draw.cull_distances;
  s.kill_clip_distance = draw.kill_clip_distance;
  s.float64 = context_.capabilities().shader_float64;
  // Kind 0xFD, apart from the quads' and the polygon-offset shader's keys.
  const uint32_t key = 0xFDu | (s.clip_distances << 8) | (s.cull_distances << 16) |
                       (uint32_t(s.clockwise) << 24) | (uint32_t(s.counter_clockwise) << 26) |
                       (uint32_t(s.kill_clip_distance) << 28) | (uint32_t(s.float64) << 29);
  VkShaderModule& module = quad_shaders_[key];
  if (!module) {
    module = CreateModule(CompileHostGlsl(PolygonModeGeometryShaderGlsl(s),
                                          VK_SHADER_STAGE_GEOMETRY_BIT, "polygon_mode_gs"));
  }
  return module;
}

VkShaderModule PathRenderer::ShaderModule(uint64_t key, const std::vector<uint32_t>& spirv) {
  auto it = modules_.find(key);
  if (it != modules_.end()) return it->second;
  VkShaderModule module = CreateModule(spirv);
  modules_.emplace(key, module);
  return module;
}

PathRenderer::GuestConstants PathRenderer::PlaceGuestConstants(const DrawInput& draw) {
  const auto allocate = [this](uint64_t size, uint64_t alignment) {
    return RingAllocate(size, alignment);
  };
  for (;;) {
    // A flush while placing one part drops the ring copies the others were bound to.
    const uint64_t submission = stream_.submission_count();
    const GuestConstantBinding binding =
        guest_constants_.Place(draw.regs, draw.constant_reads, submission, allocate);
    if (stream_.submission_count() == submission) {
      return {constants_sets_.Next(submission), binding};
    }
  }
}

CommandStream::Allocation PathRenderer::AllocateDrawData(const DrawInput& draw, uint64_t size,
                                                         uint64_t alignment,
                                                         GuestConstants& constants) {
  for (;;) {
    const CommandStream::Allocation allocation = RingAllocate(size, alignment);
    const uint64_t submission = stream_.submission_count();
    constants = PlaceGuestConstants(draw);
    if (stream_.submission_count() == submission) return allocation;
  }
}

void PathRenderer::WriteConstantsSet(const GuestConstants& constants,
                                     const CommandStream::Allocation& allocation,
                                     uint64_t system_offset, uint64_t domain_offset,
                                     uint64_t domain_bytes) {
  // A draw that is not tessellated never reads the domain inputs; the binding still needs a
  // valid range, and an offset aligned for a storage buffer: the ring's start is.
  VkDescriptorBufferInfo buffers[5] = {
      {allocation.buffer, allocation.offset + system_offset, sizeof(XeSystemConstants)},
      domain_bytes ? VkDescriptorBufferInfo{allocation.buffer, allocation.offset + domain_offset,
                                            domain_bytes}
                   : VkDescriptorBufferInfo{allocation.buffer, 0, sizeof(gpu::DomainVertex)}};
  VkWriteDescriptorSet writes[5] = {
      BufferWrite(constants.set, kSystemConstantsBinding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                  &buffers[0]),
      BufferWrite(constants.set, kDomainInputsBinding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                  &buffers[1])};
  const GuestConstantBinding& binding = constants.binding;
  for (uint32_t part = 0; part < kXeConstantPartCount; ++part) {
    // The parts lie in the ring buffer of this submission, as the draw's own data does.
    buffers[2 + part] = {allocation.buffer, binding.offsets[part],
                         GuestConstantUploads::RangeBytes(part, binding.ranges[part])};
    writes[2 + part] = BufferWrite(constants.set, kXeConstantParts[part].binding,
                                   VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &buffers[2 + part]);
  }
  vkUpdateDescriptorSets(device_, 5, writes, 0, nullptr);
}

bool PathRenderer::SkipDraw(const gpu::DrawPlan& plan, std::initializer_list<gpu::DrawSkip> order,
                            gpu::PathStats& stats) {
  const gpu::DrawSkip reason = plan.FirstSkip(order);
  if (reason == gpu::DrawSkip::kNone) return false;
  Note(gpu::DrawSkipNote(reason, plan));
  ++stats.draws_skipped;
  return true;
}

bool PathRenderer::HostDepthClamp(const HostRasterizer& raster) {
  if (raster.depth_clamp && !context_.capabilities().depth_clamp) {
    Note("PA_CL_CLIP_CNTL clip_disable: the device lacks depthClamp, depth still clipped");
    return false;
  }
  return raster.depth_clamp;
}

uint64_t PathRenderer::ReserveDomainInputs(const gpu::TessellatedDraw* tess, uint64_t& total,
                                           uint64_t& alignment) const {
  if (!tess) return 0;
  // A larger draw comes in parts (DrawTessellatedInParts); one past it here would overrun.
  if (DomainInputBytes(tess) > kDomainInputsRange) {
    throw Error("tessellated draw of " + std::to_string(tess->vertices.size()) +
                " generated vertices past the domain-input binding, not cut into parts");
  }
  alignment = std::max({alignment, UniformAlignment(), StorageAlignment()});
  const uint64_t offset = (total + alignment - 1) / alignment * alignment;
  total = offset + DomainInputBytes(tess);
  return offset;
}

uint64_t PathRenderer::DomainInputBytes(const gpu::TessellatedDraw* tess) {
  if (!tess) return 0;
  // At least one vertex's worth: a range of 0 bytes is not a valid binding.
  return std::max<uint64_t>(1, tess->vertices.size()) * sizeof(gpu::DomainVertex);
}

void PathRenderer::WriteDomainInputs(const gpu::TessellatedDraw& tess, uint8_t* dst) {
  static_assert(sizeof(gpu::DomainVertex) == 32, "two vec4 per vertex");
  std::memcpy(dst, tess.vertices.data(), tess.vertices.size() * sizeof(gpu::DomainVertex));
}

CommandStream::Allocation PathRenderer::RingAllocate(uint64_t size, uint64_t alignment) {
  std::optional<CommandStream::Allocation> alloc = stream_.TryAllocate(size, alignment);
  if (!alloc) {
    Flush();
    alloc = stream_.TryAllocate(size, alignment);
  }
  return *alloc;
}

uint32_t PathRenderer::SyncSharedMemory(const DrawInput& draw,
                                        const gpu::GuestMemoryAccess& memory) {
  if (stream_.submission_count() != draws_submission_) submission_draws_ = 0;
  if (stream_.ring_used() > kSubmissionRingBound || submission_draws_ >= kSubmissionDrawBound) {
    Flush();
    submission_draws_ = 0;
  }
  draws_submission_ = stream_.submission_count();
  ++submission_draws_;
  uint32_t uploaded = 0;
  if (shared_memory_.MayNeedSync(memory.pages)) {
    uploaded += shared_memory_.SyncAhead(memory.pages);
    if (shared_memory_.MayNeedSync(memory.pages)) {
      // Copies in stream order are not allowed inside rendering.
      EndRendering();
      uploaded += shared_memory_.Sync(memory.pages);
    }
  }
  // What the vertex fetches can read: the translated fetch returns 0 outside [address, address +
  // size) of the fetch constant (glsl_prelude.cpp GlslVertexFetch), so those bytes are the whole
  // read (the ranges Xenia's command processors request per vertex fetch constant before a draw:
  // vulkan_command_processor.cc IssueDraw, SharedMemory::RequestRange).
  const gpu::RegisterValues regs = draw.regs;
  for (uint32_t slot = 0; slot < xenos::kVertexFetchConstantCount; ++slot) {
    if (!(draw.vertex_fetch_slots[slot / 32] & (1u << (slot % 32)))) continue;
    const uint32_t first = xenos::kFetchConstantBase + slot * 2;
    if (uint64_t(first) + 2 > regs.size()) continue;
    const auto fetch = xenos::VertexFetchConstant::Decode(regs[first], regs[first + 1]);
    shared_memory_.MarkRead(fetch.address_bytes(), uint64_t(fetch.size_dwords) * 4);
  }
  return uploaded;
}

void PathRenderer::SetLineWidth(VkCommandBuffer cmd, gpu::RegisterValues regs,
                                gpu::HostTopology topology, PrimitiveQuads quads) {
  vkCmdSetLineWidth(cmd, DrawLineWidth(regs, topology, quads));
}

float PathRenderer::DrawLineWidth(gpu::RegisterValues regs, gpu::HostTopology topology,
                                  PrimitiveQuads quads) {
  if (quads != PrimitiveQuads::kNone) return 1.0f;  // triangles: the geometry shader sets the width
  std::string note;
  const ResolutionScale scale{options_.scale_x, options_.scale_y};
  const float width = HostLineWidth(regs, topology, scale, context_.capabilities().wide_lines,
                                    line_width_range_, &note);
  if (!note.empty()) Note(note);
  return width;
}

void PathRenderer::Flush() {
  EndRendering();
  stream_.Flush();
}

}  // namespace xnt::vk
