// The replay::Backend glue of the Vulkan paths (see path_backend.h).
#include "xnt/vk/path/path_backend.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "xnt/base/error.h"
#include "xnt/gpu/pixel_inputs.h"
#include "xnt/gpu/primitive_clip.h"
#include "xnt/gpu/register_values.h"
#include "xnt/xenos/enums.h"
#include "xnt/vk/draw_input.h"
#include "xnt/vk/translator/output_merger_interface.h"
#include "xnt/vk/translator/shader_compiler.h"

namespace xnt::vk {
namespace {

// A resolve's or swap's commands, timed as such under bench replay --gpu-profile (also when the
// path throws).
class ResolveStage {
 public:
  explicit ResolveStage(PathRenderer& renderer) : renderer_(renderer) {
    renderer_.BeginResolveStage();
  }
  ~ResolveStage() { renderer_.EndResolveStage(); }
  ResolveStage(const ResolveStage&) = delete;
  ResolveStage& operator=(const ResolveStage&) = delete;

 private:
  PathRenderer& renderer_;
};

// Debug labels (debug_labels.h): each guest event named as `xenotrace dump` numbers it (F.K),
// with what a frame debugger's user looks up next: the draw's shader hashes (the names of
// --dump-shaders' files), the resolve's destination and clears, the swap's front buffer.
std::string DrawLabel(const replay::DrawCall& call) {
  char text[96];
  std::snprintf(text, sizeof(text), "draw %" PRIu64 ".%u vs %016" PRIx64, call.frame,
                call.draw_index, call.vertex_shader->hash);
  std::string label = text;
  if (call.pixel_shader) {
    std::snprintf(text, sizeof(text), " ps %016" PRIx64, call.pixel_shader->hash);
    label += text;
  } else {
    label += " (no pixel shader)";
  }
  return label;
}

std::string ResolveLabel(const replay::ResolveCall& call) {
  char text[128];
  std::snprintf(text, sizeof(text), "resolve %" PRIu64 ".%u to 0x%08X %s", call.draw.frame,
                call.draw.draw_index, call.dest_base,
                std::string(xenos::TextureFormatName(uint32_t(call.dest_info.copy_dest_format)))
                    .c_str());
  std::string label = text;
  if (call.copy_control.color_clear_enable) label += " + colour clear";
  if (call.copy_control.depth_clear_enable) label += " + depth clear";
  return label;
}

}  // namespace

PathBackend::PathBackend(VulkanContext& context, std::unique_ptr<PathRenderer> renderer,
                         PathBackendOptions options, const char* name)
    : context_(context), renderer_(std::move(renderer)), options_(std::move(options)), name_(name) {
  // The player reports every guest memory write (OnMemoryWritten), so the mirror only needs to
  // look at those pages.
  renderer_->shared_memory().EnableWriteTracking();
  if (!options_.dump_shaders_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options_.dump_shaders_dir, ec);
    if (ec) throw Error("--dump-shaders: cannot create " + options_.dump_shaders_dir + ": " + ec.message());
  }
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(context_.physical_device(), &props);
  max_geometry_input_components_ = props.limits.maxGeometryInputComponents;
}

bool PathBackend::FilledTriangles(const replay::DrawCall& call) {
  const xenos::PrimitiveType prim = call.initiator.prim_type;
  const bool triangles = prim != xenos::PrimitiveType::kPointList &&
                         prim != xenos::PrimitiveType::kLineList &&
                         prim != xenos::PrimitiveType::kLineStrip &&
                         prim != xenos::PrimitiveType::kLineLoop &&
                         prim != xenos::PrimitiveType::kRectangleList;
  return triangles && !gpu::ReadPolygonModes(call.registers->values()).Active();
}

uint32_t PathBackend::ExactDepthPositionLocation(const replay::DrawCall& call) const {
  // The vertex shader's clip and cull distances are not known before its translation: at most
  // one per enabled user plane and one for vertex kill, as clip or as cull distances.
  const uint32_t distances =
      gpu::ReadPrimitiveClip(call.registers->values(), false).plane_count + 1;
  return std::min(PolygonOffsetGeometryInterpolators(max_geometry_input_components_, distances, 0),
                  PolygonOffsetGeometryInterpolators(max_geometry_input_components_, 0, distances));
}

