// The Vulkan instance, physical device, logical device and queue that every renderer piece
// shares, plus the capability record that decides which paths (sparse shared memory, fsi, stencil
// export...) a device can take. Headless: no surface or swapchain; frames leave as PNG files.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "xnt/vk/debug_labels.h"

namespace xnt::vk {

class KeptObjects;
class PipelineCacheFile;

struct ContextOptions {
  // Index into the instance's physical device list; -1 picks the first discrete GPU, else the
  // first device with a graphics queue.
  int device_index = -1;
  // Enables VK_LAYER_KHRONOS_validation and a debug-utils messenger that counts its messages.
  bool validate = false;
  // Also prints every validation message to stderr as it arrives (for debugging a failing test;
  // the messages are kept and counted either way).
  bool print_validation = false;
  // With validate: also the layer's synchronization validation
  // (VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT), so a missing barrier or a
  // read-after-write hazard becomes a counted message. The tests turn it on.
  bool synchronization_validation = false;
  // VK_EXT_debug_utils labels and object names (debug_labels.h) when the instance offers the
  // extension (a note says so where it does not: labels are never required). Also on, whatever
  // this says, in a process RenderDoc's capture layer is enabled for
  // (ENABLE_VULKAN_RENDERDOC_CAPTURE=1: started under RenderDoc, or replay --renderdoc-capture).
  bool debug_labels = false;
  // The longest wait for submitted work before the device is declared hung (DeviceTimeout):
  // a driver or GPU that never signals a fence must not hang the tool (a CI job waiting forever
  // is worse than a failed one). 0 waits without a limit.
  uint32_t gpu_timeout_ms = 60000;
  // bench replay --gpu-profile: every submission's GPU time split by stage (GpuStageSeconds),
  // with timestamps between the upload buffer and the draws and around resolves and swaps.
  bool gpu_stage_timestamps = false;
  // bench replay --ring-mib: the host upload ring's size at start (0: the paths' default,
  // PathRenderer::kInitialRingSize), to measure what the ring's size costs against what it saves.
  uint64_t initial_ring_bytes = 0;
};

// The GPU time of submissions split where command_stream.h writes stage timestamps: the upload
// command buffer that runs ahead of each submission (guest-memory copies and their barrier),
// resolves and swaps (their copies, clears and readbacks), and the rest of the submission (the
// draws, with whatever state and render-pass work comes with them).
struct GpuStageSeconds {
  double uploads = 0.0;
  double draws = 0.0;
  double resolves = 0.0;
};

// Thrown when the device did not finish submitted work within ContextOptions::gpu_timeout_ms,
// and by every later wait on that context. Not an xnt::Error on purpose: the paths turn an Error
// of one resolve or swap into a note and go on, but nothing can go on on a device that stopped.
class DeviceTimeout : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Called with every counted validation message of every context in the process, as it arrives
// (any thread). The test harness uses it to fail a test during which any context reported
// anything; nullptr (the default) turns it off.
using ValidationObserver = void (*)(const char* message);
void SetValidationObserver(ValidationObserver observer);

// What the chosen device can do, as far as the renderer's choices are concerned.
struct Capabilities {
  std::string device_name;
  std::string driver_name;
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  uint32_t api_version = 0;
  VkPhysicalDeviceType device_type = VK_PHYSICAL_DEVICE_TYPE_OTHER;

