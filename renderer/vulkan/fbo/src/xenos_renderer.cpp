// fbo render path engine (see xenos_renderer.h).
#include "xnt/vk/fbo/xenos_renderer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "xnt/base/error.h"
#include "xnt/gpu/draw_plan.h"
#include "xnt/gpu/polygon_offset.h"
#include "xnt/gpu/resolution_scale.h"
#include "xnt/gpu/resolve_plan.h"
#include "xnt/vk/host_shaders.h"
#include "xnt/vk/scaled_resolve_mirror.h"
#include "xnt/vk/translator/output_merger_interface.h"
#include "xnt/vk/translator/shader_interface.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {

using xenos::Reg;
using xenos::RegIndex;

namespace {


uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// RB_DEPTH_CLEAR -> host depth: D24S8 is 24-bit unorm; D24FS8 is the 20e4 float (4-bit exponent,
// 20-bit mantissa, bias 15; xenos.h Float20e4To32).
float DepthClearValue(uint32_t clear, uint32_t format) {
  uint32_t d = clear >> 8;
  if (format == uint32_t(xenos::DepthRenderTargetFormat::kD24FS8)) {
    uint32_t e = d >> 20, m = d & 0xFFFFF;
    if (e == 0) return float(m) / float(1u << 20) * std::ldexp(1.0f, -14);
    return (1.0f + float(m) / float(1u << 20)) * std::ldexp(1.0f, int(e) - 15);
  }
  return float(d) / float(0xFFFFFF);
}

// Per-target colour export conversion for the host format (render_targets.h), as
// XeSystemConstants::color_output_modes packs it; the pipelines are specialized on it.
uint32_t ColorOutputModes(gpu::RegisterValues regs, const std::array<const RenderTarget*, 4>& color) {
  uint32_t modes = 0;
  for (uint32_t i = 0; i < 4; ++i) {
    const RenderTarget* rt = color[i];
    if (!rt) continue;
    modes |= (rt->output_mode & 15u) << (4 * i);
    // A UNORM target that does not blend gets outputs the shader rounded itself (bits 16 + 2i,
    // glsl_output_merger.cpp xe_quantize_unorm), so every driver stores the cpu path's bits.
    // A blending one keeps the float source: the cpu path blends the unrounded value.
    bool blend = ComputeBlend(regs, i).blendEnable && rt->blendable;
    // PWL gamma codes / 255 in a float target (render_targets.cpp IsPwlCodePair): the source is
    // always whole codes, as an UNORM8 target would take it, blending or not; the float blend
    // then rounds the same on every driver.
    bool pwl_codes = rt->output_mode == kColorOutputPwlGamma &&
                     rt->format == VK_FORMAT_R32G32B32A32_SFLOAT;
    uint32_t quantize = rt->format == VK_FORMAT_R8G8B8A8_UNORM || pwl_codes ? 1u
                        : rt->format == VK_FORMAT_A2B10G10R10_UNORM_PACK32 ? 2u
                        : (rt->format == VK_FORMAT_R16G16_SNORM ||
                           rt->format == VK_FORMAT_R16G16B16A16_SNORM) &&
                                  rt->output_mode == kColorOutputFixed16Snorm
                            ? 3u
                            : 0u;
    if (!blend || pwl_codes) modes |= quantize << (16 + 2 * i);
  }
  return modes;
}

}  // namespace

XenosRenderer::XenosRenderer(VulkanContext& context, gpu::RendererOptions options)
    : PathRenderer(context, options),
      render_targets_(context, RenderTargetOptions{options.gamma, options.scale_x, options.scale_y}),
      pipelines_(context, layouts_),
      edram_(context, stream_, render_targets_, [this] { EndRendering(); }) {
  // Scaled resolve copies exist only at a resolution scale.
  if (options.scale_x * options.scale_y > 1) {
    scaled_mirror_ = std::make_unique<ScaledResolveMirror>(context, stream_, scaled_);
  }
  edram_.set_gpu_transfers(options.gpu_transfers);
  Flush();
}

XenosRenderer::~XenosRenderer() {
  try {
    Flush();
  } catch (...) {
    // Destruction must not throw; the device is idled below either way.
  }
  context_.WaitIdle();
}

