// Translate(): prelude + emitted main -> libshaderc -> SPIR-V, and the cache.
#include "xnt/vk/translator/shader_translator.h"

#include <cstdio>

#include "glsl_emitter.h"
#include "glsl_exact_filter.h"
#include "glsl_output_merger.h"
#include "glsl_prelude.h"
#include "glsl_texel_address.h"
#include "xnt/vk/translator/shader_compiler.h"

namespace xnt::vk {

uint64_t HashMicrocode(const std::vector<uint32_t>& dwords) {
  uint64_t hash = 0xCBF29CE484222325ull;
  for (uint32_t d : dwords) {
    for (int i = 0; i < 4; ++i) {
      hash ^= (d >> (8 * i)) & 0xFF;
      hash *= 0x100000001B3ull;
    }
  }
  return hash;
}

std::string TranslateToGlsl(const ucode::Shader& shader, const ucode::Analysis& analysis,
                            const TranslationOptions& options, ShaderReflection* reflection) {
  ShaderReflection local;
  ShaderReflection& r = reflection ? *reflection : local;
  bool pixel = shader.type == ucode::ShaderType::kPixel;
  std::string text = GlslPrelude(pixel ? GlslShaderKind::kPixel : GlslShaderKind::kVertex,
                                 options.preserve_signed_zero_inf_nan, analysis.uses_memexport);
  if (pixel && options.fsi_output_merger == 1) {
    // The interlock extension must precede every declaration: right after #version.
    text.insert(text.find('\n') + 1, GlslOutputMergerExtension());
  }
  if (pixel) text += GlslTexelAddressHelpers();
  if (pixel && options.exact_bilinear) text += GlslExactBilinearHelpers();
  if (!pixel && options.domain_inputs) {
    text += "layout(std430, set = 1, binding = 2) readonly buffer XeDomainInputs {\n"
            "  vec4 xe_domain_inputs[];\n"
            "};\n";
  }
  text += EmitGlslMain(shader, analysis, options, r);
  return text;
}

TranslatedShader Translate(const ucode::Shader& shader, const ucode::Analysis& analysis,
                           const TranslationOptions& options) {
  TranslatedShader result;
  result.ucode_hash = HashMicrocode(shader.dwords);
  result.glsl = TranslateToGlsl(shader, analysis, options, &result.reflection);
  bool pixel = shader.type == ucode::ShaderType::kPixel;
  char name[40];
  std::snprintf(name, sizeof(name), "%s_%016llx", pixel ? "ps" : "vs",
                static_cast<unsigned long long>(result.ucode_hash));
  // No disassembly here: only --dump-shaders writes it, and making it was 5-7 % of a short
  // replay's CPU time (docs/speed.md).
  result.spirv = CompileGlsl(result.glsl, pixel ? GlslStage::kFragment : GlslStage::kVertex, name);
  return result;
}

std::shared_ptr<const TranslatedShader> ShaderTranslator::Get(const ucode::Shader& shader,
                                                              const ucode::Analysis& analysis,
                                                              const TranslationOptions& options) {
  uint64_t key = HashMicrocode(shader.dwords) ^ (uint64_t(options.ps_interpolator_count) << 1) ^
                 (uint64_t(uint32_t(options.ps_param_gen_register)) << 8) ^
                 (uint64_t(options.ps_centroid_mask) << 40) ^
                 uint64_t(shader.type);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto range = entries_.equal_range(key);
    for (auto it = range.first; it != range.second; ++it) {
      const Entry& e = it->second;
      if (e.type == shader.type && e.options == options && e.dwords == shader.dwords) {
        ++hits_;
        return e.shader;
      }
    }
    ++misses_;
  }
  // Compile outside the lock; a racing duplicate costs one extra compile, never a wrong result.
  auto translated = std::make_shared<const TranslatedShader>(Translate(shader, analysis, options));
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.emplace(key, Entry{shader.type, shader.dwords, options, translated});
  return translated;
}

size_t ShaderTranslator::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

uint64_t ShaderTranslator::hits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}

uint64_t ShaderTranslator::misses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return misses_;
}

}  // namespace xnt::vk
