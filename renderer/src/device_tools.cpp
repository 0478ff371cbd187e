// The command line's Vulkan work outside a replay (see device_tools.h).
#include "xnt/renderer/device_tools.h"

#include "xnt/base/error.h"
#include "xnt/ucode/analysis.h"

#if XNT_HAVE_VULKAN
#include "xnt/cpu/texture_callbacks.h"
#include "xnt/vk/present/post_vk.h"
#include "xnt/vk/translate_check.h"
#include "xnt/vk/translator/shader_translator.h"
#include "xnt/vk/vulkan_context.h"
#endif

namespace xnt::renderer {

#if XNT_HAVE_VULKAN

namespace {

const char* DeviceTypeName(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
  }
}

}  // namespace

bool HasVulkan() { return true; }

namespace {

// translate --check's cpu side samples real textures with the cpu path's texture unit.
std::shared_ptr<void> CpuTextureUnit(std::span<const uint32_t> fetch_constants, uint32_t address,
                                     std::span<const uint8_t> bytes, ucode::InterpreterCallbacks& cb) {
  auto unit = std::make_shared<cpu::TextureCallbacks>(fetch_constants, address, bytes);
  unit->Bind(cb);
  return unit;
}

}  // namespace

std::vector<DeviceSummary> ListDevices() {
  std::vector<DeviceSummary> out;
  for (const vk::PhysicalDeviceSummary& d : vk::VulkanContext::ListDevices()) {
    out.push_back({d.index, d.name, DeviceTypeName(d.type),
                   std::to_string(VK_API_VERSION_MAJOR(d.api_version)) + "." +
                       std::to_string(VK_API_VERSION_MINOR(d.api_version)) + "." +
                       std::to_string(VK_API_VERSION_PATCH(d.api_version))});
  }
  return out;
}

ShaderTranslation TranslateShader(const ucode::Shader& shader, const ShaderTranslationOptions& options) {
  vk::TranslationOptions t;
  if (options.ps_interpolator_count) t.ps_interpolator_count = options.ps_interpolator_count;
  if (options.fsi_output_merger) t.fsi_output_merger = 1;
  vk::TranslatedShader translated = vk::Translate(shader, ucode::Analyze(shader), t);
  return {std::move(translated.glsl), std::move(translated.spirv), std::move(translated.reflection.notes)};
}

TranslationCheck CheckTranslation(const ucode::Shader& shader, const TranslationCheckOptions& options) {
  vk::ContextOptions context_options;
  context_options.device_index = options.device_index;
  vk::VulkanContext context(context_options);
  vk::TranslateChecker checker(context);
  vk::TranslateCheckOptions check;
  check.lanes = options.lanes;
  check.seed = options.seed;
  check.fsi = options.fsi;
  check.quads = options.quads;
  if (options.ps_interpolator_count) check.ps_interpolator_count = options.ps_interpolator_count;
  check.texture_unit = CpuTextureUnit;
  const vk::TranslateCheckResult result = checker.Check(shader, check);
  return {result.agree(), result.Text(), result.Json()};
}

std::unique_ptr<present::PostProcessor> MakeDevicePostProcessor(const present::PostOptions& options,
                                                                int device_index, bool validate,
                                                                bool debug_labels) {
  vk::ContextOptions context_options;
  context_options.device_index = device_index;
  context_options.validate = validate;
  context_options.debug_labels = debug_labels;
  return vk::MakeVulkanPostProcessor(context_options, options);
}

#else

namespace {

[[noreturn]] void NoVulkan(const char* what) {
  throw Error(std::string(what) + ": this build has no Vulkan renderer (configure with -DXNT_VULKAN=ON)");
}

}  // namespace

bool HasVulkan() { return false; }
std::vector<DeviceSummary> ListDevices() { NoVulkan("listing devices"); }
ShaderTranslation TranslateShader(const ucode::Shader&, const ShaderTranslationOptions&) {
  NoVulkan("shader translation");
}
TranslationCheck CheckTranslation(const ucode::Shader&, const TranslationCheckOptions&) {
  NoVulkan("the translation check");
}
std::unique_ptr<present::PostProcessor> MakeDevicePostProcessor(const present::PostOptions&, int, bool,
                                                                bool) {
  NoVulkan("Vulkan post-processing");
}

#endif

}  // namespace xnt::renderer