uint64_t XenosRenderer::scaled_device_bytes() const {
  return scaled_mirror_ ? scaled_mirror_->device_bytes() : 0;
}
uint64_t XenosRenderer::scaled_arena_bytes() const {
  return scaled_mirror_ ? scaled_mirror_->slot_bytes() : 0;
}

void XenosRenderer::EndRendering() {
  if (!rendering_) return;
  vkCmdEndRendering(stream_.cmd());
  rendering_ = false;
}

void XenosRenderer::BeginRendering(const Attachments& a) {
  if (rendering_ && a == current_) return;
  EndRendering();
  VkRenderingAttachmentInfo colors[4]{};
  uint32_t color_count = 0;
  uint32_t width = UINT32_MAX, height = UINT32_MAX;
  for (uint32_t i = 0; i < 4; ++i) {
    colors[i].sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    colors[i].imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    colors[i].loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    colors[i].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    if (a.color[i]) {
      colors[i].imageView = a.color[i]->view;
      color_count = i + 1;
      width = std::min(width, a.color[i]->width);
      height = std::min(height, a.color[i]->height);
    }
  }
  VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  if (a.depth) {
    depth.imageView = a.depth->view;
    depth.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    width = std::min(width, a.depth->width);
    height = std::min(height, a.depth->height);
  }
  if (color_count == 0 && !a.depth) {
    width = a.empty_width;
    height = a.empty_height;
  }
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = {{0, 0}, {width, height}};
  info.layerCount = 1;
  info.colorAttachmentCount = color_count;
  info.pColorAttachments = colors;
  info.pDepthAttachment = a.depth ? &depth : nullptr;
  info.pStencilAttachment = a.depth ? &depth : nullptr;
  vkCmdBeginRendering(stream_.cmd(), &info);
  ++rendering_instance_;
  rendering_ = true;
  current_ = a;
  render_width_ = width;
  render_height_ = height;
}

bool XenosRenderer::SetUpAttachmentless(uint32_t pitch, uint32_t guest_samples, Attachments& a) {
  // Dynamic rendering without attachments: the render area alone bounds the framebuffer, within
  // maxFramebufferWidth/Height, and the pipeline's rasterization sample count must be one of
  // framebufferNoAttachmentsSampleCounts (Vulkan spec, VkRenderingInfo and
  // VkPipelineMultisampleStateCreateInfo valid usage). The area is the surface pitch wide and as
  // tall as a target may be (render_targets.cpp), at the resolution scale.
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(context_.physical_device(), &props);
  const VkPhysicalDeviceLimits& l = props.limits;
  const uint32_t sx = std::max(1u, options_.scale_x), sy = std::max(1u, options_.scale_y);
  const uint32_t max_width = std::min(8192u, l.maxFramebufferWidth) / sx;
  const uint32_t max_height = std::min(8192u, l.maxFramebufferHeight) / sy;
  if (pitch > max_width) {
    Note("draw for pixel-shader exports only skipped: surface pitch " + std::to_string(pitch) +
         " exceeds the device's framebuffer width");
    return false;
  }
  a.empty_width = pitch * sx;
  a.empty_height = max_height * sy;
  const VkSampleCountFlags counts = l.framebufferNoAttachmentsSampleCounts;
  a.empty_samples = guest_samples;
  if (!(counts & guest_samples)) {
    // Coverage decides which pixels run the shader; the closest count the device has.
    a.empty_samples = guest_samples == 2 && (counts & VK_SAMPLE_COUNT_4_BIT) ? 4u : 1u;
    Note("pixel-shader exports of a draw without targets: " + std::to_string(guest_samples) +
         "x MSAA coverage from " + std::to_string(a.empty_samples) +
         " host samples (the device lacks the count without attachments)");
  }
  return true;
}