  bool fragment_shader_interlock = false;  // VK_EXT_fragment_shader_interlock, pixel+sample
  bool sparse_binding = false;             // sparseBinding + sparseResidencyBuffer
  uint64_t sparse_address_space_size = 0;
  uint64_t max_storage_buffer_range = 0;
  uint32_t max_storage_buffers_per_stage = 0;
  bool depth_range_unrestricted = false;   // VK_EXT_depth_range_unrestricted
  bool shader_stencil_export = false;      // VK_EXT_shader_stencil_export
  bool geometry_shader = false;
  // geometryShader + shaderTessellationAndGeometryPointSize: points drawn as quads
  // (point_quad.h, which reads gl_PointSize in the geometry shader).
  bool geometry_point_size = false;
  bool depth_clamp = false;  // depthClamp (PA_CL_CLIP_CNTL clip_disable draws)
  // shaderClipDistance and shaderCullDistance (user clip planes and vertex kill).
  bool clip_cull_distance = false;
  bool independent_blend = false;
  bool large_points = false;
  bool sample_rate_shading = false;        // interpolateAtOffset for centroid interpolators
  bool wide_lines = false;
  bool shader_demote = false;              // demoteToHelperInvocation (core 1.3)
  bool shader_float64 = false;             // shaderFloat64 (the fsi path's exact polygon offset)
  bool sampler_mirror_clamp_to_edge = false;  // samplerMirrorClampToEdge (core 1.2 feature)
  bool sampler_anisotropy = false;
  float max_sampler_anisotropy = 1.0f;
  float max_sampler_lod_bias = 15.0f;      // maxSamplerLodBias (Vulkan requires at least 2)
  // Float controls (VkPhysicalDeviceFloatControlsProperties, 32-bit floats).
  bool float_denorm_flush_to_zero_32 = false;
  bool float_denorm_preserve_32 = false;
  bool float_rounding_rte_32 = false;
  bool float_signed_zero_inf_nan_preserve_32 = false;
  // D24S8 is optional for sampled/attachment use (many AMD GPUs lack it); the renderer falls back
  // to D32_SFLOAT_S8_UINT.
  VkFormat depth_stencil_format = VK_FORMAT_UNDEFINED;
  bool d24s8_supported = false;
  uint64_t non_coherent_atom_size = 1;
  uint64_t min_storage_buffer_offset_alignment = 1;
  uint64_t min_uniform_buffer_offset_alignment = 1;
};

// One line per device the loader reports, for `--device N` and error messages.
struct PhysicalDeviceSummary {
  int index;
  std::string name;
  VkPhysicalDeviceType type;
  uint32_t api_version;
};

class VulkanContext {
 public:
  explicit VulkanContext(const ContextOptions& options = {});
  ~VulkanContext();

  // A kept context (Keep) made with the same device index, validation and labels as `options`
  // asks, with its counters, event and options of the other kinds set anew; else a new one.
  // XNT_KEEP_DEVICES=0 in the environment makes every context new (and Keep destroy it).
  static std::unique_ptr<VulkanContext> Take(const ContextOptions& options);
  // Gives a context whose session has ended (every object it made destroyed, but what kept()
  // holds) to the next Take of its kind, with its pipeline cache file saved. A hung device is
  // destroyed instead, and so is the oldest kept one past a few.
  static void Keep(std::unique_ptr<VulkanContext> context);
  // Destroys every kept context (a measurement of a new device's cost, the tests).
  static void DropKept();
  VulkanContext(const VulkanContext&) = delete;
  VulkanContext& operator=(const VulkanContext&) = delete;

  // Lists devices without creating a logical device (throws xnt::Error without a loader/ICD).
  static std::vector<PhysicalDeviceSummary> ListDevices();

  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  // True when the (single) queue also supports sparse binding operations.
  bool queue_supports_sparse() const { return queue_sparse_; }
  const Capabilities& capabilities() const { return caps_; }
  // GPU time of every command stream's submissions on this device (command_stream.h), seconds.
  double gpu_seconds() const { return gpu_seconds_; }
  void AddGpuSeconds(double seconds) { gpu_seconds_ += seconds; }
  // ContextOptions::gpu_stage_timestamps, and what the command streams measured with it.
  bool gpu_stage_timestamps() const { return gpu_stage_timestamps_; }
  uint64_t initial_ring_bytes() const { return initial_ring_bytes_; }
  const GpuStageSeconds& gpu_stage_seconds() const { return gpu_stage_seconds_; }
  void AddGpuStageSeconds(const GpuStageSeconds& s) {
    gpu_stage_seconds_.uploads += s.uploads;
    gpu_stage_seconds_.draws += s.draws;
    gpu_stage_seconds_.resolves += s.resolves;
  }
  const VkPhysicalDeviceMemoryProperties& memory_properties() const { return memory_properties_; }
  // The one VkPipelineCache every pipeline of this device is created through (translated-shader
  // pipelines, EDRAM transfers, resolves, post passes, the texture loader), so a driver that keeps
  // compiled code in it finds every kind again on the next run. Loaded from and saved to the
  // SPIR-V cache's folder when the program set one (pipeline_cache_file.h); internally
  // synchronised, so worker threads create pipelines through it too.
  VkPipelineCache pipeline_cache() const;
  // Bytes of pipeline data beyond the Vulkan header that the cache file handed the driver at
  // start: a driver that keeps its compiled pipelines there (NVIDIA) has more than 0 once it has
  // seen them; one that keeps none (lavapipe) never does.
  uint64_t pipeline_cache_loaded_pipeline_bytes() const;
  // Modules, layouts and pipelines kept with the device for every session on it (kept_objects.h).
  KeptObjects& kept() const { return *kept_; }

