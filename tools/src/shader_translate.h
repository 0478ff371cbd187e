// `xenotrace shader translate` (cmd_shader_translate.cpp), called from cmd_shader.cpp.
#pragma once

#include <string>

#include "xnt/ucode/container.h"
#include "xnt/ucode/ucode.h"

namespace xnt::cli {

struct TranslateRequest {
  std::string path = "fbo";  // fbo or fsi
  std::string output;        // SPIR-V file, "" = none
  bool glsl = false;
  bool check = false;        // GPU against the CPU interpreter: not implemented (exit 2)
};

// Exit code: 0 translated (and valid where spirv-val is installed), 1 spirv-val rejected it,
// 2 usage or not available in this build.
int RunShaderTranslate(const ucode::Shader& shader, const ucode::ContainerFile* container,
                       const TranslateRequest& r);

}  // namespace xnt::cli