bool XenosRenderer::Draw(const DrawInput& draw, const gpu::GuestMemoryAccess& memory) {
  gpu::DrawPlan plan = PlanDrawInput(draw, {options_.scale_x, options_.scale_y});
  if (plan.resolve) {
    Resolve(draw.regs, memory);
    return true;
  }
  const gpu::RegisterValues regs = draw.regs;
  using gpu::DrawSkip;
  if (Skipped(plan, {DrawSkip::kEdramMode, DrawSkip::kPrimitiveType, DrawSkip::kSurfacePitch})) {
    return false;
  }
  // A draw run for its pixel-shader exports alone (DrawPlan::exports_only) is rasterized with no
  // attachment at all.
  if (Skipped(plan, {DrawSkip::kNoTarget})) return false;

  // EDRAM ownership of the used targets: moves the data of tiles that changed owner.
  gpu::EdramEventTargets edram_targets =
      gpu::EdramTargetsForDraw(regs, plan.color_used, plan.depth.used, draw.estimate_rows);
  edram_.Use(edram_.BeginEvent(), edram_targets.used, edram_targets.bound, "draw");
  // The pixel shader writes the guest's depth (FboBackend::ExactDepthTranslation).
  const bool exact_depth =
      draw.exact_polygon_offset && plan.topology == gpu::HostTopology::kTriangleList;
  if (edram_.TakeSnapshotDepthLoaded() && plan.depth.used && !exact_depth) {
    // The snapshot holds the guest bits another rasterizer computed (the cpu path's, for a
    // slice); this host's depth for the same triangles may differ in the low bits where the
    // draw keeps the host's plane, so only tests that do not need bit-equal depth (LESS against
    // a clear, ...) match a full replay.
    Note("depth loaded from an EDRAM snapshot: depth tests of geometry drawn again against it "
         "(an EQUAL pass after its pre-pass) compare this host's depth with the snapshot's "
         "rasterizer's and may fail where a full fbo replay passes");
  }

  const gpu::HostPrimitives prims = DrawPrimitives(draw);
  gpu::PlanPrimitives(plan, prims);
  if (Skipped(plan, {DrawSkip::kNoPrimitive})) return false;

  // Everything recorded outside the render pass comes first: memory, targets, ring data.
  stats_.pages_uploaded += SyncSharedMemory(draw, memory);
  // Textures load from the synced mirror (compute, outside the render pass; nothing is recorded
  // when they are current, so the render pass stays open).
  uint32_t scaled_slots = 0;
  VkDescriptorSet textures_set = BindTextures(draw, regs, memory, &scaled_slots);
  Attachments attachments = DrawAttachments(plan);
  if (plan.no_target && !SetUpAttachmentless(plan.surface_pitch, plan.samples, attachments)) {
    ++stats_.draws_skipped;
    return false;
  }
  const DrawUpload upload = UploadDrawData(draw, prims);

  BeginRendering(attachments);
  // The viewport transform in guest pixels of the target (host NDC are the same at any scale:
  // the host viewport covers the whole S x T times larger image); the scissor in host pixels.
  gpu::PlanScissor(plan, regs, render_width_ / plan.scale.x, render_height_ / plan.scale.y);
  if (Skipped(plan, {DrawSkip::kEmptyScissor})) return false;
  const DrawQuads quads = QuadsOf(plan, draw);
  // The system constants carry them and the pipeline is specialized on them.
  const uint32_t output_modes = ColorOutputModes(regs, attachments.color);
  WriteSystemConstants(regs, plan, attachments, output_modes, scaled_slots, quads.kind,
                       upload.allocation.data + upload.system_offset);
  HostRasterizer raster;
  const VkPipeline pipeline =
      DrawPipeline(draw, regs, plan, attachments, output_modes, quads, raster);

  VkCommandBuffer cmd = stream_.cmd();
  if (recorded_.BindPipeline(rendering_instance_, pipeline)) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  }
  VkDescriptorSet sets[3] = {shared_memory_.descriptor_set(), upload.constants.set, textures_set};
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines_.layout(), 0, 3, sets,
                          0, nullptr);
  vkCmdBindIndexBuffer(cmd, upload.allocation.buffer, upload.allocation.offset,
                       VK_INDEX_TYPE_UINT32);
  SetDynamicState(regs, plan, attachments, raster, quads.kind, exact_depth);
  vkCmdDrawIndexed(cmd, uint32_t(prims.indices.size()), 1, 0, 0, 0);
  if (!draw.continues_draw) ++stats_.draws;  // a tessellated draw in parts counts once
  return true;
}

