// RenderDoc's in-application API (renderdoc_app.h), for `replay --renderdoc-capture`: the host
// work of one guest event or frame written as a RenderDoc capture (.rdc).
//
// RenderDoc captures Vulkan through its layer, VK_LAYER_RENDERDOC_Capture, an implicit layer the
// loader enables when ENABLE_VULKAN_RENDERDOC_CAPTURE=1 (its manifest's enable_environment).
// Two ways in, both headless: the process is started under RenderDoc (`renderdoccmd capture`,
// which preloads the library), or Load() sets that variable and opens librenderdoc.so itself.
// Either way the layer only sees instances created afterwards, so Load() must run before the
// process's first Vulkan instance (vk::VulkanContext keeps instances for the process's life).
// The library is opened at run time (dlopen): xenotrace runs without RenderDoc installed.
#pragma once

#include <memory>
#include <string>

namespace xnt::renderer {

class RenderDocCapture {
 public:
  // The API of the RenderDoc library in the process, loading it first if needed, with captures
  // written as `path_template`_frameN.rdc. Throws xnt::Error saying what is missing (this build
  // lacks renderdoc_app.h; librenderdoc.so cannot be opened; the API version is too old).
  static std::unique_ptr<RenderDocCapture> Load(const std::string& path_template);
  virtual ~RenderDocCapture() = default;

  // Starts capturing the host API calls of `device` (Session::frame_debugger_device; null: the
  // one Vulkan device in the process), headless (no window), titled `title`. Ends with End();
  // captures never overlap.
  virtual void Start(void* device, const std::string& title) = 0;
  // Ends the capture; the path of the .rdc written. Throws xnt::Error when RenderDoc wrote none
  // (no Vulkan device was created after Load, or the capture failed).
  virtual std::string End() = 0;
};

}  // namespace xnt::renderer
