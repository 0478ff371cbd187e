// The fbo path's replay Backend: translates the draw's microcode (decoded once by the command
// processor, Shader::decoded) with the shader translator, builds the primitive processor's input from the
// draw initiator and index source, and hands everything to XenosRenderer. Resolves write into
// the trace player's GuestMemory, so later draws, resolves and swaps see the data.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

#include "xnt/replay/backend.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/ucode/shader_cache.h"
#include "xnt/vk/translator/shader_translator.h"
#include "xnt/vk/fbo/xenos_renderer.h"

namespace xnt::vk {

struct FboBackendOptions {
  // When set, every translated shader is written there once (GLSL and SPIR-V disassembly).
  std::string dump_shaders_dir;
  // Receives the front buffer at every XE_SWAP, with the frame it belongs to.
  std::function<void(uint64_t frame, const gpu::SwapImage&)> on_swap;
  // Called at the end of every frame (progress reporting).
  std::function<void(const replay::FrameEndCall&)> on_frame_end;
  // Renderer choices (k_8_8_8_8_GAMMA emulation, ...).
  gpu::RendererOptions renderer;
};

class FboBackend : public replay::Backend {
 public:
  FboBackend(VulkanContext& context, FboBackendOptions options);
  ~FboBackend() override;

  // The player's mutable state: guest memory (resolves write into it) and the register file
  // (the swap reads texture fetch constant 0 from it). Must be set before playing.
  void Attach(replay::GuestMemory* memory, const replay::RegisterFile* registers);

  void OnDraw(const replay::DrawCall& draw) override;
  void OnResolve(const replay::ResolveCall& resolve) override;
  void OnSwap(const replay::SwapCall& swap) override;
  void OnFrameEnd(const replay::FrameEndCall& frame) override;
  void OnMemoryWritten(uint32_t address, uint32_t size) override;

  XenosRenderer& renderer() { return *renderer_; }
  uint64_t shaders_translated() const { return translated_.size(); }
  // Renderer notes plus the backend's own (untranslatable shaders, ...), with counts.
  std::map<std::string, uint64_t> notes() const;
  // Draws given up on before or around the renderer (no vertex shader, translation failed,
  // unreadable indices, an error while drawing), which its own stats do not count.
  uint64_t draws_skipped() const { return draws_skipped_; }

 private:
  // Translated module for the shader, or null (reason noted).
  std::shared_ptr<const TranslatedShader> TranslateFor(const replay::Shader& shader,
                                                       const TranslationOptions& options);
  void DumpShader(const replay::Shader& shader, const TranslatedShader& translated);
  gpu::GuestMemoryAccess Access() const;

  VulkanContext& context_;
  FboBackendOptions options_;
  std::unique_ptr<XenosRenderer> renderer_;
  ShaderTranslator translator_;
  replay::GuestMemory* memory_ = nullptr;
  const replay::RegisterFile* registers_ = nullptr;
  // Only for Shader records that arrive without their decode (built by hand in tests).
  ucode::ShaderCache local_decodes_;
  std::unordered_map<const TranslatedShader*, bool> translated_;
  std::map<std::string, uint64_t> notes_;
  uint64_t draws_skipped_ = 0;
  std::vector<uint8_t> index_scratch_;
};

}  // namespace xnt::vk