XenosRenderer::Attachments XenosRenderer::DrawAttachments(const gpu::DrawPlan& plan) {
  // One host image per surface, format and sample count (render_targets.h). A target seen for
  // the first time is cleared with transfer commands, which may not be recorded inside the
  // previous draw's render pass instance (a depth buffer enabled after colour-only draws on
  // EDRAM tiles nobody owned, so the EDRAM cache made nothing): that instance ends first.
  const auto get = [&](const RenderTargetKey& key) {
    if (!render_targets_.Find(key)) EndRendering();
    return &render_targets_.Get(key, stream_.cmd());
  };
  Attachments attachments;
  for (uint32_t i = 0; i < 4; ++i) {
    if (!plan.color[i].used) continue;
    attachments.color[i] = get({plan.color[i].base_tiles, plan.surface_pitch,
                                plan.color[i].format, false, plan.samples});
  }
  if (plan.depth.used) {
    attachments.depth =
        get({plan.depth.base_tiles, plan.surface_pitch, plan.depth.format, true, plan.samples});
  }
  return attachments;
}

XenosRenderer::DrawUpload XenosRenderer::UploadDrawData(const DrawInput& draw,
                                                        const gpu::HostPrimitives& prims) {
  // One ring allocation: the indices, then the system constants, then a tessellated draw's
  // domain inputs; the guest constants after it, part by part (PlaceGuestConstants), all in the
  // same submission.
  DrawUpload upload;
  uint64_t ubo_align = UniformAlignment();
  const uint64_t index_bytes = prims.indices.size() * 4;
  upload.system_offset = AlignUp(index_bytes, ubo_align);
  uint64_t total = upload.system_offset + sizeof(XeSystemConstants);
  const gpu::TessellatedDraw* tess = draw.tessellation.get();
  upload.domain_offset = ReserveDomainInputs(tess, total, ubo_align);
  upload.allocation = AllocateDrawData(draw, total, ubo_align, upload.constants);
  WriteConstantsSet(upload.constants, upload.allocation, upload.system_offset, upload.domain_offset,
                    DomainInputBytes(tess));
  std::memcpy(upload.allocation.data, prims.indices.data(), index_bytes);
  if (tess) WriteDomainInputs(*tess, upload.allocation.data + upload.domain_offset);
  return upload;
}

void XenosRenderer::WriteSystemConstants(gpu::RegisterValues regs, const gpu::DrawPlan& plan,
                                         const Attachments& attachments, uint32_t output_modes,
                                         uint32_t scaled_slots, PrimitiveQuads quads,
                                         uint8_t* out) {
  XeSystemConstants system = ComputeSystemConstants(regs, plan.viewport, plan.topology, quads);
  system.resolution_scale = plan.scale.x | (plan.scale.y << 8);
  if (options_.derivatives == gpu::ScaledDerivatives::kHost) {
    system.resolution_scale |= kXeResolutionScaleHostDerivatives;
  }
  system.scaled_texture_slots = scaled_slots;
  system.color_output_modes = output_modes;
  for (const RenderTarget* rt : attachments.color) {
    if (rt && !rt->note.empty()) Note("colour target: " + rt->note);
  }
  if (attachments.depth && !attachments.depth->note.empty()) {
    Note("depth target: " + attachments.depth->note);
  }
  std::memcpy(out, &system, sizeof(system));
}