bool PathBackend::ExactDepthDevice(const replay::DrawCall& call) const {
  const uint32_t interpolators = std::min<uint32_t>(
      16, call.registers->Decode<xenos::reg::SQ_PROGRAM_CNTL>().vs_export_count + 1);
  const Capabilities& caps = context_.capabilities();
  return caps.geometry_shader && caps.shader_float64 &&
         interpolators <= ExactDepthPositionLocation(call);
}

PathBackend::~PathBackend() = default;

void PathBackend::Attach(replay::GuestMemory* memory, const replay::RegisterFile* registers) {
  memory_ = memory;
  registers_ = registers;
}

gpu::GuestMemoryAccess PathBackend::Access() const {
  if (!memory_) throw Error(std::string(name_) + " backend: Attach() was not called");
  return gpu::GuestAccessOf(*memory_);
}

std::map<std::string, uint64_t> PathBackend::notes() const {
  std::map<std::string, uint64_t> all = renderer_->notes();
  for (auto& [k, v] : notes_) all[k] += v;
  return all;
}

void PathBackend::DumpShader(const replay::Shader& shader, const TranslatedShader& t) {
  char name[64];
  std::snprintf(name, sizeof(name), "%s_%016" PRIx64,
                shader.type == xenos::ShaderType::kPixel ? "ps" : "vs", shader.hash);
  const std::filesystem::path dir(options_.dump_shaders_dir);
  // Several option variants of one microcode get numbered files.
  const std::string base = name + DumpSuffix(t);
  std::string stem = base;
  for (int n = 1; std::filesystem::exists(dir / (stem + ".glsl")); ++n) {
    stem = base + "_" + std::to_string(n);
  }
  std::ofstream(dir / (stem + ".glsl")) << t.glsl;
  std::ofstream(dir / (stem + ".spvasm")) << DisassembleSpirv(t.spirv);
}

std::shared_ptr<const ucode::DecodedShader> PathBackend::Decode(const replay::Shader& shader) {
  // Decoded once by the command processor (ucode/shader_cache.h).
  if (shader.decoded) return shader.decoded;
  return local_decodes_.Get(shader.hash,
                            shader.type == xenos::ShaderType::kPixel ? ucode::ShaderType::kPixel
                                                                     : ucode::ShaderType::kVertex,
                            shader.dwords);
}

void PathBackend::ClipTranslation(const replay::DrawCall& call, TranslationOptions& vs) {
  const std::shared_ptr<const ucode::DecodedShader> d = Decode(*call.vertex_shader);
  const bool exports_kill = d->ok() && (d->analysis.point_size_mask & 4u) != 0;
  const gpu::PrimitiveClip clip = gpu::ReadPrimitiveClip(call.registers->values(), exports_kill);
  if (!clip.active()) return;
  if (!context_.capabilities().clip_cull_distance) {
    ++notes_["user clip planes / vertex kill not applied: the device lacks shaderClipDistance or "
             "shaderCullDistance"];
    return;
  }
  vs.vs_user_clip_planes = clip.plane_count;
  vs.vs_user_clip_cull_only = clip.planes_cull_only;
  vs.vs_vertex_kill = uint32_t(clip.kill);
}

std::shared_ptr<const TranslatedShader> PathBackend::TranslateFor(
    const replay::Shader& shader, const TranslationOptions& options) {
  const std::shared_ptr<const ucode::DecodedShader> d = Decode(shader);
  if (!d->ok()) {
    ++notes_["draw skipped: microcode does not decode: " + d->error()];
    return nullptr;
  }
  std::shared_ptr<const TranslatedShader> t;
  try {
    t = translator_.Get(d->shader, d->analysis, options);
  } catch (const Error& e) {
    ++notes_["draw skipped: shader translation failed: " + std::string(e.what())];
    return nullptr;
  }
  if (translated_.emplace(t.get(), true).second) {
    for (const auto& n : t->reflection.notes) ++notes_["shader: " + n];
    if (!options_.dump_shaders_dir.empty()) DumpShader(shader, *t);
  }
  return t;
}

