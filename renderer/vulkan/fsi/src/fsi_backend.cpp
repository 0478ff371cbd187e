// replay::Backend for the fsi path (see fsi_backend.h).
#include "xnt/vk/fsi/fsi_backend.h"

#include <algorithm>
#include <cinttypes>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "output_merger_state.h"
#include "xnt/base/error.h"
#include "xnt/gpu/draw_extent.h"
#include "xnt/gpu/index_buffer.h"
#include "xnt/gpu/unmodelled_state.h"
#include "xnt/vk/translator/output_merger_interface.h"
#include "xnt/vk/translator/shader_compiler.h"

namespace xnt::vk::fsi {

FsiBackend::FsiBackend(VulkanContext& context, FsiBackendOptions options)
    : context_(context),
      options_(std::move(options)),
      renderer_(std::make_unique<FsiRenderer>(context, options_.ordering, options_.renderer)) {
  renderer_->shared_memory().EnableWriteTracking();
  const char* derivative = std::getenv("XNT_FSI_DERIVATIVE_SLOPE");
  derivative_slope_ = derivative && std::string_view(derivative) == "1";
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(context_.physical_device(), &props);
  polygon_offset_gs_interpolators_ =
      PolygonOffsetGeometryInterpolators(props.limits.maxGeometryInputComponents);
  if (!options_.dump_shaders_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options_.dump_shaders_dir, ec);
    if (ec) throw Error("--dump-shaders: cannot create " + options_.dump_shaders_dir + ": " + ec.message());
  }
}

FsiBackend::~FsiBackend() = default;

void FsiBackend::Attach(replay::GuestMemory* memory, const replay::RegisterFile* registers) {
  memory_ = memory;
  registers_ = registers;
}

gpu::GuestMemoryAccess FsiBackend::Access() const {
  if (!memory_) throw Error("FsiBackend: Attach() was not called");
  return gpu::GuestAccessOf(*memory_);
}

std::map<std::string, uint64_t> FsiBackend::notes() const {
  std::map<std::string, uint64_t> all = renderer_->notes();
  for (auto& [k, v] : notes_) all[k] += v;
  return all;
}

std::shared_ptr<const TranslatedShader> FsiBackend::TranslateFor(
    const replay::Shader& shader, const TranslationOptions& options) {
  std::shared_ptr<const ucode::DecodedShader> d = shader.decoded;
  if (!d) {
    d = local_decodes_.Get(shader.hash,
                           shader.type == xenos::ShaderType::kPixel ? ucode::ShaderType::kPixel
                                                                    : ucode::ShaderType::kVertex,
                           shader.dwords);
  }
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
    if (!options_.dump_shaders_dir.empty()) {
      char name[64];
      // The early depth/stencil variant of a pixel shader is a translation of its own.
      std::snprintf(name, sizeof(name), "%s_%016" PRIx64 "_fsi%s",
                    shader.type == xenos::ShaderType::kPixel ? "ps" : "vs", shader.hash,
                    t->reflection.fsi_early_depth ? "_early" : "");
      const std::filesystem::path dir(options_.dump_shaders_dir);
      std::ofstream(dir / (std::string(name) + ".glsl")) << t->glsl;
      std::ofstream(dir / (std::string(name) + ".spvasm")) << DisassembleSpirv(t->spirv);
    }
  }
  return t;
}