VkPipeline XenosRenderer::DrawPipeline(const DrawInput& draw, gpu::RegisterValues regs,
                                       const gpu::DrawPlan& plan, const Attachments& attachments,
                                       uint32_t output_modes, const DrawQuads& quads,
                                       HostRasterizer& raster) {
  PipelineKey key{};
  key.vertex_shader = draw.vertex_shader;
  key.pixel_shader = draw.pixel_shader;
  if (!key.pixel_shader && draw.exact_polygon_offset &&
      plan.topology == gpu::HostTopology::kTriangleList) {
    // A depth pre-pass writes the depth its EQUAL-tested colour pass computes.
    if (!exact_depth_ps_) {
      exact_depth_ps_ = pipelines_.CreateModule(CompileHostGlsl(
          ExactDepthFragmentShaderGlsl(), VK_SHADER_STAGE_FRAGMENT_BIT, "fbo_exact_depth"));
    }
    key.pixel_shader = exact_depth_ps_;
  }
  key.topology = uint32_t(plan.topology);
  key.quad_shader = quads.shader;
  raster = ComputeRasterizer(regs, plan.topology, quads.kind);
  key.polygon_mode = uint32_t(raster.polygon_mode);
  key.depth_clamp = HostDepthClamp(raster) ? 1u : 0u;
  for (uint32_t i = 0; i < 4; ++i) {
    // The pixel shader's outputs need a slot (UNDEFINED when unbound), so the count covers them.
    if (attachments.color[i]) {
      key.color_formats[i] = uint32_t(attachments.color[i]->format);
      key.blend[i] = ComputeBlend(regs, i);
      if (key.blend[i].blendEnable && !attachments.color[i]->blendable) {
        key.blend[i].blendEnable = VK_FALSE;
        Note("blending disabled: the host format of colour target " + std::to_string(i) +
             " cannot blend on this device");
      }
    }
  }
  if (attachments.depth) key.depth_format = uint32_t(attachments.depth->format);
  if (draw.pixel_shader) key.color_output_modes = output_modes;
  // Every attachment of a draw has the surface's sample count (render_targets.h).
  key.samples = attachments.depth ? uint32_t(attachments.depth->samples) : attachments.empty_samples;
  for (const RenderTarget* rt : attachments.color) {
    if (rt) key.samples = uint32_t(rt->samples);
  }
  return pipelines_.Get(key);
}

