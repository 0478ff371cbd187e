// RenderDoc's in-application API, opened at run time (see renderdoc_capture.h).
#include "xnt/renderer/renderdoc_capture.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "xnt/base/error.h"

#if XNT_HAVE_RENDERDOC_APP
#include <renderdoc_app.h>
#endif

namespace xnt::renderer {

#if XNT_HAVE_RENDERDOC_APP
namespace {

// Debian installs the library outside the multiarch directory (/usr/lib/librenderdoc.so, the
// path its layer manifest names); the plain name covers LD_LIBRARY_PATH and other layouts.
constexpr const char* kLibraryNames[] = {"librenderdoc.so", "/usr/lib/librenderdoc.so"};

class Api final : public RenderDocCapture {
 public:
  explicit Api(RENDERDOC_API_1_4_1* api) : api_(api) {}

  void Start(void* device, const std::string& title) override {
    captures_before_ = api_->GetNumCaptures();
    // No window: headless rendering names the device alone (renderdoc_app.h's note on
    // StartFrameCapture); null matches the one device there is.
    device_ = device;
    api_->StartFrameCapture(device_, nullptr);
    api_->SetCaptureTitle(title.c_str());
  }
  std::string End() override {
    const uint32_t ok = api_->EndFrameCapture(device_, nullptr);
    const uint32_t count = api_->GetNumCaptures();
    if (!ok || count <= captures_before_) {
      throw Error("RenderDoc wrote no capture (EndFrameCapture " +
                  std::string(ok ? "ok" : "failed") +
                  "): was a Vulkan device created after RenderDoc was loaded?");
    }
    uint32_t length = 0;
    api_->GetCapture(count - 1, nullptr, &length, nullptr);
    std::string path(length, '\0');
    api_->GetCapture(count - 1, path.data(), &length, nullptr);
    while (!path.empty() && path.back() == '\0') path.pop_back();
    return path;
  }

 private:
  RENDERDOC_API_1_4_1* api_;
  void* device_ = nullptr;
  uint32_t captures_before_ = 0;
};

}  // namespace

std::unique_ptr<RenderDocCapture> RenderDocCapture::Load(const std::string& path_template) {
  // Already in the process: started under RenderDoc (it preloads its library).
  void* library = nullptr;
  for (const char* name : kLibraryNames) {
    if ((library = dlopen(name, RTLD_NOW | RTLD_NOLOAD))) break;
  }
  std::string why;
  if (!library) {
    // The loader enables the capture layer for instances made from now on (its manifest's
    // enable_environment); set before the library is opened, as a launch under RenderDoc does.
    setenv("ENABLE_VULKAN_RENDERDOC_CAPTURE", "1", 1);
    for (const char* name : kLibraryNames) {
      if ((library = dlopen(name, RTLD_NOW | RTLD_GLOBAL))) break;
      const char* e = dlerror();
      if (why.empty() && e) why = e;
    }
  }
  if (!library) {
    throw Error("--renderdoc-capture: RenderDoc is not available: cannot open librenderdoc.so (" +
                why + "); install it (Debian: apt install renderdoc librenderdoc-dev) or start "
                "xenotrace under `renderdoccmd capture`");
  }
  auto get_api = reinterpret_cast<pRENDERDOC_GetAPI>(dlsym(library, "RENDERDOC_GetAPI"));
  void* api = nullptr;
  if (!get_api || !get_api(eRENDERDOC_API_Version_1_4_1, &api) || !api) {
    throw Error("--renderdoc-capture: the RenderDoc library in this process offers no "
                "in-application API 1.4.1 (RENDERDOC_GetAPI); RenderDoc 1.9 or later is needed");
  }
  auto* rd = static_cast<RENDERDOC_API_1_4_1*>(api);
  rd->SetCaptureFilePathTemplate(path_template.c_str());
  // The capture is for reading the guest frame, not for a user at a window: no overlay.
  rd->MaskOverlayBits(0, 0);
  return std::make_unique<Api>(rd);
}

#else

std::unique_ptr<RenderDocCapture> RenderDocCapture::Load(const std::string&) {
  throw Error("--renderdoc-capture: this build has no RenderDoc support (renderdoc_app.h was not "
              "found when it was configured: Debian package librenderdoc-dev)");
}

#endif

}  // namespace xnt::renderer
