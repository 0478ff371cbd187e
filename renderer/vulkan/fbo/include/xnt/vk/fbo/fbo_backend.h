// The fbo path's replay Backend: the shared Vulkan backend glue (xnt/vk/path/path_backend.h:
// translation, draw input, memexport, resolves, swaps) over XenosRenderer, which draws into host
// render targets. Resolves write into the trace player's GuestMemory, so later draws, resolves
// and swaps see the data.
#pragma once

#include "xnt/vk/fbo/xenos_renderer.h"
#include "xnt/vk/path/path_backend.h"

namespace xnt::vk {

// The fbo path adds nothing to what every Vulkan path's backend is given.
struct FboBackendOptions : PathBackendOptions {};

class FboBackend final : public PathBackend {
 public:
  FboBackend(VulkanContext& context, FboBackendOptions options);

  XenosRenderer& renderer() { return static_cast<XenosRenderer&>(path_renderer()); }

 protected:
  // Which host sample holds each guest sample's coverage (centroid interpolators); the exact
  // depth.
  void DrawTranslation(const replay::DrawCall& call, TranslationOptions& vs,
                       TranslationOptions& ps) override;

 private:
  // Depth-tested triangle draws into a one-sample depth target: the pixel shader writes the
  // cpu path's depth in the guest format (TranslationOptions::fsi_exact_polygon_offset).
  void ExactDepthTranslation(const replay::DrawCall& call, TranslationOptions& vs,
                             TranslationOptions& ps);
};

}  // namespace xnt::vk