  // Memory type index with all `required` flags among `type_bits`; throws if none.
  uint32_t FindMemoryType(uint32_t type_bits, VkMemoryPropertyFlags required,
                          VkMemoryPropertyFlags preferred = 0) const;

  // A buffer with memory of its own, bound: a memory type with every `required` flag, preferring
  // `preferred` (FindMemoryType). `what` names it in errors.
  void CreateBuffer(uint64_t size, VkBufferUsageFlags usage, VkMemoryPropertyFlags required,
                    VkMemoryPropertyFlags preferred, VkBuffer& buffer, VkDeviceMemory& memory,
                    const char* what) const;
  // The same for an image described by `info`.
  void CreateImage(const VkImageCreateInfo& info, VkMemoryPropertyFlags required,
                   VkMemoryPropertyFlags preferred, VkImage& image, VkDeviceMemory& memory,
                   const char* what) const;

  // Records `record` into a one-time command buffer, submits it and waits for completion.
  void SubmitAndWait(const std::function<void(VkCommandBuffer)>& record);

  // The watchdog over the device (device_wait.cpp). Every wait for submitted work goes through
  // WaitForFence: at most gpu_timeout_ms, then the context is hung and DeviceTimeout names the
  // guest event whose work was in flight (SetEventInFlight), the path and the limit. `what` names
  // the submission in the message ("draw recording", "sparse binding").
  void WaitForFence(VkFence fence, const char* what);
  // The guest event the path is recording now (F.K as dump numbers it, `kind` "draw" or
  // "resolve"; a frame's swap has kNoEventIndex; no kind: the path's set-up work) and the path's
  // name; only stored (a few stores per event), formatted when a wait times out.
  static constexpr uint32_t kNoEventIndex = UINT32_MAX;
  void SetEventInFlight(const char* path, const char* kind, uint64_t frame, uint32_t index) {
    event_path_ = path;
    event_kind_ = kind;
    event_frame_ = frame;
    event_index_ = index;
  }
  // Throws the DeviceTimeout again once the device was found hung (no more work can be submitted
  // to it: its last submission is still pending).
  void ThrowIfHung() const;
  bool hung() const { return !hang_message_.empty(); }
  // For destructors: vkDeviceWaitIdle, true once the device is idle. On a hung device (it would
  // never return) the first call waits once more, at most the timeout, for the submission that
  // timed out: a device that was only slow then finishes and is idled as usual; a hung one
  // returns false at once from then on, and its pending work's objects must be left alone.
  bool WaitIdle();
  // For a process about to end without destroying this context (a command line tool that has
  // written its outputs): waits for the device and writes the pipeline cache file now, which
  // the destructor would do. What the process's end skips is the driver's teardown (the
  // device's and instance's destruction: 22-28 ms of vkDestroyDevice and 25-50 ms more until
  // exit on the NVIDIA driver, docs/speed.md), the resources all going back with the process.
  void SaveBeforeExit();

  // Validation layer messages (errors and warnings) since creation, or since the last Reset.
  uint32_t validation_message_count() const;
  std::vector<std::string> validation_messages() const;
  void ResetValidationMessages();
  bool validation_enabled() const { return validation_enabled_; }
  // Labels and names for a frame debugger; disabled unless ContextOptions::debug_labels.
  const DebugLabels& labels() const { return labels_; }
  // Labels were asked for but the instance offers no VK_EXT_debug_utils (said as a note).
  bool labels_unavailable() const { return labels_requested_ && !labels_.enabled(); }

 private:
  static VKAPI_ATTR VkBool32 VKAPI_CALL DebugCallback(
      VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
      const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);
  void ChoosePhysicalDevice(int device_index);
  void QueryCapabilities();
  void CreateDevice();
  void Destroy();

