// Translate(): prelude + emitted main -> libshaderc -> SPIR-V, and the cache.
#include "xnt/vk/translator/shader_translator.h"

#include <cstdio>
#include <algorithm>
#include <set>

#include "glsl_emitter.h"
#include "glsl_border_fraction.h"
#include "glsl_exact_filter.h"
#include "glsl_volume_filter.h"
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
  // One vertex fetch function per format the microcode fetches (GlslVertexFetch).
  std::set<uint32_t> vertex_formats;
  for (const ucode::Instruction& i : shader.slots) {
    if (i.kind == ucode::SlotKind::kFetch && i.fetch.IsVertex()) vertex_formats.insert(i.fetch.format);
  }
  for (uint32_t format : vertex_formats) text += GlslVertexFetch(format);
  const bool border_fraction = std::any_of(shader.slots.begin(), shader.slots.end(), [](const auto& i) {
    return i.kind == ucode::SlotKind::kFetch && i.fetch.opcode == ucode::FetchOp::kGetTextureBorderColorFrac;
  });
  // A texture fetch that may read a volume filters it in the shader where its z filter differs.
  const bool volume_fetch = std::any_of(shader.slots.begin(), shader.slots.end(), [&](const auto& i) {
    return i.kind == ucode::SlotKind::kFetch && i.fetch.opcode == ucode::FetchOp::kTextureFetch &&
           i.fetch.dimension == ucode::TextureDimension::k3D &&
           ((options.volume_filter_slots >> (i.fetch.const_index & 31)) & 1u);
  });
  if (pixel || border_fraction || volume_fetch) text += GlslTexelIndexHelpers();
  if (pixel) text += GlslTexelAddressHelpers();
  if (pixel && options.exact_bilinear) text += GlslExactBilinearHelpers();
  if (border_fraction) text += GlslBorderFractionHelpers();
  if (volume_fetch) text += GlslVolumeFilterHelpers();
  if (!pixel && options.domain_inputs) {
    text += "layout(std430, set = 1, binding = 2) readonly buffer XeDomainInputs {\n"
            "  vec4 xe_domain_inputs[];\n"
            "};\n";
  }
  text += EmitGlslMain(shader, analysis, options, r);
  r.constant_reads = ConstantReadsOf(shader, analysis);
  return text;
}

XeConstantReads ConstantReadsOf(const ucode::Shader& shader, const ucode::Analysis& analysis) {
  XeConstantReads reads = XeConstantReads::None();
  auto add = [&](uint32_t part, uint32_t first, uint32_t end) {
    XeConstantReads one = XeConstantReads::None();
    one.first[part] = uint16_t(first);
    one.end[part] = uint16_t(end);
    reads.Merge(one);
  };
  // Float constants: the operands' absolute indices; a relative one (c[# + a0], c[# + aL]) may
  // reach any of the stage's 256 (glsl_emitter.cpp OperandBase wraps it there).
  const uint32_t floats = shader.type == ucode::ShaderType::kPixel ? kXePixelFloatConstants
                                                                   : kXeVertexFloatConstants;
  if (analysis.uses_relative_constants) {
    add(floats, 0, 256);
  } else {
    for (uint32_t c = 0; c < 256; ++c) {
      if (analysis.float_constants[c / 64] >> (c % 64) & 1) add(floats, c, c + 1);
    }
  }
  // Fetch constants by the dwords the prelude's xe_fetch_dword reads: a vertex fetch constant's
  // two (slot k at dword 2k), a texture fetch constant's six (slot t at dword 6t).
  const uint32_t misc = kXeFetchBoolLoopConstants;
  for (uint32_t k = 0; k < 96; ++k) {
    if (analysis.vertex_fetch_constants[k / 32] >> (k % 32) & 1) add(misc, 2 * k / 4, 2 * k / 4 + 1);
  }
  for (uint32_t t = 0; t < 32; ++t) {
    if (analysis.texture_fetch_constants >> t & 1) add(misc, 6 * t / 4, (6 * t + 5) / 4 + 1);
  }
  // Bool and loop constants: their rows whole (10 rows at most).
  bool bools = false;
  for (uint32_t word : analysis.bool_constants_mask) bools |= word != 0;
  if (bools) add(misc, kXeBoolConstantsRow, kXeLoopConstantsRow);
  if (analysis.loop_constants) add(misc, kXeLoopConstantsRow, kXeConstantParts[misc].rows);
  return reads;
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