uint32_t PathBackend::VolumeFilterSlots(const replay::Shader& shader, const replay::RegisterFile& regs) {
  const std::shared_ptr<const ucode::DecodedShader> d = Decode(shader);
  if (!d->ok()) return 0;
  uint32_t slots = 0;
  for (const ucode::Instruction& i : d->shader.slots) {
    const ucode::FetchInstruction& f = i.fetch;
    if (i.kind != ucode::SlotKind::kFetch || f.opcode != ucode::FetchOp::kTextureFetch ||
        f.dimension != ucode::TextureDimension::k3D) {
      continue;
    }
    const uint32_t slot = f.const_index & 31;
    uint32_t dwords[6];
    for (uint32_t k = 0; k < 6; ++k) {
      dwords[k] = gpu::RegisterValue(regs.values(), xenos::kFetchConstantBase + slot * 6 + k);
    }
    const auto t = xenos::TextureFetchConstant::Decode(dwords);
    if (t.dimension != xenos::DataDimension::k3D) continue;
    const bool overrides = f.mag_filter != 3 || f.min_filter != 3 || f.vol_mag_filter != 3 ||
                           f.vol_min_filter != 3;
    const bool own_z = t.vol_mag_filter != (t.mag_filter == xenos::TextureFilter::kLinear) ||
                       t.vol_min_filter != (t.min_filter == xenos::TextureFilter::kLinear);
    if (overrides || own_z) slots |= 1u << slot;
  }
  return slots;
}

bool PathBackend::TranslateDraw(const replay::DrawCall& call,
                                std::shared_ptr<const TranslatedShader>& vs,
                                std::shared_ptr<const TranslatedShader>& ps,
                                bool& exact_polygon_offset) {
  const replay::RegisterFile& regs = *call.registers;
  const auto program = regs.Decode<xenos::reg::SQ_PROGRAM_CNTL>();
  const bool preserve = context_.capabilities().float_signed_zero_inf_nan_preserve_32;
  if (!preserve) {
    ++notes_["device lacks shaderSignedZeroInfNanPreserveFloat32: the driver may fold away the "
             "NaN / -0 / infinity rules of the Xenos ALU"];
  }
  TranslationOptions vs_options;
  vs_options.preserve_signed_zero_inf_nan = preserve;
  TranslationOptions ps_options;
  ps_options.preserve_signed_zero_inf_nan = preserve;
  // The VS exports vs_export_count + 1 interpolators; the PS receives that many.
  ps_options.ps_interpolator_count = std::min<uint32_t>(16, program.vs_export_count + 1);
  if (program.param_gen) {
    ps_options.ps_param_gen_register =
        int32_t(regs.Decode<xenos::reg::SQ_CONTEXT_MISC>().param_gen_pos);
    // Points drawn as quads (PrimitiveQuads::kPoints) have no gl_PointCoord: the point-quad
    // geometry shader hands the sprite coordinate over.
    ps_options.ps_point_coord_input = call.initiator.prim_type == xenos::PrimitiveType::kPointList &&
                                      context_.capabilities().geometry_point_size;
  }
  // Centroid interpolators under MSAA (as DrawPlan counts samples: 1 << min(msaa_samples, 2)).
  const uint32_t msaa = uint32_t(regs.Decode<xenos::reg::RB_SURFACE_INFO>().msaa_samples);
  const uint32_t samples = 1u << std::min(msaa, 2u);
  const uint32_t centroid = gpu::InterpolatorCentroidMask(regs.values(), samples) &
                            ((1u << ps_options.ps_interpolator_count) - 1u);
  if (centroid && !context_.capabilities().sample_rate_shading) {
    ++notes_["device lacks sampleRateShading (interpolateAtOffset): centroid interpolators are "
             "taken at the pixel centre"];
  } else if (centroid) {
    ps_options.ps_centroid_mask = centroid;
    ps_options.ps_msaa_samples = samples;
  }
  ps_options.volume_filter_slots = call.pixel_shader ? VolumeFilterSlots(*call.pixel_shader, regs) : 0;
  vs_options.volume_filter_slots = VolumeFilterSlots(*call.vertex_shader, regs);
  vs_options.domain_inputs = gpu::IsTessellated(call);
  ClipTranslation(call, vs_options);
  DrawTranslation(call, vs_options, ps_options);
  exact_polygon_offset = vs_options.fsi_exact_polygon_offset;
  vs = TranslateFor(*call.vertex_shader, vs_options);
  if (!vs) return false;
  if (call.pixel_shader) {
    ps = TranslateFor(*call.pixel_shader, ps_options);
    if (!ps) return false;
  }
  return true;
}