void XenosRenderer::SetDynamicState(gpu::RegisterValues regs, const gpu::DrawPlan& plan,
                                    const Attachments& attachments,
                                    const HostRasterizer& raster, PrimitiveQuads quads,
                                    bool exact_depth) {
  VkCommandBuffer cmd = stream_.cmd();
  // Depth: gpu::Viewport host_depth_min / max (clip space mapped onto the guest's range).
  VkViewport vp{0.0f, 0.0f, float(render_width_), float(render_height_),
                plan.viewport.host_depth_min, plan.viewport.host_depth_max};
  if (recorded_.Changed(DynamicStateFilter::kViewport, vp)) vkCmdSetViewport(cmd, 0, 1, &vp);
  if (const std::string n = gpu::HostDepthRangeNote(plan.viewport); !n.empty()) Note(n);
  const VkRect2D scissor = ToVkRect(plan.host_scissor);
  if (recorded_.Changed(DynamicStateFilter::kScissor, scissor)) vkCmdSetScissor(cmd, 0, 1, &scissor);
  float blend_constants[4] = {gpu::RegisterFloat(regs, RegIndex(Reg::RB_BLEND_RED)),
                              gpu::RegisterFloat(regs, RegIndex(Reg::RB_BLEND_GREEN)),
                              gpu::RegisterFloat(regs, RegIndex(Reg::RB_BLEND_BLUE)),
                              gpu::RegisterFloat(regs, RegIndex(Reg::RB_BLEND_ALPHA))};
  if (recorded_.Changed(DynamicStateFilter::kBlendConstants, blend_constants)) {
    vkCmdSetBlendConstants(cmd, blend_constants);
  }
  if (recorded_.Changed(DynamicStateFilter::kCullMode, raster.cull)) vkCmdSetCullMode(cmd, raster.cull);
  if (recorded_.Changed(DynamicStateFilter::kFrontFace, raster.front_face)) {
    vkCmdSetFrontFace(cmd, raster.front_face);
  }
  {
    // Polygon offset as a host depth bias (gpu/polygon_offset.h: Xenia's units; one bias per
    // draw, so the face Xenia prefers). A k_24_8 target in a float host depth cannot get
    // OFFSET exactly (its r depends on the primitive's exponent): noted.
    const bool polygonal = plan.polygonal;
    const auto mode = gpu::DecodeRegister<xenos::reg::PA_SU_SC_MODE_CNTL>(regs);
    const gpu::PolygonOffset offset = gpu::PreferredPolygonOffset(
        gpu::ReadPolygonOffsets(regs, polygonal), polygonal && mode.cull_front,
        polygonal && mode.cull_back);
    const uint32_t depth_format = plan.depth.format;
    const float constant = gpu::DepthBiasConstantFactor(offset, depth_format);
    // Lines and points drawn as quads by a geometry shader are host triangles: the host biases
    // them, by the constant term only, as lines and points take it (gpu/polygon_offset.h).
    const bool line_quads = quads != PrimitiveQuads::kNone;
    float slope = line_quads ? 0.0f : gpu::DepthBiasSlopeFactor(offset);
    // The host's slope is per host pixel; per guest pixel it is the scale times as steep, which
    // one factor gives only when both axes have the same scale.
    if (options_.derivatives == gpu::ScaledDerivatives::kGuest && slope != 0.0f) {
      if (plan.scale.x != plan.scale.y && !exact_depth) {
        Note("polygon offset slope at a scale that differs per axis through the host's depth "
             "bias: per guest pixel along the longer axis");
      }
      slope *= float(std::max(plan.scale.x, plan.scale.y));
    }
    // A pixel shader writing the exact depth has added the offset itself.
    const bool bias =
        attachments.depth && !exact_depth && (constant != 0.0f || slope != 0.0f);
    if (bias && attachments.depth->format == VK_FORMAT_D32_SFLOAT_S8_UINT &&
        depth_format == uint32_t(xenos::DepthRenderTargetFormat::kD24S8)) {
      Note("polygon offset on a k_24_8 target in a float host depth: constant term inexact");
    }
    if (bias && !polygonal && !line_quads) {
      Note("polygon offset on lines/points: the host applies none");
    }
    const VkBool32 bias_enable = bias ? VK_TRUE : VK_FALSE;
    if (recorded_.Changed(DynamicStateFilter::kDepthBiasEnable, bias_enable)) {
      vkCmdSetDepthBiasEnable(cmd, bias_enable);
    }
    const std::array<float, 3> factors{bias ? constant : 0.0f, 0.0f, bias ? slope : 0.0f};
    if (recorded_.Changed(DynamicStateFilter::kDepthBias, factors)) {
      vkCmdSetDepthBias(cmd, factors[0], factors[1], factors[2]);
    }
  }
  const float line_width = DrawLineWidth(regs, plan.topology, quads);
  if (recorded_.Changed(DynamicStateFilter::kLineWidth, line_width)) {
    vkCmdSetLineWidth(cmd, line_width);
  }
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  if (plan.topology == gpu::HostTopology::kPointList) topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  if (plan.topology == gpu::HostTopology::kLineList) topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  if (recorded_.Changed(DynamicStateFilter::kPrimitiveTopology, topology)) {
    vkCmdSetPrimitiveTopology(cmd, topology);
  }
  HostDepthStencil ds = ComputeDepthStencil(regs, attachments.depth != nullptr);
  using F = DynamicStateFilter;
  if (recorded_.Changed(F::kDepthTestEnable, ds.depth_test)) {
    vkCmdSetDepthTestEnable(cmd, ds.depth_test);
  }
  if (recorded_.Changed(F::kDepthWriteEnable, ds.depth_write)) {
    vkCmdSetDepthWriteEnable(cmd, ds.depth_write);
  }
  if (recorded_.Changed(F::kDepthCompareOp, ds.depth_compare)) {
    vkCmdSetDepthCompareOp(cmd, ds.depth_compare);
  }
  if (recorded_.Changed(F::kStencilTestEnable, ds.stencil_test)) {
    vkCmdSetStencilTestEnable(cmd, ds.stencil_test);
  }
  // One face's stencil state: ops, compare mask, write mask, reference, each with its slot.
  const auto stencil_face = [&](VkStencilFaceFlags face, const VkStencilOpState& st, F::Slot op,
                                F::Slot compare, F::Slot write, F::Slot reference) {
    const std::array<uint32_t, 4> ops{uint32_t(st.failOp), uint32_t(st.passOp),
                                      uint32_t(st.depthFailOp), uint32_t(st.compareOp)};
    if (recorded_.Changed(op, ops)) {
      vkCmdSetStencilOp(cmd, face, st.failOp, st.passOp, st.depthFailOp, st.compareOp);
    }
    if (recorded_.Changed(compare, st.compareMask)) {
      vkCmdSetStencilCompareMask(cmd, face, st.compareMask);
    }
    if (recorded_.Changed(write, st.writeMask)) vkCmdSetStencilWriteMask(cmd, face, st.writeMask);
    if (recorded_.Changed(reference, st.reference)) {
      vkCmdSetStencilReference(cmd, face, st.reference);
    }
  };
  stencil_face(VK_STENCIL_FACE_FRONT_BIT, ds.front, F::kStencilOpFront, F::kStencilCompareMaskFront,
               F::kStencilWriteMaskFront, F::kStencilReferenceFront);
  stencil_face(VK_STENCIL_FACE_BACK_BIT, ds.back, F::kStencilOpBack, F::kStencilCompareMaskBack,
               F::kStencilWriteMaskBack, F::kStencilReferenceBack);
}

