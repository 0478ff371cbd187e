// Host-side GLSL (see host_shaders.h).
#include "xnt/vk/host_shaders.h"

#include <shaderc/shaderc.h>

#include <algorithm>
#include <string>

#include "xnt/base/error.h"
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

std::vector<uint32_t> RectangleListGeometryShader(uint32_t passed_interpolators) {
  passed_interpolators = std::clamp<uint32_t>(passed_interpolators, 1, kInterpolatorCount);
  {
    std::string n = std::to_string(passed_interpolators);
    std::string total = std::to_string(kInterpolatorCount);
    std::string source = R"(#version 450
layout(triangles) in;
layout(triangle_strip, max_vertices = 4) out;
layout(location = 0) in vec4 xe_in[][)" + n + R"(];
layout(location = 0) out vec4 xe_interpolators[)" + total + R"(];

void EmitCorner(int i) {
  gl_Position = gl_in[i].gl_Position;
  for (int k = 0; k < )" + n + R"(; ++k) xe_interpolators[k] = xe_in[i][k];
  for (int k = )" + n + R"(; k < )" + total + R"(; ++k) xe_interpolators[k] = vec4(0.0);
  EmitVertex();
}

void main() {
  // Screen-space edge lengths; the longest edge is the diagonal.
  vec2 p0 = gl_in[0].gl_Position.xy / gl_in[0].gl_Position.w;
  vec2 p1 = gl_in[1].gl_Position.xy / gl_in[1].gl_Position.w;
  vec2 p2 = gl_in[2].gl_Position.xy / gl_in[2].gl_Position.w;
  float d01 = dot(p1 - p0, p1 - p0);
  float d12 = dot(p2 - p1, p2 - p1);
  float d20 = dot(p0 - p2, p0 - p2);
  // c = right-angle corner; (a, b) keep the guest's cyclic order so the winding is preserved.
  int c = 0, a = 1, b = 2;
  if (d20 > d12 && d20 >= d01) { c = 1; a = 2; b = 0; }
  else if (d01 > d12 && d01 > d20) { c = 2; a = 0; b = 1; }
  // Strip c, a, b, d: triangles (c, a, b) and (a, d, b), both with the guest winding.
  EmitCorner(c);
  EmitCorner(a);
  EmitCorner(b);
  gl_Position = gl_in[a].gl_Position + gl_in[b].gl_Position - gl_in[c].gl_Position;
  for (int k = 0; k < )" + n + R"(; ++k) {
    xe_interpolators[k] = xe_in[a][k] + xe_in[b][k] - xe_in[c][k];
  }
  for (int k = )" + n + R"(; k < )" + total + R"(; ++k) xe_interpolators[k] = vec4(0.0);
  EmitVertex();
  EndPrimitive();
}
)";
    return CompileHostGlsl(source, VK_SHADER_STAGE_GEOMETRY_BIT, "xe_rectangle_list.geom");
  }
}

}  // namespace xnt::vk