  // Taken from the process's kept instances and given back by Destroy (vulkan_context.cpp).
  VkInstance instance_ = VK_NULL_HANDLE;
  bool synchronization_validation_ = false;  // the layers instance_ was made with
  bool debug_utils_ = false;
  bool labels_requested_ = false;  // the key instance_ is kept under, with the two above
  DebugLabels labels_;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  double gpu_seconds_ = 0.0;
  bool gpu_stage_timestamps_ = false;
  uint64_t initial_ring_bytes_ = 0;
  GpuStageSeconds gpu_stage_seconds_;
  bool queue_sparse_ = false;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  Capabilities caps_;
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  std::unique_ptr<PipelineCacheFile> pipeline_cache_;  // saved and destroyed before the device
  std::unique_ptr<KeptObjects> kept_;                  // destroyed before the device
  int device_index_ = -1;                              // ContextOptions::device_index (Take)
  std::vector<const char*> enabled_extensions_;
  bool validation_enabled_ = false;
  bool print_validation_ = false;
  uint32_t gpu_timeout_ms_ = 60000;
  const char* event_path_ = "vulkan";
  const char* event_kind_ = nullptr;  // no event yet: set-up work
  uint64_t event_frame_ = 0;
  uint32_t event_index_ = 0;
  std::string hang_message_;  // set once a wait timed out
  VkFence hung_fence_ = VK_NULL_HANDLE;  // the fence that wait was for
  bool hang_settled_ = false;            // WaitIdle waited for it once more
  bool drained_ = false;                 // ... and it signalled: the device was only slow

  mutable std::mutex messages_mutex_;
  std::vector<std::string> messages_;
  uint32_t message_count_ = 0;
};

// Throws xnt::Error naming `what` when `result` is not VK_SUCCESS.
void CheckVk(VkResult result, const char* what);

// A compute pipeline running `module`'s main over `layout`; with `destroy_module` the module is
// destroyed once the pipeline holds it (on failure too).
// Created through the context's pipeline cache.
VkPipeline CreateComputePipeline(const VulkanContext& context, VkShaderModule module,
                                 VkPipelineLayout layout, bool destroy_module, const char* what);
// The same through `cache` (VK_NULL_HANDLE: none), for a thread that must not use the context's.
VkPipeline CreateComputePipeline(VkDevice device, VkPipelineCache cache, VkShaderModule module,
                                 VkPipelineLayout layout, bool destroy_module, const char* what);

// A module of SPIR-V words; the caller destroys it.
VkShaderModule CreateShaderModule(VkDevice device, const std::vector<uint32_t>& spirv);

// A set layout of `count` bindings, and a pool of `max_sets` sets from `count` pool sizes.
VkDescriptorSetLayout CreateSetLayout(VkDevice device, const VkDescriptorSetLayoutBinding* bindings,
                                      uint32_t count, const char* what);
VkDescriptorPool CreateDescriptorPool(VkDevice device, uint32_t max_sets,
                                      const VkDescriptorPoolSize* sizes, uint32_t count,
                                      const char* what);
// A pipeline layout of `set_count` set layouts and the one push-constant range `push`.
VkPipelineLayout CreatePipelineLayout(VkDevice device, const VkDescriptorSetLayout* sets,
                                      uint32_t set_count, const VkPushConstantRange& push,
                                      const char* what);

// One global memory barrier: `src_access` by `src_stage` before `dst_access` by `dst_stage`.
void CmdMemoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                      VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);

// `count` sets of `layouts` from `pool` into `sets`.
void AllocateSets(VkDevice device, VkDescriptorPool pool, const VkDescriptorSetLayout* layouts,
                  uint32_t count, VkDescriptorSet* sets, const char* what);

// A descriptor write of one buffer into `binding` of `set` (`info` must outlive the update).
inline VkWriteDescriptorSet BufferWrite(VkDescriptorSet set, uint32_t binding,
                                        VkDescriptorType type, const VkDescriptorBufferInfo* info) {
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstBinding = binding;
  write.descriptorCount = 1;
  write.descriptorType = type;
  write.pBufferInfo = info;
  return write;
}

// One binding of a descriptor set layout.
inline VkDescriptorSetLayoutBinding LayoutBinding(uint32_t binding, VkDescriptorType type,
                                                  VkShaderStageFlags stages, uint32_t count = 1) {
  return {binding, type, count, stages, nullptr};
}
const char* VkResultName(VkResult result);

}  // namespace xnt::vk