void XenosRenderer::BarrierAttachmentsToTransfer(const RenderTarget& rt) {
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  bool depth = rt.key.is_depth;
  barrier.srcAccessMask = depth ? VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT
                                : VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.oldLayout = barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = rt.image;
  barrier.subresourceRange = {rt.aspects, 0, 1, 0, 1};
  vkCmdPipelineBarrier(stream_.cmd(),
                       depth ? VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT
                             : VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &barrier);
}

void XenosRenderer::BarrierTransferToAttachments(const RenderTarget& rt) {
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  bool depth = rt.key.is_depth;
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = depth ? VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                      VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT
                                : VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                                      VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  barrier.oldLayout = barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = rt.image;
  barrier.subresourceRange = {rt.aspects, 0, 1, 0, 1};
  vkCmdPipelineBarrier(stream_.cmd(), VK_PIPELINE_STAGE_TRANSFER_BIT,
                       depth ? VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                   VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT
                             : VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                       0, 0, nullptr, 0, nullptr, 1, &barrier);
}

void XenosRenderer::ClearRect(RenderTarget& rt, const VkRect2D& rect, const VkClearValue& value) {
  Attachments a;
  if (rt.key.is_depth) {
    a.depth = &rt;
  } else {
    a.color[0] = &rt;
  }
  BeginRendering(a);
  VkClearAttachment clear{};
  clear.aspectMask = rt.aspects;
  clear.colorAttachment = 0;
  clear.clearValue = value;
  VkClearRect clear_rect{rect, 0, 1};
  vkCmdClearAttachments(stream_.cmd(), 1, &clear, 1, &clear_rect);
}

