// The host shaders' SPIR-V compiled at build time by xnt_bake_host_spirv (bake_host_spirv.cpp):
// every variant of the shaders whose GLSL the paths generate from parameters, keyed as the
// SPIR-V cache keys a compile (spirv_cache.h). The program hands it to SetBuiltinSpirv.
#pragma once

#include <span>

#include "xnt/vk/translator/spirv_cache.h"

namespace xnt::vk {

// Sorted by key; static storage.
std::span<const BuiltinSpirv> BakedHostSpirv();

}  // namespace xnt::vk