void FsiBackend::OnDraw(const replay::DrawCall& call) {
  const replay::RegisterFile& regs = *call.registers;
  if (!call.vertex_shader) {
    ++notes_["draw skipped: no vertex shader loaded"];
    ++draws_skipped_;
    return;
  }
  for (const std::string& n : gpu::UnmodelledStateNotes(regs.values())) ++notes_[n];
  const auto program = regs.Decode<xenos::reg::SQ_PROGRAM_CNTL>();
  const bool preserve = context_.capabilities().float_signed_zero_inf_nan_preserve_32;
  if (!preserve) {
    ++notes_["device lacks shaderSignedZeroInfNanPreserveFloat32: the driver may fold away the "
             "NaN / -0 / infinity rules of the Xenos ALU"];
  }
  TranslationOptions vs_options;
  vs_options.preserve_signed_zero_inf_nan = preserve;
  // The cpu path's depth plane and polygon offset per triangle (docs/fsi.md "Polygon offset")
  // for filled triangle draws that test or write depth or have PA_SU_POLY_OFFSET_* on, with a
  // pixel shader or without one (a depth pre-pass, whose depths a later EQUAL test compares);
  // other draws keep the host's plane and the derivative slope and pay nothing. Lines and points
  // take only the constant term either way. The choice depends on the vertex shader alone (its
  // export count, not whether a pixel shader reads them), so that a pre-pass and its colour pass
  // with the same vertex shader take the same plane.
  const auto sc_mode = regs.Decode<xenos::reg::PA_SU_SC_MODE_CNTL>();
  const bool offset = sc_mode.poly_offset_front_enable || sc_mode.poly_offset_back_enable;
  const xenos::PrimitiveType prim = call.initiator.prim_type;
  const bool triangles = prim != xenos::PrimitiveType::kPointList &&
                         prim != xenos::PrimitiveType::kLineList &&
                         prim != xenos::PrimitiveType::kLineStrip &&
                         prim != xenos::PrimitiveType::kLineLoop &&
                         prim != xenos::PrimitiveType::kRectangleList;
  bool exact_offset = !derivative_slope_ && triangles &&
                      sc_mode.poly_mode == xenos::PolygonModeEnable::kDisabled &&
                      (offset || regs.Decode<xenos::reg::RB_DEPTHCONTROL>().z_enable);
  const uint32_t interpolators = std::min<uint32_t>(16, program.vs_export_count + 1);
  if (exact_offset && !(context_.capabilities().geometry_shader &&
                        context_.capabilities().shader_float64 &&
                        interpolators <= polygon_offset_gs_interpolators_)) {
    // Noted for polygon offset only, as before; a depth-tested draw without it keeps the host's
    // depth plane (docs/fsi.md says how far that is off).
    if (offset) {
      ++notes_["polygon offset slope from derivatives of depth (no geometry shader or "
               "shaderFloat64, or more interpolators than its inputs hold): may differ from the "
               "cpu path by a depth step"];
    }
    exact_offset = false;
  }
  vs_options.fsi_exact_polygon_offset = exact_offset;
  auto vs = TranslateFor(*call.vertex_shader, vs_options);
  if (!vs) {
    ++draws_skipped_;
    return;
  }
  std::shared_ptr<const TranslatedShader> ps;
  if (call.pixel_shader) {
    TranslationOptions ps_options;
    ps_options.preserve_signed_zero_inf_nan = preserve;
    ps_options.ps_interpolator_count = interpolators;
    if (program.param_gen) {
      ps_options.ps_param_gen_register =
          int32_t(regs.Decode<xenos::reg::SQ_CONTEXT_MISC>().param_gen_pos);
    }
    ps_options.fsi_output_merger = options_.ordering == FsiOrdering::kInterlock ? 1u : 2u;
    ps_options.fsi_early_depth = options_.early_depth && EarlyDepthStencilWanted(regs.values());
    // Bilinear weights as the cpu path computes them, not the device's (docs/fsi.md).
    ps_options.exact_bilinear = true;
    ps_options.fsi_exact_polygon_offset = exact_offset;
    ps = TranslateFor(*call.pixel_shader, ps_options);
    if (!ps) {
      ++draws_skipped_;
      return;
    }
  }

  const uint64_t drawn_before = renderer_->stats().draws;
  FsiDrawInput input;
  const VkShaderModule ps_module =
      ps ? renderer_->ShaderModule(uint64_t(uintptr_t(ps.get())), ps->spirv) : VK_NULL_HANDLE;
  if (!BuildDrawInput(call, regs.values(),
                      renderer_->ShaderModule(uint64_t(uintptr_t(vs.get())), vs->spirv),
                      vs->reflection, ps_module, ps ? &ps->reflection : nullptr, index_scratch_,
                      input, notes_)) {
    ++draws_skipped_;
    return;
  }
  input.exact_polygon_offset = exact_offset;
  if (!DrawWithMemExport(*renderer_, call, input, Access(), memory_, vs->reflection, "fsi", notes_,
                         [this](uint32_t address, uint32_t size) { OnMemoryWritten(address, size); })) {
    ++draws_skipped_;
  }
  if (ps && ps->reflection.fsi_early_depth && renderer_->stats().draws > drawn_before) {
    ++early_depth_draws_;
  }
}

void FsiBackend::OnResolve(const replay::ResolveCall& call) {
  try {
    renderer_->Resolve(call.draw.registers->values(), Access());
  } catch (const Error& e) {
    ++notes_["resolve skipped: " + std::string(e.what())];
  }
}

void FsiBackend::OnSwap(const replay::SwapCall& call) {
  if (!registers_) throw Error("FsiBackend: Attach() was not called");
  gpu::SwapImage image;
  try {
    image = renderer_->Swap(registers_->values(), call.front_buffer_address, call.width,
                            call.height, Access());
  } catch (const Error& e) {
    ++notes_["swap skipped: " + std::string(e.what())];
    return;
  }
  if (options_.on_swap) options_.on_swap(call.frame, image);
}

void FsiBackend::OnMemoryWritten(uint32_t address, uint32_t size) {
  renderer_->shared_memory().Invalidate(address, size);
  renderer_->InvalidateScaled(address, size);
}

void FsiBackend::OnFrameEnd(const replay::FrameEndCall& frame) {
  renderer_->tracker().set_frame(frame.frame + 1);
  if (options_.on_frame_end) options_.on_frame_end(frame);
}

}  // namespace xnt::vk::fsi