void XenosRenderer::Resolve(gpu::RegisterValues regs, const gpu::GuestMemoryAccess& memory) {
  const gpu::ResolvePlan plan = gpu::PlanPathResolve(
      regs, memory, {options_.scale_x, options_.scale_y}, stats_, notes_);
  if (plan.skip != gpu::ResolveSkip::kNone) return;
  const gpu::ResolveInfo& info = plan.info;
  edram_.Use(edram_.BeginEvent(), plan.targets.used, plan.targets.bound, "resolve");
  uint32_t msaa_count = 1u << std::min(info.msaa_samples, 2u);
  RenderTargetKey color_key{info.color_base, info.surface_pitch, info.color_format, false,
                            msaa_count};
  if (!plan.copy_note.empty()) Note(plan.copy_note);
  if (plan.copy) {
    EndRendering();
    // The source's guest bits (every sample) in the EDRAM model, then the CPU resolve engine
    // (resolve.h): any source format, MSAA selection/averaging, bias, swaps, destinations.
    // At a resolution scale the model is the scaled EDRAM.
    const gpu::edram::Edram& bits = edram_.Snapshot(info.SourceSurface(), uint32_t(info.y1));
    if (!edram_.last_snapshot_exact()) {
      Note("resolve source partly held in an approximating host format (not bit-exact)");
    }
    // Resolved bytes must reach the mirror too (later draws may read them as textures).
    gpu::GuestMemoryAccess tracked = memory;
    tracked.write = [this, &memory](uint32_t address, std::span<const uint8_t> bytes) {
      memory.write(address, bytes);
      shared_memory_.Invalidate(address, bytes.size());
    };
    try {
      if (options_.scale_x * options_.scale_y == 1) {
        gpu::ResolveCopy(info, bits, tracked);
      } else {
        // 1x guest memory (point-downsampled) plus the scaled copy, mirrored for textures.
        scaled_.Resolve(info, bits, tracked, options_.scale_x, options_.scale_y);
        if (const gpu::ScaledCopy* copy = scaled_.last(); copy && scaled_mirror_) {
          scaled_mirror_->Store(*copy);
        }
      }
    } catch (const Error& e) {
      Note(std::string("resolve copy skipped: ") + e.what());
    }
  }
  // Clears cover S x T host pixels per guest pixel.
  const VkRect2D rect = ToVkRect(plan.host_rect);
  if (plan.color_clear) {
    EndRendering();
    RenderTarget& rt = render_targets_.Get(color_key, stream_.cmd());
    VkRect2D r = rect;
    r.extent.width = std::min<uint32_t>(r.extent.width, rt.width - std::min<uint32_t>(rt.width, uint32_t(r.offset.x)));
    r.extent.height = std::min<uint32_t>(r.extent.height, rt.height - std::min<uint32_t>(rt.height, uint32_t(r.offset.y)));
    if (r.extent.width && r.extent.height) {
      // The clear value in the guest encoding of the target's format, converted so that the host
      // target holds exactly those bits (render_targets.h HostColorClearValue). 64bpp: RB_COLOR_
      // CLEAR_LO is the low dword (R/G), RB_COLOR_CLEAR the high one (B/A), as Xenia's EDRAM
      // clear passes them (clear_color_low / clear_color_high; Xenia notes the order as unverified).
      gpu::edram::Surface cs;
      cs.format = info.color_format;
      uint64_t clear = info.color_clear_value;
      if (cs.is_64bpp()) {
        clear = (uint64_t(gpu::RegisterValue(regs, Reg::RB_COLOR_CLEAR)) << 32) |
                gpu::RegisterValue(regs, Reg::RB_COLOR_CLEAR_LO);
      }
      VkClearValue value{};
      value.color = HostColorClearValue(info.color_format, rt.format, clear);
      if (!rt.raw) Note("resolve colour clear of " + rt.note);
      const DebugLabelRegion label(context_.labels(), stream_, [] { return "colour clear"; });
      ClearRect(rt, r, value);
    }
  }
  if (plan.depth_clear) {
    EndRendering();
    RenderTargetKey depth_key{info.depth_base, info.surface_pitch, info.depth_format, true,
                              msaa_count};
    RenderTarget& rt = render_targets_.Get(depth_key, stream_.cmd());
    VkRect2D r = rect;
    r.extent.width = std::min<uint32_t>(r.extent.width, rt.width - std::min<uint32_t>(rt.width, uint32_t(r.offset.x)));
    r.extent.height = std::min<uint32_t>(r.extent.height, rt.height - std::min<uint32_t>(rt.height, uint32_t(r.offset.y)));
    if (r.extent.width && r.extent.height) {
      VkClearValue value{};
      value.depthStencil.depth = DepthClearValue(info.depth_clear_value, info.depth_format);
      value.depthStencil.stencil = info.depth_clear_value & 0xFF;
      const DebugLabelRegion label(context_.labels(), stream_, [] { return "depth clear"; });
      ClearRect(rt, r, value);
    }
  }
  EndRendering();
}

gpu::SwapImage XenosRenderer::Swap(gpu::RegisterValues regs, uint32_t frontbuffer_address, uint32_t width,
                              uint32_t height, const gpu::GuestMemoryAccess& memory) {
  ++stats_.swaps;
  Flush();
  // At a resolution scale the front buffer is shown at the scaled size when a resolve left a
  // scaled copy of it (gpu/scaled_resolve.h), as the cpu path shows it.
  return gpu::ReadFrontBufferAtScale(regs, frontbuffer_address, width, height, memory, scaled_);
}

void XenosRenderer::Flush() {
  PathRenderer::Flush();
  stats_.submissions = stream_.submitted();
  stats_.peak_submission_ring_bytes = stream_.peak_ring_used();
}

}  // namespace xnt::vk
