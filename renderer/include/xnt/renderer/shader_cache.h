// The on-disk shader cache of the Vulkan paths, as the program configures it: GLSL -> SPIR-V
// compiles (translated guest shaders and host shaders) are stored under a folder the program
// chooses (the CLI: $XDG_CACHE_HOME/xenotrace, else ~/.cache/xenotrace, unless
// --no-shader-cache). Libraries never pick the folder themselves. Without Vulkan these do nothing.
#pragma once

#include <cstdint>
#include <string>

namespace xnt::renderer {

struct ShaderCacheStats {
  uint64_t builtin = 0;         // host shaders found among those compiled at build time
  uint64_t hits = 0;            // compiles answered from the folder
  uint64_t misses = 0;          // compiles run through glslang
  uint64_t corrupt = 0;         // damaged entries ignored (and rewritten)
  uint64_t write_failures = 0;  // entries that could not be stored
};

// "" turns the cache off (the default). Process-wide; call before creating sessions.
void SetShaderCacheDirectory(const std::string& directory);
ShaderCacheStats GetShaderCacheStats();

// Hands the host shaders compiled at build time to the cache (looked up before the folder, with
// or without one), so no run parses their GLSL. Process-wide; call before creating sessions.
void UseBuiltinShaders();

// The folder the CLI uses: <xdg_cache_home>/xenotrace when that is an absolute path, else
// <home>/.cache/xenotrace, else "" (no cache). The caller passes the environment's values.
std::string DefaultShaderCacheDirectory(const char* xdg_cache_home, const char* home);

}  // namespace xnt::renderer
