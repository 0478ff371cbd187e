// The Vulkan work the command line does outside a replay, behind one header: listing devices,
// translating one guest shader, checking a translation on the device against the interpreter, and
// the post-processing chain as compute passes. Commands reach Vulkan through this and session.h
// only, so they build and read the same without Vulkan (each call then says the build has none).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "xnt/present/post.h"
#include "xnt/ucode/ucode.h"

namespace xnt::renderer {

// False in a build configured without Vulkan (XNT_VULKAN=OFF).
bool HasVulkan();

struct DeviceSummary {
  int index = 0;        // what SessionOptions::device_index and --device N take
  std::string name;
  std::string type;     // "discrete GPU", "integrated GPU", "virtual GPU", "CPU", "other"
  std::string api;      // Vulkan version the driver reports, "1.3.255"
};
// Throws xnt::Error without a Vulkan loader / driver, or without Vulkan in the build.
std::vector<DeviceSummary> ListDevices();

struct ShaderTranslationOptions {
  // Pixel shaders: interpolators loaded into r0.. (0: the translator's default).
  uint32_t ps_interpolator_count = 0;
  // Pixel shaders: the fsi path's output merger in the shader instead of colour outputs.
  bool fsi_output_merger = false;
};
struct ShaderTranslation {
  std::string glsl;
  std::vector<uint32_t> spirv;     // host (little-endian) word order, as .spv files are
  std::vector<std::string> notes;  // what the translation could not express exactly
};
// The translator every Vulkan path uses, for one shader. Throws xnt::Error.
ShaderTranslation TranslateShader(const ucode::Shader& shader, const ShaderTranslationOptions& options);

struct TranslationCheckOptions {
  int device_index = -1;
  uint32_t lanes = 256;  // pixels (one point each) or vertices, 1..16384
  uint64_t seed = 1;
  uint32_t ps_interpolator_count = 0;  // 0: the checker's default
  bool fsi = false;  // the fsi path's translation options (TranslateCheckOptions::fsi)
  bool quads = false;  // pixel lanes in 2x2 quads (TranslateCheckOptions::quads)
};
struct TranslationCheck {
  bool agree = false;  // every lane's exports equal on the device and in the interpreter
  std::string text;    // the report, as `shader translate --check` prints it
  std::string json;
};
// The fbo (or fsi) path's translation of `shader` on the device against the CPU interpreter over
// random inputs. Throws xnt::Error (no device, shader not checkable).
TranslationCheck CheckTranslation(const ucode::Shader& shader, const TranslationCheckOptions& options);

// The post-processing chain as Vulkan compute passes on device `device_index` (-1: the first
// discrete GPU, else the first). Throws xnt::Error when no device can be created. With
// `debug_labels`, each pass is a debug label (vk::ContextOptions::debug_labels).
std::unique_ptr<present::PostProcessor> MakeDevicePostProcessor(const present::PostOptions& options,
                                                                int device_index, bool validate,
                                                                bool debug_labels = false);

}  // namespace xnt::renderer