void PathBackend::OnDraw(const replay::DrawCall& call) {
  const replay::RegisterFile& regs = *call.registers;
  if (!call.vertex_shader) {
    ++notes_["draw skipped: no vertex shader loaded"];
    ++draws_skipped_;
    return;
  }
  context_.SetEventInFlight(name_, "draw", call.frame, call.draw_index);
  std::shared_ptr<const TranslatedShader> vs, ps;
  bool exact_polygon_offset = false;
  if (!TranslateDraw(call, vs, ps, exact_polygon_offset)) {
    ++draws_skipped_;
    return;
  }
  const uint64_t drawn_before = renderer_->path_stats().draws;
  DrawInput input;
  const VkShaderModule ps_module =
      ps ? renderer_->ShaderModule(uint64_t(uintptr_t(ps.get())), ps->spirv) : VK_NULL_HANDLE;
  if (!BuildDrawInput(call, regs.values(),
                      renderer_->ShaderModule(uint64_t(uintptr_t(vs.get())), vs->spirv),
                      vs->reflection, ps_module, ps ? &ps->reflection : nullptr, index_scratch_,
                      input, notes_)) {
    ++draws_skipped_;
    return;
  }
  input.exact_polygon_offset = exact_polygon_offset;
  input.clip_distances = vs->reflection.clip_distances;
  input.cull_distances = vs->reflection.cull_distances;
  input.kill_clip_distance = vs->reflection.kill_clip_distance;
  input.exact_position_location = vs->reflection.position_location;
  if (call.initiator.prim_type == xenos::PrimitiveType::kPointList) {
    // ps_ucp_mode 2-3: the point-quad geometry shader measures the planes at the corners. The
    // planes lead the clip (or cull) distances when the vertex shader wrote them.
    const gpu::PrimitiveClip clip = gpu::ReadPrimitiveClip(regs.values(), false);
    const uint32_t written = clip.planes_cull_only ? input.cull_distances : input.clip_distances;
    if (gpu::PointPlanesAtCorners(clip) && written >= clip.plane_count) {
      input.point_corner_planes = clip.plane_count;
      input.point_corner_cull = clip.planes_cull_only;
    }
  }
  const DebugLabelRegion label = renderer_->Label([&] { return DrawLabel(call); });
  if (!DrawWithMemExport(*renderer_, call, input, Access(), memory_, vs->reflection, name_, notes_,
                         [this](uint32_t address, uint32_t size) { OnMemoryWritten(address, size); })) {
    ++draws_skipped_;
  }
  if (renderer_->path_stats().draws > drawn_before) OnDrawn(ps.get());
}

void PathBackend::OnResolve(const replay::ResolveCall& call) {
  context_.SetEventInFlight(name_, "resolve", call.draw.frame, call.draw.draw_index);
  try {
    const ResolveStage stage(*renderer_);
    const DebugLabelRegion label = renderer_->Label([&] { return ResolveLabel(call); });
    renderer_->Resolve(call.draw.registers->values(), Access());
  } catch (const Error& e) {
    ++notes_["resolve skipped: " + std::string(e.what())];
  }
}

void PathBackend::OnSwap(const replay::SwapCall& call) {
  if (!registers_) throw Error(std::string(name_) + " backend: Attach() was not called");
  context_.SetEventInFlight(name_, "swap of frame", call.frame, VulkanContext::kNoEventIndex);
  gpu::SwapImage image;
  try {
    const ResolveStage stage(*renderer_);
    const DebugLabelRegion label = renderer_->Label([&] {
      return "swap frame " + std::to_string(call.frame) + " front buffer " +
             std::to_string(call.width) + "x" + std::to_string(call.height);
    });
    image = renderer_->Swap(registers_->values(), call.front_buffer_address, call.width,
                            call.height, Access());
  } catch (const Error& e) {
    ++notes_["swap skipped: " + std::string(e.what())];
    return;
  }
  if (call.display_gamma) gpu::ApplyDisplayGamma(image, *call.display_gamma);
  if (options_.on_swap) options_.on_swap(call.frame, image);
}

void PathBackend::OnMemoryWritten(uint32_t address, uint32_t size) {
  renderer_->shared_memory().Invalidate(address, size);
  // A CPU write over a scaled resolve copy makes it stale: readers see the 1x bytes again.
  renderer_->InvalidateScaled(address, size);
}

void PathBackend::OnFrameEnd(const replay::FrameEndCall& frame) {
  if (options_.on_frame_end) options_.on_frame_end(frame);
}

}  // namespace xnt::vk
