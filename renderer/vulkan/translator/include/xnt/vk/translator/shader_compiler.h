// GLSL -> SPIR-V through libshaderc, and the SPIR-V tools the translator and its tests need
// (disassembly for `--dump-shaders`, validation for the tests). Internal to xnt_renderer_vulkan.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace xnt::vk {

enum class GlslStage { kVertex, kFragment, kCompute };

// Compiles GLSL 450 for Vulkan 1.1 / SPIR-V 1.3 with optimisation off (the text maps 1:1 onto
// the guest microcode, which keeps the disassembly readable and compile times short).
// Throws xnt::Error with the compiler's log (and the offending source line) on failure.
// Goes through the on-disk SPIR-V cache when the program set a folder (spirv_cache.h).
std::vector<uint32_t> CompileGlsl(std::string_view source, GlslStage stage,
                                  std::string_view name = "xenos_shader");
// The same compile, always through glslang (the cache's miss path).
std::vector<uint32_t> CompileGlslNow(std::string_view source, GlslStage stage,
                                     std::string_view name = "xenos_shader");

// SPIR-V disassembly (friendly names, one instruction per line).
std::string DisassembleSpirv(const std::vector<uint32_t>& words);

// Runs the SPIR-V validator for the Vulkan 1.1 environment. Returns an empty string when the
// module is valid, else the validator's messages.
std::string ValidateSpirv(const std::vector<uint32_t>& words);

}  // namespace xnt::vk
