// The replay::Backend glue every Vulkan render path shares: the player's memory and registers,
// translation of the draw's microcode (decoded once by the command processor, Shader::decoded)
// with the notes and shader dumps that go with it, the draw input from the initiator and index
// source, memexport around the draw, resolves, the swap and guest-memory invalidation, all on a
// PathRenderer (xnt/vk/path_renderer.h). A path derives from it for what it adds to a draw's
// translation (DrawTranslation) or counts after one (OnDrawn), and keeps its own renderer type.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "xnt/gpu/front_buffer.h"
#include "xnt/gpu/renderer_options.h"
#include "xnt/replay/backend.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/ucode/shader_cache.h"
#include "xnt/vk/path_renderer.h"
#include "xnt/vk/translator/shader_translator.h"

namespace xnt::vk {

// What every Vulkan path's backend is given, whatever the path.
struct PathBackendOptions {
  // When set, every translated shader is written there once (GLSL and SPIR-V disassembly).
  std::string dump_shaders_dir;
  // Receives the front buffer at every XE_SWAP, with the frame it belongs to.
  std::function<void(uint64_t frame, const gpu::SwapImage&)> on_swap;
  // Called at the end of every frame (progress reporting).
  std::function<void(const replay::FrameEndCall&)> on_frame_end;
  // Renderer choices (k_8_8_8_8_GAMMA emulation, resolution scale, ...).
  gpu::RendererOptions renderer;
};

class PathBackend : public replay::Backend {
 public:
  ~PathBackend() override;

  void OnDraw(const replay::DrawCall& draw) override;
  void OnResolve(const replay::ResolveCall& resolve) override;
  void OnSwap(const replay::SwapCall& swap) override;
  void OnFrameEnd(const replay::FrameEndCall& frame) override;
  void OnMemoryWritten(uint32_t address, uint32_t size) override;
  void OnEdramSnapshot(std::span<const uint8_t> bytes) override {
    renderer_->RestoreEdram(bytes);
  }

  // The player's mutable state, set before playing: guest memory (resolves write into it) and
  // the register file (the swap reads texture fetch constant 0 from it).
  void Attach(replay::GuestMemory* memory, const replay::RegisterFile* registers);

  uint64_t shaders_translated() const { return translated_.size(); }
  // Renderer notes plus the backend's own (untranslatable shaders, ...), with counts.
  std::map<std::string, uint64_t> notes() const;
  // Draws given up on before or around the renderer (no vertex shader, translation failed,
  // unreadable indices, an error while drawing), which its own stats do not count.
  uint64_t draws_skipped() const { return draws_skipped_; }

 protected:
  // `name` names the path in notes and errors ("fbo", "fsi").
  PathBackend(VulkanContext& context, std::unique_ptr<PathRenderer> renderer,
              PathBackendOptions options, const char* name);

  // A draw's translation choices beyond the common ones (signed zero / NaN preservation, the
  // pixel shader's interpolators and param gen), made before either shader is translated.
  virtual void DrawTranslation(const replay::DrawCall&, TranslationOptions& /*vs*/,
                               TranslationOptions& /*ps*/) {}
  // After a draw the renderer counted as drawn, with its pixel shader (null: none).
  virtual void OnDrawn(const TranslatedShader* /*ps*/) {}
  // Appended to a dumped shader's file name (the path's variants of one microcode).
  virtual std::string DumpSuffix(const TranslatedShader&) const { return ""; }

  // A draw whose primitives are filled triangles (not lines, points, rectangle lists or
  // PA_SU_SC_MODE_CNTL poly_mode), the draws whose depth a pixel shader can take from the
  // triangle's positions (TranslationOptions::fsi_exact_polygon_offset).
  static bool FilledTriangles(const replay::DrawCall& call);
  // Whether the device can run such a draw that way: geometry shaders, shaderFloat64, and the
  // vertex shader's interpolators fit the geometry shader's inputs beside the position.
  bool ExactDepthDevice(const replay::DrawCall& call) const;
  // Where such a draw's vertex shader puts its exported position (TranslationOptions::
  // vs_position_location): after every interpolator the geometry shader can pass on beside it
  // and the most distances the draw's registers allow.
  uint32_t ExactDepthPositionLocation(const replay::DrawCall& call) const;

  PathRenderer& path_renderer() { return *renderer_; }
  const PathRenderer& path_renderer() const { return *renderer_; }
  VulkanContext& context_;
  std::map<std::string, uint64_t> notes_;

 private:
  // The shader's decode (the command processor's, else a local one).
  std::shared_ptr<const ucode::DecodedShader> Decode(const replay::Shader& shader);
  // The vertex shader's user clip planes and vertex kill options (gpu/primitive_clip.h).
  void ClipTranslation(const replay::DrawCall& call, TranslationOptions& vs);
  // TranslationOptions::volume_filter_slots of one shader: the slots its 3D fetches read whose
  // fetch constant is a volume with its own z filter, or that an instruction's filters override.
  uint32_t VolumeFilterSlots(const replay::Shader& shader, const replay::RegisterFile& regs);
  // Translated module for the shader, or null (reason noted).
  std::shared_ptr<const TranslatedShader> TranslateFor(const replay::Shader& shader,
                                                       const TranslationOptions& options);
  // Both shaders of a draw translated (false: skipped, reason noted).
  bool TranslateDraw(const replay::DrawCall& call, std::shared_ptr<const TranslatedShader>& vs,
                     std::shared_ptr<const TranslatedShader>& ps, bool& exact_polygon_offset);
  void DumpShader(const replay::Shader& shader, const TranslatedShader& translated);
  gpu::GuestMemoryAccess Access() const;

  std::unique_ptr<PathRenderer> renderer_;
  PathBackendOptions options_;
  const char* name_;
  ShaderTranslator translator_;
  replay::GuestMemory* memory_ = nullptr;
  const replay::RegisterFile* registers_ = nullptr;
  // Only for Shader records that arrive without their decode (built by hand in tests).
  ucode::ShaderCache local_decodes_;
  std::unordered_map<const TranslatedShader*, bool> translated_;
  uint64_t draws_skipped_ = 0;
  std::vector<uint8_t> index_scratch_;
  uint32_t max_geometry_input_components_ = 0;  // PolygonOffsetGeometryInterpolators' limit
};

}  // namespace xnt::vk
