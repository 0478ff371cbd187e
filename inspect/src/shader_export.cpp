// The shader panel: the XDK listing (ucode disassembler), the chosen path's translation (the
// translator every Vulkan path uses, through renderer/device_tools.h), and the constants the
// shader reads with their values at the event. The stage partition of the float constants (the
// vertex shader's c0-c255 at ALU constants 0-255, the pixel shader's at 256-511) is
// gpu/stage_constants.h's.
#include <cstdio>

#include "site_internal.h"
#include "xnt/base/error.h"
#include "xnt/renderer/device_tools.h"
#include "xnt/ucode/disasm.h"
#include "xnt/ucode/shader_cache.h"

namespace xnt::inspect {
namespace {

std::string Hash(uint64_t hash) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
  return buf;
}

std::string Translation(const ucode::Shader& shader, renderer::Path path, Json& record) {
  if (path == renderer::Path::kCpu) {
    return "(the cpu path interprets the microcode itself: there is no translation to show; "
           "inspect with --path fbo or fsi for the GLSL)";
  }
  if (!renderer::HasVulkan()) return "(this build has no Vulkan translator)";
  try {
    renderer::ShaderTranslationOptions options;
    options.fsi_output_merger = path == renderer::Path::kFsi && shader.type == ucode::ShaderType::kPixel;
    renderer::ShaderTranslation t = renderer::TranslateShader(shader, options);
    record["spirv_words"] = t.spirv.size();
    record["translation_notes"] = t.notes;
    return t.glsl;
  } catch (const Error& e) {
    return std::string("(not translated: ") + e.what() + ")";
  }
}

}  // namespace

Json ShaderJson(const replay::Shader& shader, renderer::Path path) {
  Json record;
  record["hash"] = Hash(shader.hash);
  record["type"] = shader.type == xenos::ShaderType::kVertex ? "vertex" : "pixel";
  record["dwords"] = shader.dwords.size();
  record["address"] = shader.guest_address;
  const ucode::DecodedShader* decoded = shader.decoded.get();
  if (!decoded || !decoded->decodes()) {
    record["error"] = decoded ? decoded->error() : "not decoded";
    return record;
  }
  if (!decoded->analysis_error.empty()) record["error"] = decoded->analysis_error;
  record["listing"] = ucode::Disassemble(decoded->shader);
  record["glsl"] = Translation(decoded->shader, path, record);
  return record;
}

Json ConstantsRead(const replay::Shader& shader, const replay::RegisterFile& regs) {
  Json out;
  const ucode::DecodedShader* decoded = shader.decoded.get();
  if (!decoded || !decoded->ok()) return out;
  const ucode::Analysis& a = decoded->analysis;
  const uint32_t base = shader.type == xenos::ShaderType::kPixel ? 256 : 0;
  Json floats = Json::array();
  for (uint32_t c = 0; c < 256; ++c) {
    if (!((a.float_constants[c / 64] >> (c % 64)) & 1)) continue;
    floats.push_back(Json::array({c, regs.AluConstant(base + c, 0), regs.AluConstant(base + c, 1),
                                  regs.AluConstant(base + c, 2), regs.AluConstant(base + c, 3)}));
  }
  out["float"] = std::move(floats);
  if (a.uses_relative_constants) {
    out["relative"] = "c[#+a0] / c[#+aL]: any float constant may be read; listed are the ones "
                      "addressed directly";
  }
  Json bools = Json::array();
  for (uint32_t b = 0; b < 256; ++b) {
    if ((a.bool_constants_mask[b / 32] >> (b % 32)) & 1) {
      bools.push_back(Json::array({b, regs.BoolConstant(b) ? 1 : 0}));
    }
  }
  out["bool"] = std::move(bools);
  Json loops = Json::array();
  for (uint32_t i = 0; i < 32; ++i) {
    if (!((a.loop_constants >> i) & 1)) continue;
    const xenos::LoopConstant l = regs.Loop(i);
    loops.push_back(Json::array({i, l.count, l.start, l.step}));
  }
  out["loop"] = std::move(loops);
  return out;
}

}  // namespace xnt::inspect
