// Instance/device creation and the capability record (see vulkan_context.h).
#include "xnt/vk/vulkan_context.h"

#include "device_wide_call.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "xnt/base/error.h"
#include "xnt/vk/kept_objects.h"
#include "xnt/vk/pipeline_cache_file.h"
#include "xnt/vk/translator/spirv_cache.h"

namespace xnt::vk {

const char* VkResultName(VkResult result) {
  switch (result) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_INCOMPLETE: return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    default: return "VkResult error";
  }
}

void CheckVk(VkResult result, const char* what) {
  if (result != VK_SUCCESS) {
    throw Error(std::string("Vulkan: ") + what + " failed: " + VkResultName(result) + " (" +
                std::to_string(int(result)) + ")");
  }
}

namespace {

bool HasExtension(const std::vector<VkExtensionProperties>& list, const char* name) {
  return std::any_of(list.begin(), list.end(), [&](const VkExtensionProperties& e) {
    return std::strcmp(e.extensionName, name) == 0;
  });
}

std::atomic<ValidationObserver> g_validation_observer{nullptr};

// The instance extensions the loader offers, with those of `layer` (null: the loader's and the
// implicit layers').
std::vector<VkExtensionProperties> InstanceExtensions(const char* layer) {
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(layer, &count, nullptr);
  std::vector<VkExtensionProperties> exts(count);
  vkEnumerateInstanceExtensionProperties(layer, &count, exts.data());
  exts.resize(count);
  return exts;
}

VkInstance CreateBareInstance(bool validate, bool sync_validation, bool labels,
                              bool* debug_utils_enabled) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "xenotrace";
  app.applicationVersion = VK_MAKE_VERSION(0, 1, 0);
  app.pEngineName = "xenotrace";
  app.apiVersion = VK_API_VERSION_1_3;

  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  *debug_utils_enabled = false;
  if (validate) {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> available(count);
    vkEnumerateInstanceLayerProperties(&count, available.data());
    bool found = std::any_of(available.begin(), available.end(), [](const VkLayerProperties& l) {
      return std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation") == 0;
    });
    if (!found) {
      throw Error("--validate: VK_LAYER_KHRONOS_validation is not installed "
                  "(Debian: apt install vulkan-validationlayers)");
    }
    layers.push_back("VK_LAYER_KHRONOS_validation");
  }
  // Debug utils: the validation layer's messenger needs it, labels and names ask for it. The
  // loader usually offers it; else the validation layer provides it itself (RenderDoc's capture
  // layer, when loaded, is an implicit layer whose extensions the loader's list includes).
  if (validate || labels) {
    std::vector<VkExtensionProperties> exts = InstanceExtensions(nullptr);
    if (!HasExtension(exts, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) && validate) {
      exts = InstanceExtensions("VK_LAYER_KHRONOS_validation");
    }
    if (HasExtension(exts, VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      *debug_utils_enabled = true;
    }
  }
  if (validate && sync_validation) {
    // VkValidationFeaturesEXT belongs to VK_EXT_validation_features, which the layer provides.
    if (!HasExtension(InstanceExtensions("VK_LAYER_KHRONOS_validation"),
                      VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
      throw Error("synchronization validation: the validation layer lacks "
                  "VK_EXT_validation_features");
    }
    extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
  }
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  const VkValidationFeatureEnableEXT sync_feature =
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = &sync_feature;
  if (validate && sync_validation) info.pNext = &features;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = uint32_t(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkInstance instance = VK_NULL_HANDLE;
  VkResult r = vkCreateInstance(&info, nullptr, &instance);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER) {
    throw Error("Vulkan: no Vulkan 1.3 driver found (install Mesa lavapipe: mesa-vulkan-drivers, "
                "or set VK_DRIVER_FILES to an ICD json)");
  }
  CheckVk(r, "vkCreateInstance");
  return instance;
}

// The device version a device must report. RenderDoc's capture layer (enabled by
// ENABLE_VULKAN_RENDERDOC_CAPTURE=1, which both `renderdoccmd capture` and replay
// --renderdoc-capture set) reports Vulkan 1.2 for a 1.3 device without
// bufferDeviceAddressCaptureReplay, because 1.3 would oblige it to advertise buffer device
// addresses it cannot capture there (its maintainer's explanation in the baldurk/renderdoc
// question "Can RenderDoc support Vk 1.3 without bufferDeviceAddressCaptureReplay?"); it still
// passes the 1.3 core commands through. The renderer uses no buffer device address, so under
// that layer a reported 1.2 is taken as the driver's 1.3 (lavapipe is such a device).
bool RenderDocLayerEnabled() {
  const char* renderdoc = std::getenv("ENABLE_VULKAN_RENDERDOC_CAPTURE");
  return renderdoc && std::strcmp(renderdoc, "1") == 0;
}
uint32_t RequiredReportedVersion() {
  return RenderDocLayerEnabled() ? VK_API_VERSION_1_2 : VK_API_VERSION_1_3;
}

std::vector<VkPhysicalDevice> EnumerateDevices(VkInstance instance) {
  uint32_t count = 0;
  CheckVk(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  CheckVk(vkEnumeratePhysicalDevices(instance, &count, devices.data()),
          "vkEnumeratePhysicalDevices");
  devices.resize(count);
  return devices;
}

// Instances are kept for the life of the process and handed to the next context with the same
// layers, never destroyed:
// - NVIDIA's driver libraries use static TLS. The Vulkan loader unloads a driver when its last
//   instance is destroyed and loads it again for the next one, and after a few dozen such cycles
//   in one process (`compare` makes a session per trace, path and bisection step) the dynamic
//   loader has no static TLS left and the driver no longer loads: vkCreateInstance then reports
//   no compatible driver (seen on the H100 machine after ~50 sessions).
// - Creating one is a large part of a short replay's start-up: the loader opens every installed
//   driver and each parses its configuration (lavapipe machine: 6 drivers). Kept instances pay it
//   once per process; before, a bare instance was made only to keep the drivers loaded, so every
//   process paid it twice (docs/speed.md).
// A kept instance has no device and no messenger left on it (Destroy removes both).
struct IdleInstance {
  bool validate = false, sync_validation = false, labels = false, debug_utils = false;
  VkInstance instance = VK_NULL_HANDLE;
};

std::mutex g_idle_mutex;
std::vector<IdleInstance>& IdleInstances() {
  static auto* idle = new std::vector<IdleInstance>();  // never freed: see above
  return *idle;
}

VkInstance TakeInstance(bool validate, bool sync_validation, bool labels, bool* debug_utils) {
  {
    std::lock_guard<std::mutex> lock(g_idle_mutex);
    std::vector<IdleInstance>& idle = IdleInstances();
    for (size_t i = 0; i < idle.size(); ++i) {
      if (idle[i].validate == validate && idle[i].sync_validation == sync_validation &&
          idle[i].labels == labels) {
        const IdleInstance taken = idle[i];
        idle.erase(idle.begin() + std::ptrdiff_t(i));
        *debug_utils = taken.debug_utils;
        return taken.instance;
      }
    }
  }
  return CreateBareInstance(validate, sync_validation, labels, debug_utils);
}

void ReturnInstance(VkInstance instance, bool validate, bool sync_validation, bool labels,
                    bool debug_utils) {
  std::lock_guard<std::mutex> lock(g_idle_mutex);
  IdleInstances().push_back({validate, sync_validation, labels, debug_utils, instance});
}

}  // namespace

std::mutex& DeviceWideCallMutex() {
  static std::mutex mutex;
  return mutex;
}

std::vector<PhysicalDeviceSummary> VulkanContext::ListDevices() {
  bool debug_utils = false;
  VkInstance instance = TakeInstance(false, false, false, &debug_utils);
  std::vector<PhysicalDeviceSummary> out;
  try {
    auto devices = EnumerateDevices(instance);
    for (size_t i = 0; i < devices.size(); ++i) {
      VkPhysicalDeviceProperties p;
      vkGetPhysicalDeviceProperties(devices[i], &p);
      out.push_back({int(i), p.deviceName, p.deviceType, p.apiVersion});
    }
  } catch (...) {
    ReturnInstance(instance, false, false, false, debug_utils);
    throw;
  }
  ReturnInstance(instance, false, false, false, debug_utils);
  return out;
}

void SetValidationObserver(ValidationObserver observer) { g_validation_observer.store(observer); }

VKAPI_ATTR VkBool32 VKAPI_CALL VulkanContext::DebugCallback(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  (void)types;
  auto* self = static_cast<VulkanContext*>(user);
  if (self->print_validation_) {
    std::fprintf(stderr, "[vulkan] %s\n", data && data->pMessage ? data->pMessage : "");
  }
  if (ValidationObserver observer = g_validation_observer.load()) {
    observer(data && data->pMessage ? data->pMessage : "(no message)");
  }
  std::lock_guard<std::mutex> lock(self->messages_mutex_);
  ++self->message_count_;
  // Keep the first messages verbatim; a runaway error would otherwise eat memory.
  if (self->messages_.size() < 256) {
    const char* level =
        (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error" : "warning";
    self->messages_.push_back(std::string("validation ") + level + ": " +
                              (data && data->pMessage ? data->pMessage : "(no message)"));
  }
  return VK_FALSE;
}

VulkanContext::VulkanContext(const ContextOptions& options) {
  bool debug_utils = false;
  // A process RenderDoc captures (started under it, or replay --renderdoc-capture) gets labels
  // whatever the command asked: the capture is what they are for.
  labels_requested_ = options.debug_labels || RenderDocLayerEnabled();
  instance_ = TakeInstance(options.validate, options.synchronization_validation,
                           labels_requested_, &debug_utils);
  validation_enabled_ = options.validate;
  synchronization_validation_ = options.synchronization_validation;
  debug_utils_ = debug_utils;
  print_validation_ = options.print_validation;
  gpu_timeout_ms_ = options.gpu_timeout_ms;
  gpu_stage_timestamps_ = options.gpu_stage_timestamps;
  initial_ring_bytes_ = options.initial_ring_bytes;
  try {
    if (debug_utils && options.validate) {
      auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
          vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
      if (create) {
        VkDebugUtilsMessengerCreateInfoEXT info{
            VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
        info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        // Performance hints (e.g. an interpolator written but not read) are not API misuse and
        // are not counted.
        info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
        info.pfnUserCallback = &VulkanContext::DebugCallback;
        info.pUserData = this;
        CheckVk(create(instance_, &info, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
      }
    }
    ChoosePhysicalDevice(options.device_index);
    QueryCapabilities();
    CreateDevice();
    if (debug_utils && labels_requested_) labels_.Load(instance_, device_);
    pipeline_cache_ = std::make_unique<PipelineCacheFile>(*this, SpirvCacheDirectory());
    kept_ = std::make_unique<KeptObjects>(device_);
    device_index_ = options.device_index;
  } catch (...) {
    Destroy();
    throw;
  }
}

VulkanContext::~VulkanContext() { Destroy(); }

namespace {

// Contexts whose sessions ended, for the next session of their kind (VulkanContext::Keep). Never
// freed, as the instances they hold are not: a process ends with them, which skips the driver's
// device teardown as SaveBeforeExit does.
std::mutex g_kept_mutex;
std::vector<std::unique_ptr<VulkanContext>>& KeptContexts() {
  static auto* kept = new std::vector<std::unique_ptr<VulkanContext>>();
  return *kept;
}
// compare --jobs runs a session per worker; a few more than that come back between its steps.
constexpr size_t kMaxKeptContexts = 8;
// A kept device keeps the pipelines its last two sessions asked for and destroys the others. A
// driver's pipeline is not small (lavapipe's JIT code and state: about 4 MiB; `compare` of 68
// sample traces at three scales peaked 310 MiB above the same run without kept devices when every
// pipeline was kept), and what the next session needs is what the last ones did: the same trace
// at the next scale or on the other path, the next bisection step. So what a kept device holds is
// never more than what two sessions held while they ran.
constexpr uint64_t kKeptSessions = 2;

bool KeepDevices() {
  const char* v = std::getenv("XNT_KEEP_DEVICES");
  return !(v && std::string(v) == "0");
}

}  // namespace

std::unique_ptr<VulkanContext> VulkanContext::Take(const ContextOptions& options) {
  const bool labels = options.debug_labels || RenderDocLayerEnabled();
  std::unique_ptr<VulkanContext> context;
  if (KeepDevices()) {
    std::lock_guard lock(g_kept_mutex);
    auto& kept = KeptContexts();
    // The most recent first: the likeliest to hold the next session's pipelines (the same trace
    // at the next scale, the next bisection step).
    for (size_t i = kept.size(); i-- > 0;) {
      const VulkanContext& c = *kept[i];
      if (c.device_index_ == options.device_index && c.validation_enabled_ == options.validate &&
          c.synchronization_validation_ == options.synchronization_validation &&
          c.labels_requested_ == labels) {
        context = std::move(kept[i]);
        kept.erase(kept.begin() + std::ptrdiff_t(i));
        break;
      }
    }
  }
  if (!context) return std::make_unique<VulkanContext>(options);
  // What a new context would start with, but the device and what it keeps.
  context->print_validation_ = options.print_validation;
  context->gpu_timeout_ms_ = options.gpu_timeout_ms;
  context->gpu_stage_timestamps_ = options.gpu_stage_timestamps;
  context->initial_ring_bytes_ = options.initial_ring_bytes;
  context->gpu_seconds_ = 0.0;
  context->gpu_stage_seconds_ = {};
  context->SetEventInFlight("vulkan", nullptr, 0, 0);
  context->ResetValidationMessages();
  context->kept().BeginSession();
  return context;
}

void VulkanContext::DropKept() {
  std::vector<std::unique_ptr<VulkanContext>> dropped;  // destroyed outside the lock
  std::lock_guard lock(g_kept_mutex);
  dropped.swap(KeptContexts());
}

void VulkanContext::Keep(std::unique_ptr<VulkanContext> context) {
  if (!context) return;
  if (!KeepDevices() || context->hung() || !context->device_ || !context->WaitIdle()) return;
  if (context->pipeline_cache_) context->pipeline_cache_->Save();
  context->kept().KeepOnlyRecent(kKeptSessions);
  std::unique_ptr<VulkanContext> oldest;  // destroyed outside the lock
  std::lock_guard lock(g_kept_mutex);
  auto& kept = KeptContexts();
  kept.push_back(std::move(context));
  if (kept.size() > kMaxKeptContexts) {
    oldest = std::move(kept.front());
    kept.erase(kept.begin());
  }
}

void VulkanContext::SaveBeforeExit() {
  if (device_ && WaitIdle() && pipeline_cache_) pipeline_cache_->Save();
}

VkPipelineCache VulkanContext::pipeline_cache() const { return pipeline_cache_->handle(); }

uint64_t VulkanContext::pipeline_cache_loaded_pipeline_bytes() const {
  return pipeline_cache_->loaded_pipeline_bytes();
}

void VulkanContext::Destroy() {
  if (device_ && !WaitIdle()) {
    // Its last submission never finished: destroying the device under pending work is undefined
    // and may block in the driver. The device and its instance are left to the process's end.
    (void)pipeline_cache_.release();
    (void)kept_.release();
    device_ = VK_NULL_HANDLE;
    instance_ = VK_NULL_HANDLE;
    messenger_ = VK_NULL_HANDLE;
    return;
  }
  if (device_) {
    std::lock_guard device_wide(DeviceWideCallMutex());
    vkDeviceWaitIdle(device_);
    pipeline_cache_.reset();
    kept_.reset();
    if (fence_) vkDestroyFence(device_, fence_, nullptr);
    if (command_pool_) vkDestroyCommandPool(device_, command_pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }
  if (messenger_) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance_, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
  }
  if (instance_) {
    ReturnInstance(instance_, validation_enabled_, synchronization_validation_, labels_requested_,
                   debug_utils_);
    instance_ = VK_NULL_HANDLE;
  }
}

void VulkanContext::ChoosePhysicalDevice(int device_index) {
  auto devices = EnumerateDevices(instance_);
  if (devices.empty()) throw Error("Vulkan: no physical devices");
  auto has_graphics = [](VkPhysicalDevice d) {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(d, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    vkGetPhysicalDeviceQueueFamilyProperties(d, &n, families.data());
    for (auto& f : families) {
      if (f.queueFlags & VK_QUEUE_GRAPHICS_BIT) return true;
    }
    return false;
  };
  if (device_index >= 0) {
    if (size_t(device_index) >= devices.size()) {
      throw Error("--device " + std::to_string(device_index) + ": only " +
                  std::to_string(devices.size()) + " Vulkan device(s) present");
    }
    physical_device_ = devices[size_t(device_index)];
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(physical_device_, &p);
    if (p.apiVersion < RequiredReportedVersion()) {
      throw Error(std::string("--device: ") + p.deviceName + " supports only Vulkan " +
                  std::to_string(VK_API_VERSION_MAJOR(p.apiVersion)) + "." +
                  std::to_string(VK_API_VERSION_MINOR(p.apiVersion)) + "; 1.3 is required");
    }
    if (!has_graphics(physical_device_)) {
      throw Error(std::string("--device: ") + p.deviceName + " has no graphics queue");
    }
    return;
  }
  VkPhysicalDevice fallback = VK_NULL_HANDLE;
  for (auto d : devices) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(d, &p);
    if (p.apiVersion < RequiredReportedVersion() || !has_graphics(d)) continue;
    if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU) {
      physical_device_ = d;
      return;
    }
    if (!fallback) fallback = d;
  }
  if (!fallback) throw Error("Vulkan: no device with Vulkan 1.3 and a graphics queue");
  physical_device_ = fallback;
}

void VulkanContext::QueryCapabilities() {
  uint32_t ext_count = 0;
  vkEnumerateDeviceExtensionProperties(physical_device_, nullptr, &ext_count, nullptr);
  std::vector<VkExtensionProperties> exts(ext_count);
  vkEnumerateDeviceExtensionProperties(physical_device_, nullptr, &ext_count, exts.data());

  VkPhysicalDeviceFragmentShaderInterlockFeaturesEXT fsi{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_INTERLOCK_FEATURES_EXT};
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  f2.pNext = &f12;
  f12.pNext = &f13;
  bool has_fsi_ext = HasExtension(exts, VK_EXT_FRAGMENT_SHADER_INTERLOCK_EXTENSION_NAME);
  if (has_fsi_ext) f13.pNext = &fsi;
  vkGetPhysicalDeviceFeatures2(physical_device_, &f2);

  VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  p2.pNext = &p12;
  vkGetPhysicalDeviceProperties2(physical_device_, &p2);
  const auto& props = p2.properties;

  caps_.device_name = props.deviceName;
  caps_.driver_name = p12.driverName;
  caps_.vendor_id = props.vendorID;
  caps_.device_id = props.deviceID;
  caps_.api_version = props.apiVersion;
  caps_.device_type = props.deviceType;
  caps_.fragment_shader_interlock =
      has_fsi_ext && fsi.fragmentShaderPixelInterlock && fsi.fragmentShaderSampleInterlock;
  caps_.sparse_binding = f2.features.sparseBinding && f2.features.sparseResidencyBuffer;
  caps_.sparse_address_space_size = props.limits.sparseAddressSpaceSize;
  caps_.max_storage_buffer_range = props.limits.maxStorageBufferRange;
  caps_.max_storage_buffers_per_stage = props.limits.maxPerStageDescriptorStorageBuffers;
  caps_.depth_range_unrestricted =
      HasExtension(exts, VK_EXT_DEPTH_RANGE_UNRESTRICTED_EXTENSION_NAME);
  caps_.shader_stencil_export = HasExtension(exts, VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME);
  caps_.geometry_shader = f2.features.geometryShader;
  caps_.geometry_point_size =
      f2.features.geometryShader && f2.features.shaderTessellationAndGeometryPointSize;
  caps_.depth_clamp = f2.features.depthClamp;
  caps_.clip_cull_distance = f2.features.shaderClipDistance && f2.features.shaderCullDistance;
  caps_.independent_blend = f2.features.independentBlend;
  caps_.large_points = f2.features.largePoints;
  caps_.sample_rate_shading = f2.features.sampleRateShading;
  caps_.wide_lines = f2.features.wideLines;
  caps_.shader_demote = f13.shaderDemoteToHelperInvocation;
  caps_.shader_float64 = f2.features.shaderFloat64;
  caps_.sampler_mirror_clamp_to_edge = f12.samplerMirrorClampToEdge;
  caps_.sampler_anisotropy = f2.features.samplerAnisotropy;
  caps_.max_sampler_anisotropy = props.limits.maxSamplerAnisotropy;
  caps_.max_sampler_lod_bias = props.limits.maxSamplerLodBias;
  caps_.float_denorm_flush_to_zero_32 = p12.shaderDenormFlushToZeroFloat32;
  caps_.float_denorm_preserve_32 = p12.shaderDenormPreserveFloat32;
  caps_.float_rounding_rte_32 = p12.shaderRoundingModeRTEFloat32;
  caps_.float_signed_zero_inf_nan_preserve_32 = p12.shaderSignedZeroInfNanPreserveFloat32;
  caps_.non_coherent_atom_size = props.limits.nonCoherentAtomSize;
  caps_.min_storage_buffer_offset_alignment = props.limits.minStorageBufferOffsetAlignment;
  caps_.min_uniform_buffer_offset_alignment = props.limits.minUniformBufferOffsetAlignment;

  auto depth_ok = [&](VkFormat format) {
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(physical_device_, format, &fp);
    return (fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) != 0;
  };
  caps_.d24s8_supported = depth_ok(VK_FORMAT_D24_UNORM_S8_UINT);
  if (caps_.d24s8_supported) {
    caps_.depth_stencil_format = VK_FORMAT_D24_UNORM_S8_UINT;
  } else if (depth_ok(VK_FORMAT_D32_SFLOAT_S8_UINT)) {
    // Required by the spec when D24S8 is absent.
    caps_.depth_stencil_format = VK_FORMAT_D32_SFLOAT_S8_UINT;
  } else {
    throw Error(std::string("Vulkan: ") + props.deviceName +
                " supports neither D24_UNORM_S8_UINT nor D32_SFLOAT_S8_UINT attachments");
  }
  vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_properties_);

  if (caps_.depth_range_unrestricted) {
    enabled_extensions_.push_back(VK_EXT_DEPTH_RANGE_UNRESTRICTED_EXTENSION_NAME);
  }
  if (caps_.shader_stencil_export) {
    enabled_extensions_.push_back(VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME);
  }
  if (caps_.fragment_shader_interlock) {
    enabled_extensions_.push_back(VK_EXT_FRAGMENT_SHADER_INTERLOCK_EXTENSION_NAME);
  }
}

void VulkanContext::CreateDevice() {
  uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &n, families.data());
  // One queue does everything; prefer a family that can also do sparse binding.
  int chosen = -1;
  for (uint32_t i = 0; i < n; ++i) {
    VkQueueFlags f = families[i].queueFlags;
    if ((f & VK_QUEUE_GRAPHICS_BIT) && (f & VK_QUEUE_COMPUTE_BIT)) {
      if (chosen < 0) chosen = int(i);
      if (f & VK_QUEUE_SPARSE_BINDING_BIT) {
        chosen = int(i);
        break;
      }
    }
  }
  if (chosen < 0) throw Error("Vulkan: no queue family with graphics and compute");
  queue_family_ = uint32_t(chosen);
  queue_sparse_ = (families[queue_family_].queueFlags & VK_QUEUE_SPARSE_BINDING_BIT) != 0;
  if (!queue_sparse_) caps_.sparse_binding = false;

  VkPhysicalDeviceFeatures supported;
  vkGetPhysicalDeviceFeatures(physical_device_, &supported);
  VkPhysicalDeviceFeatures enable{};
  enable.geometryShader = supported.geometryShader;
  // The point-quad geometry shader reads each point's diameter from gl_in[0].gl_PointSize.
  enable.shaderTessellationAndGeometryPointSize =
      supported.geometryShader && supported.shaderTessellationAndGeometryPointSize;
  enable.independentBlend = supported.independentBlend;
  enable.largePoints = supported.largePoints;
  // interpolateAtOffset (the InterpolationFunction capability) for centroid interpolators.
  enable.sampleRateShading = supported.sampleRateShading;
  enable.wideLines = supported.wideLines;
  enable.fillModeNonSolid = supported.fillModeNonSolid;
  enable.depthClamp = supported.depthClamp;
  enable.depthBiasClamp = supported.depthBiasClamp;
  enable.shaderStorageBufferArrayDynamicIndexing = supported.shaderStorageBufferArrayDynamicIndexing;
  enable.shaderSampledImageArrayDynamicIndexing = supported.shaderSampledImageArrayDynamicIndexing;
  enable.vertexPipelineStoresAndAtomics = supported.vertexPipelineStoresAndAtomics;
  enable.fragmentStoresAndAtomics = supported.fragmentStoresAndAtomics;
  enable.shaderClipDistance = supported.shaderClipDistance;
  enable.shaderCullDistance = supported.shaderCullDistance;
  enable.samplerAnisotropy = supported.samplerAnisotropy;
  enable.dualSrcBlend = supported.dualSrcBlend;
  enable.shaderFloat64 = supported.shaderFloat64;
  enable.sparseBinding = caps_.sparse_binding ? VK_TRUE : VK_FALSE;
  enable.sparseResidencyBuffer = caps_.sparse_binding ? VK_TRUE : VK_FALSE;

  VkPhysicalDeviceFragmentShaderInterlockFeaturesEXT fsi{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_INTERLOCK_FEATURES_EXT};
  fsi.fragmentShaderPixelInterlock = VK_TRUE;
  fsi.fragmentShaderSampleInterlock = VK_TRUE;
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  f13.shaderDemoteToHelperInvocation = caps_.shader_demote ? VK_TRUE : VK_FALSE;
  // Required by Vulkan 1.3; the renderer uses dynamic rendering instead of render passes.
  f13.dynamicRendering = VK_TRUE;
  if (caps_.fragment_shader_interlock) f13.pNext = &fsi;
  // Texture mirror-once clamps (sampler_cache.cpp).
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  f12.samplerMirrorClampToEdge = caps_.sampler_mirror_clamp_to_edge ? VK_TRUE : VK_FALSE;
  f12.pNext = &f13;
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  f2.features = enable;
  f2.pNext = &f12;

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;

  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = &f2;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.enabledExtensionCount = uint32_t(enabled_extensions_.size());
  info.ppEnabledExtensionNames = enabled_extensions_.data();
  {
    std::lock_guard device_wide(DeviceWideCallMutex());
    CheckVk(vkCreateDevice(physical_device_, &info, nullptr, &device_), "vkCreateDevice");
  }
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = queue_family_;
  CheckVk(vkCreateCommandPool(device_, &pool, nullptr, &command_pool_), "vkCreateCommandPool");
  VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  CheckVk(vkCreateFence(device_, &fence, nullptr, &fence_), "vkCreateFence");
}

namespace {

// Memory of its own for a new buffer or image `object`, allocated from a type FindMemoryType
// picks for `required` and `preferred`, and bound at offset 0.
template <class Object>
void AllocateAndBind(const VulkanContext& context, Object object,
                     void (*requirements)(VkDevice, Object, VkMemoryRequirements*),
                     VkResult (*bind)(VkDevice, Object, VkDeviceMemory, VkDeviceSize),
                     VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred,
                     VkDeviceMemory& memory, const char* what) {
  VkMemoryRequirements req;
  requirements(context.device(), object, &req);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = context.FindMemoryType(req.memoryTypeBits, required, preferred);
  CheckVk(vkAllocateMemory(context.device(), &alloc, nullptr, &memory), what);
  CheckVk(bind(context.device(), object, memory, 0), what);
}

}  // namespace

void VulkanContext::CreateBuffer(uint64_t size, VkBufferUsageFlags usage,
                                 VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred,
                                 VkBuffer& buffer, VkDeviceMemory& memory, const char* what) const {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  CheckVk(vkCreateBuffer(device_, &info, nullptr, &buffer), what);
  AllocateAndBind(*this, buffer, vkGetBufferMemoryRequirements, vkBindBufferMemory, required,
                  preferred, memory, what);
  if (labels_.enabled()) labels_.Name(buffer, what);
}

void VulkanContext::CreateImage(const VkImageCreateInfo& info, VkMemoryPropertyFlags required,
                                VkMemoryPropertyFlags preferred, VkImage& image,
                                VkDeviceMemory& memory, const char* what) const {
  CheckVk(vkCreateImage(device_, &info, nullptr, &image), what);
  AllocateAndBind(*this, image, vkGetImageMemoryRequirements, vkBindImageMemory, required,
                  preferred, memory, what);
  if (labels_.enabled()) labels_.Name(image, what);
}

VkShaderModule CreateShaderModule(VkDevice device, const std::vector<uint32_t>& spirv) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = spirv.size() * 4;
  info.pCode = spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  CheckVk(vkCreateShaderModule(device, &info, nullptr, &module), "vkCreateShaderModule");
  return module;
}

VkDescriptorSetLayout CreateSetLayout(VkDevice device, const VkDescriptorSetLayoutBinding* bindings,
                                      uint32_t count, const char* what) {
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.bindingCount = count;
  info.pBindings = bindings;
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  CheckVk(vkCreateDescriptorSetLayout(device, &info, nullptr, &layout), what);
  return layout;
}

VkDescriptorPool CreateDescriptorPool(VkDevice device, uint32_t max_sets,
                                      const VkDescriptorPoolSize* sizes, uint32_t count,
                                      const char* what) {
  VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  info.maxSets = max_sets;
  info.poolSizeCount = count;
  info.pPoolSizes = sizes;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  CheckVk(vkCreateDescriptorPool(device, &info, nullptr, &pool), what);
  return pool;
}

VkPipelineLayout CreatePipelineLayout(VkDevice device, const VkDescriptorSetLayout* sets,
                                      uint32_t set_count, const VkPushConstantRange& push,
                                      const char* what) {
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = set_count;
  info.pSetLayouts = sets;
  info.pushConstantRangeCount = 1;
  info.pPushConstantRanges = &push;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  CheckVk(vkCreatePipelineLayout(device, &info, nullptr, &layout), what);
  return layout;
}

void CmdMemoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                      VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = src_access;
  barrier.dstAccessMask = dst_access;
  vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

void AllocateSets(VkDevice device, VkDescriptorPool pool, const VkDescriptorSetLayout* layouts,
                  uint32_t count, VkDescriptorSet* sets, const char* what) {
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = pool;
  alloc.descriptorSetCount = count;
  alloc.pSetLayouts = layouts;
  CheckVk(vkAllocateDescriptorSets(device, &alloc, sets), what);
}

VkPipeline CreateComputePipeline(const VulkanContext& context, VkShaderModule module,
                                 VkPipelineLayout layout, bool destroy_module, const char* what) {
  return CreateComputePipeline(context.device(), context.pipeline_cache(), module, layout,
                               destroy_module, what);
}

VkPipeline CreateComputePipeline(VkDevice device, VkPipelineCache cache, VkShaderModule module,
                                 VkPipelineLayout layout, bool destroy_module, const char* what) {
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  const VkResult r = vkCreateComputePipelines(device, cache, 1, &info, nullptr, &pipeline);
  if (destroy_module) vkDestroyShaderModule(device, module, nullptr);
  CheckVk(r, what);
  return pipeline;
}

uint32_t VulkanContext::FindMemoryType(uint32_t type_bits, VkMemoryPropertyFlags required,
                                       VkMemoryPropertyFlags preferred) const {
  int fallback = -1;
  for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
    if (!(type_bits & (1u << i))) continue;
    VkMemoryPropertyFlags f = memory_properties_.memoryTypes[i].propertyFlags;
    if ((f & required) != required) continue;
    if ((f & preferred) == preferred) return i;
    if (fallback < 0) fallback = int(i);
  }
  if (fallback < 0) throw Error("Vulkan: no memory type with the required properties");
  return uint32_t(fallback);
}

void VulkanContext::SubmitAndWait(const std::function<void(VkCommandBuffer)>& record) {
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = command_pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ThrowIfHung();
  CheckVk(vkAllocateCommandBuffers(device_, &alloc, &cmd), "vkAllocateCommandBuffers");
  try {
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    CheckVk(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
    record(cmd);
    CheckVk(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    CheckVk(vkQueueSubmit(queue_, 1, &submit, fence_), "vkQueueSubmit");
    WaitForFence(fence_, "one-time submission");
    CheckVk(vkResetFences(device_, 1, &fence_), "vkResetFences");
  } catch (...) {
    if (!hung()) vkFreeCommandBuffers(device_, command_pool_, 1, &cmd);  // else still pending
    throw;
  }
  vkFreeCommandBuffers(device_, command_pool_, 1, &cmd);
}

uint32_t VulkanContext::validation_message_count() const {
  std::lock_guard<std::mutex> lock(messages_mutex_);
  return message_count_;
}

std::vector<std::string> VulkanContext::validation_messages() const {
  std::lock_guard<std::mutex> lock(messages_mutex_);
  return messages_;
}

void VulkanContext::ResetValidationMessages() {
  std::lock_guard<std::mutex> lock(messages_mutex_);
  messages_.clear();
  message_count_ = 0;
}

}  // namespace xnt::vk
