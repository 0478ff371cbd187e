// The program's view of the Vulkan paths' SPIR-V cache (see shader_cache.h).
#include "xnt/renderer/shader_cache.h"

#if XNT_HAVE_VULKAN
#include "xnt/vk/baked_host_spirv.h"
#include "xnt/vk/translator/spirv_cache.h"
#endif

namespace xnt::renderer {

void SetShaderCacheDirectory(const std::string& directory) {
#if XNT_HAVE_VULKAN
  vk::SetSpirvCacheDirectory(directory);
#else
  (void)directory;
#endif
}

void UseBuiltinShaders() {
#if XNT_HAVE_VULKAN
  vk::SetBuiltinSpirv(vk::BakedHostSpirv());
#endif
}

ShaderCacheStats GetShaderCacheStats() {
  ShaderCacheStats out;
#if XNT_HAVE_VULKAN
  const vk::SpirvCacheStats s = vk::GetSpirvCacheStats();
  out.builtin = s.builtin;
  out.hits = s.hits;
  out.misses = s.misses;
  out.corrupt = s.corrupt;
  out.write_failures = s.write_failures;
#endif
  return out;
}

std::string DefaultShaderCacheDirectory(const char* xdg_cache_home, const char* home) {
  // XDG Base Directory: a relative XDG_CACHE_HOME is invalid and is ignored.
  if (xdg_cache_home && xdg_cache_home[0] == '/') return std::string(xdg_cache_home) + "/xenotrace";
  if (home && home[0] == '/') return std::string(home) + "/.cache/xenotrace";
  return {};
}

}  // namespace xnt::renderer
