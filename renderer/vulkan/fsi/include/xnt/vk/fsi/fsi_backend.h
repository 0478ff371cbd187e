// The fsi path's replay Backend: the shared Vulkan backend glue (xnt/vk/path/path_backend.h)
// over FsiRenderer, translating the draw's microcode with the output-merger epilogue
// (TranslationOptions::fsi_output_merger) and the exact polygon offset where it applies.
// Resolves write into the trace player's GuestMemory.
#pragma once

#include <cstdint>

#include "xnt/vk/fsi/fsi_options.h"
#include "xnt/vk/fsi/fsi_renderer.h"
#include "xnt/vk/path/path_backend.h"

namespace xnt::vk::fsi {

struct FsiBackendOptions : PathBackendOptions {
  FsiOrdering ordering = FsiOrdering::kInterlock;
  FsiOptions fsi;
};

class FsiBackend final : public PathBackend {
 public:
  FsiBackend(VulkanContext& context, FsiBackendOptions options);

  void OnFrameEnd(const replay::FrameEndCall& frame) override;

  FsiRenderer& renderer() { return static_cast<FsiRenderer&>(path_renderer()); }
  // Draws drawn with the early depth/stencil variant of their pixel shader.
  uint64_t early_depth_draws() const { return early_depth_draws_; }

 private:
  void DrawTranslation(const replay::DrawCall& call, TranslationOptions& vs,
                       TranslationOptions& ps) override;
  // Whether the draw takes the cpu path's depth plane and polygon offset (noted when it cannot).
  bool ExactPolygonOffset(const replay::DrawCall& call);
  void OnDrawn(const TranslatedShader* ps) override;
  std::string DumpSuffix(const TranslatedShader& translated) const override;

  FsiOrdering ordering_;
  FsiOptions fsi_;
  uint64_t early_depth_draws_ = 0;
};

}  // namespace xnt::vk::fsi
