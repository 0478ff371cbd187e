// The fsi path's replay Backend: translates the draw's microcode with the output-merger
// epilogue (TranslationOptions::fsi_output_merger), builds the primitive processor's input and
// hands the draw to FsiRenderer. Resolves write into the trace player's GuestMemory.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "xnt/replay/backend.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/ucode/shader_cache.h"
#include "xnt/vk/fsi/fsi_renderer.h"
#include "xnt/vk/translator/shader_translator.h"

namespace xnt::vk::fsi {

struct FsiBackendOptions {
  FsiOrdering ordering = FsiOrdering::kInterlock;
  // Early depth/stencil where legal (TranslationOptions::fsi_early_depth: no kill, oDepth or
  // memexport in the pixel shader, alpha test and alpha to mask off); false forces the late
  // order for every draw (SessionOptions::fsi_late_depth). The bits are the same either way.
  bool early_depth = true;
  std::string dump_shaders_dir;  // every translated shader written there once (GLSL, SPIR-V)
  std::function<void(uint64_t frame, const gpu::SwapImage&)> on_swap;
  std::function<void(const replay::FrameEndCall&)> on_frame_end;
  gpu::RendererOptions renderer;
};

class FsiBackend : public replay::Backend {
 public:
  FsiBackend(VulkanContext& context, FsiBackendOptions options);
  ~FsiBackend() override;

  void Attach(replay::GuestMemory* memory, const replay::RegisterFile* registers);

  void OnDraw(const replay::DrawCall& draw) override;
  void OnResolve(const replay::ResolveCall& resolve) override;
  void OnSwap(const replay::SwapCall& swap) override;
  void OnFrameEnd(const replay::FrameEndCall& frame) override;
  void OnMemoryWritten(uint32_t address, uint32_t size) override;

  FsiRenderer& renderer() { return *renderer_; }
  std::map<std::string, uint64_t> notes() const;
  // Draws given up on before or around the renderer (no vertex shader, translation failed,
  // unreadable indices, an error while drawing), which its own stats do not count.
  uint64_t draws_skipped() const { return draws_skipped_; }
  // Draws drawn with the early depth/stencil variant of their pixel shader.
  uint64_t early_depth_draws() const { return early_depth_draws_; }

 private:
  std::shared_ptr<const TranslatedShader> TranslateFor(const replay::Shader& shader,
                                                       const TranslationOptions& options);
  gpu::GuestMemoryAccess Access() const;

  VulkanContext& context_;
  FsiBackendOptions options_;
  std::unique_ptr<FsiRenderer> renderer_;
  ShaderTranslator translator_;
  replay::GuestMemory* memory_ = nullptr;
  const replay::RegisterFile* registers_ = nullptr;
  ucode::ShaderCache local_decodes_;
  std::unordered_map<const TranslatedShader*, bool> translated_;
  std::map<std::string, uint64_t> notes_;
  uint64_t draws_skipped_ = 0;
  std::vector<uint8_t> index_scratch_;
  uint64_t early_depth_draws_ = 0;
  // XNT_FSI_DERIVATIVE_SLOPE=1: polygon offset slopes from derivatives of depth as before the
  // exact offset (docs/fsi.md), for tests showing the difference.
  bool derivative_slope_ = false;
  uint32_t polygon_offset_gs_interpolators_ = 0;  // PolygonOffsetGeometryInterpolators
};

}  // namespace xnt::vk::fsi
