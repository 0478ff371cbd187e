// Host-side GLSL (see host_shaders.h).
#include "xnt/vk/host_shaders.h"

#include <shaderc/shaderc.h>

#include <algorithm>
#include <iterator>
#include <span>
#include <string>

#include "xnt/base/error.h"
#include "xnt/vk/translator/line_quad.h"
#include "xnt/vk/translator/output_merger_interface.h"
#include "xnt/vk/translator/point_quad.h"
#include "xnt/vk/translator/rectangle_list.h"
#include "xnt/vk/translator/shader_interface.h"
#include "xnt/vk/translator/spirv_cache.h"

namespace xnt::vk {

static std::vector<uint32_t> CompileHostGlslNow(std::string_view source, int shader_kind,
                                                std::string_view name);

std::vector<uint32_t> CompileHostGlsl(std::string_view source, VkShaderStageFlagBits stage,
                                      std::string_view name) {
  shaderc_shader_kind kind;
  switch (stage) {
    case VK_SHADER_STAGE_VERTEX_BIT: kind = shaderc_vertex_shader; break;
    case VK_SHADER_STAGE_GEOMETRY_BIT: kind = shaderc_geometry_shader; break;
    case VK_SHADER_STAGE_FRAGMENT_BIT: kind = shaderc_fragment_shader; break;
    case VK_SHADER_STAGE_COMPUTE_BIT: kind = shaderc_compute_shader; break;
    default: throw Error("CompileHostGlsl: unsupported stage");
  }
  // Host shaders share the translator's on-disk cache; the tag names the settings below.
  const std::string tag = "host " + std::to_string(int(kind)) + " vk1.1 O-performance";
  return CachedSpirv(tag, source, [&] { return CompileHostGlslNow(source, kind, name); });
}

static std::vector<uint32_t> CompileHostGlslNow(std::string_view source, int shader_kind,
                                                std::string_view name) {
  const auto kind = shaderc_shader_kind(shader_kind);
  shaderc_compiler_t compiler = shaderc_compiler_initialize();
  shaderc_compile_options_t options = shaderc_compile_options_initialize();
  shaderc_compile_options_set_target_env(options, shaderc_target_env_vulkan,
                                         shaderc_env_version_vulkan_1_1);
  shaderc_compile_options_set_optimization_level(options, shaderc_optimization_level_performance);
  std::string name_str(name);
  shaderc_compilation_result_t result = shaderc_compile_into_spv(
      compiler, source.data(), source.size(), kind, name_str.c_str(), "main", options);
  std::vector<uint32_t> words;
  bool ok = shaderc_result_get_compilation_status(result) == shaderc_compilation_status_success;
  std::string log = shaderc_result_get_error_message(result);
  if (ok) {
    const auto* data = reinterpret_cast<const uint32_t*>(shaderc_result_get_bytes(result));
    words.assign(data, data + shaderc_result_get_length(result) / 4);
  }
  shaderc_result_release(result);
  shaderc_compile_options_release(options);
  shaderc_compiler_release(compiler);
  if (!ok) throw Error("host shader " + name_str + " failed to compile:\n" + log);
  return words;
}

uint32_t GeometryShaderInterpolators(VkPhysicalDevice device, uint32_t clip, uint32_t cull) {
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(device, &props);
  return GeometryShaderInterpolators(props.limits.maxGeometryInputComponents, clip, cull);
}

uint32_t GeometryShaderInterpolators(uint32_t limit, uint32_t clip, uint32_t cull) {
  // At least one interpolator (the shaders declare a non-empty array).
  const uint32_t per_vertex = GeometryPerVertexComponents(clip, cull);
  return std::clamp<uint32_t>(limit > per_vertex ? (limit - per_vertex) / 4 : 1, 1,
                              kInterpolatorCount);
}

std::vector<uint32_t> QuadGeometryShader(PrimitiveQuads kind, uint32_t passed_interpolators,
                                         uint32_t clip, uint32_t cull, uint32_t corner_planes,
                                         bool corner_cull) {
  if (kind == PrimitiveQuads::kPoints) {
    return CompileHostGlsl(PointQuadGeometryShaderGlsl(passed_interpolators, clip, cull,
                                                       corner_planes, corner_cull),
                           VK_SHADER_STAGE_GEOMETRY_BIT, "point_quad_gs");
  }
  return CompileHostGlsl(LineQuadGeometryShaderGlsl(passed_interpolators, clip, cull),
                         VK_SHADER_STAGE_GEOMETRY_BIT, "line_quad_gs");
}

std::vector<uint32_t> RectangleListGeometryShader(uint32_t passed_interpolators, uint32_t clip,
                                                  uint32_t cull, bool kill_clip_distance) {
  return CompileHostGlsl(
      RectangleListGeometryShaderGlsl(passed_interpolators, clip, cull, kill_clip_distance),
      VK_SHADER_STAGE_GEOMETRY_BIT, "rectangle_list_gs");
}

}  // namespace xnt::vk
