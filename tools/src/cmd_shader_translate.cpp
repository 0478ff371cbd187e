// `xenotrace shader translate`: one shader (container or raw microcode) through the SPIR-V
// translator (renderer/device_tools.h), written as SPIR-V and/or printed as GLSL, and validated
// with `spirv-val` when it is installed. Registered by cmd_shader.cpp. --check runs the fbo (or
// fsi) translation on the Vulkan device against the CPU interpreter (the harness and the comparison
// rules are the renderer's; this file only parses and prints).
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "command.h"
#include "shader_translate.h"
#include "xnt/base/error.h"
#include "xnt/renderer/device_tools.h"
#include "xnt/ucode/container.h"
#include "xnt/ucode/ucode.h"

namespace xnt::cli {

namespace {

bool OnPath(const char* tool) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::string p = path;
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    const std::string dir = p.substr(start, end - start);
    if (!dir.empty() && access((dir + "/" + tool).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

uint32_t InterpolatorCount(const ucode::ContainerFile* container) {
  // The inputs the container declares: r0 .. the highest declared register.
  uint32_t count = 0;
  for (const auto& i : container->interpolators) count = std::max(count, i.reg + 1);
  return count;
}

int RunCheck(const ucode::Shader& shader, const ucode::ContainerFile* container,
             const TranslateRequest& r) {
  renderer::TranslationCheckOptions options;
  options.fsi = r.path == "fsi";
  options.device_index = r.device;
  options.lanes = r.lanes;
  options.seed = r.seed;
  options.quads = r.quads;
  if (shader.type == ucode::ShaderType::kPixel && container && !container->interpolators.empty()) {
    options.ps_interpolator_count = InterpolatorCount(container);
  }
  const renderer::TranslationCheck result = renderer::CheckTranslation(shader, options);
  std::fputs((r.json ? result.json : result.text).c_str(), stdout);
  return result.agree ? kExitOk : kExitNo;
}

}  // namespace

int RunShaderTranslate(const ucode::Shader& shader, const ucode::ContainerFile* container,
                       const TranslateRequest& r) {
  if (r.path != "fbo" && r.path != "fsi") throw Error("--path must be fbo or fsi, not '" + r.path + "'");
  if (!renderer::HasVulkan()) {
    std::fprintf(stderr, "xenotrace: error: shader translate needs the Vulkan build (XNT_VULKAN=ON)\n");
    return kExitError;
  }
  if (r.check) return RunCheck(shader, container, r);
  renderer::ShaderTranslationOptions options;
  const bool pixel = shader.type == ucode::ShaderType::kPixel;
  if (pixel && container && !container->interpolators.empty()) {
    options.ps_interpolator_count = InterpolatorCount(container);
  }
  options.fsi_output_merger = pixel && r.path == "fsi";
  const renderer::ShaderTranslation t = renderer::TranslateShader(shader, options);
  if (r.glsl) std::fputs(t.glsl.c_str(), stdout);
  for (const auto& note : t.notes) std::fprintf(stderr, "note: %s\n", note.c_str());

  // SPIR-V words in host (little-endian) order, as .spv files are.
  std::string spv = r.output;
  std::filesystem::path temp;
  if (spv.empty()) {
    temp = std::filesystem::temp_directory_path() /
           ("xenotrace-translate-" + std::to_string(getpid()) + ".spv");
    spv = temp.string();
  }
  {
    std::ofstream f(spv, std::ios::binary);
    f.write(reinterpret_cast<const char*>(t.spirv.data()), std::streamsize(t.spirv.size() * 4));
    if (!f) throw Error("cannot write " + spv);
  }
  int rc = kExitOk;
  if (OnPath("spirv-val")) {
    // Vulkan 1.1, the environment the translator compiles for (shader_compiler.cpp).
    const std::string cmd = "spirv-val --target-env vulkan1.1 '" + spv + "'";
    const int status = std::system(cmd.c_str());
    if (status != 0) {
      std::fprintf(stderr, "spirv-val rejected the translated shader\n");
      rc = kExitNo;
    } else {
      std::fprintf(stderr, "%s: %zu SPIR-V words, spirv-val: valid\n",
                   r.output.empty() ? "(not written)" : r.output.c_str(), t.spirv.size());
    }
  } else {
    std::fprintf(stderr, "%s: %zu SPIR-V words (spirv-val not installed: not validated)\n",
                 r.output.empty() ? "(not written)" : r.output.c_str(), t.spirv.size());
  }
  if (!temp.empty()) std::filesystem::remove(temp);
  return rc;
}

}  // namespace xnt::cli
