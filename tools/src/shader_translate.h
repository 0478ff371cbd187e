// `xenotrace shader translate` (cmd_shader_translate.cpp), called from cmd_shader.cpp.
#pragma once

#include <cstdint>
#include <string>

#include "xnt/ucode/container.h"
#include "xnt/ucode/ucode.h"

namespace xnt::cli {

struct TranslateRequest {
  std::string path = "fbo";  // fbo or fsi
  std::string output;        // SPIR-V file, "" = none
  bool glsl = false;
  // --check: the fbo (--path fsi: the fsi) translation on the Vulkan device against the CPU
  // interpreter (renderer/device_tools.h).
  bool check = false;
  uint32_t lanes = 256;
  uint64_t seed = 1;
  bool quads = false;  // pixel shaders in 2x2 quads (derivatives, LOD)
  int device = -1;
  bool json = false;
};

// Exit code: 0 translated (and valid where spirv-val is installed) / --check: every lane agrees;
// 1 spirv-val rejected it / --check: a lane disagrees; 2 usage, input or device error, or not
// available in this build.
int RunShaderTranslate(const ucode::Shader& shader, const ucode::ContainerFile* container,
                       const TranslateRequest& r);

}  // namespace xnt::cli
