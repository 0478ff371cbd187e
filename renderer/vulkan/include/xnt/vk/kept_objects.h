// What a device keeps for every session that uses it: shader modules by their SPIR-V words,
// descriptor set and pipeline layouts by their definition, and pipelines under keys their
// creators build from those handles and their fixed state.
//
// A process that replays more than once (compare's paths, scales and traces, a bisection's steps,
// slice, the test programs) gets a kept device for its next session of the same kind
// (VulkanContext::Take / Keep), and with it every pipeline an earlier session made. Creating them
// again is most of a short replay's CPU time on a driver whose VkPipelineCache keeps nothing
// (lavapipe's holds only a header: each pipeline is its shaders' NIR and LLVM work again), and
// the driver's lookup and link on one that keeps them. Content keys make a later session's handle
// the earlier one's: the same words give the same module, the same definition the same layout,
// so a key of handles and state bytes names the same pipeline in every session.
//
// The handles are owned here and destroyed with the device: callers never destroy them.
// Internally synchronised (a session's worker thread compiles the texture loader through it).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace xnt::vk {

class KeptObjects {
 public:
  explicit KeptObjects(VkDevice device) : device_(device) {}
  ~KeptObjects();  // destroys every kept object; the device must be idle
  KeptObjects(const KeptObjects&) = delete;
  KeptObjects& operator=(const KeptObjects&) = delete;

  VkShaderModule Module(std::span<const uint32_t> spirv);
  // The words a module kept here was made from; empty for a handle that is not one of them.
  std::vector<uint32_t> ModuleWords(VkShaderModule module) const;
  // Bindings without immutable samplers (refused: a sampler handle is not content).
  VkDescriptorSetLayout SetLayout(std::span<const VkDescriptorSetLayoutBinding> bindings,
                                  const char* what);
  VkPipelineLayout PipelineLayout(std::span<const VkDescriptorSetLayout> sets,
                                  std::span<const VkPushConstantRange> push_ranges,
                                  const char* what);
  // The pipeline kept under `key`, made by `create` when there is none. `create` runs without the
  // lock held; a thread asking for a key another thread is making waits for that one (a draw
  // whose pipeline a worker is making ahead), and makes it itself only when that one failed.
  VkPipeline Pipeline(std::string_view key, const std::function<VkPipeline()>& create);
  // Whether `key` has a pipeline now (a caller that would start a thread to make it).
  bool HasPipeline(std::string_view key) const;

  // A session begins using the device: the pipelines it asks for are its own from here on.
  void BeginSession() {
    std::lock_guard lock(mutex_);
    ++session_;
  }
  // Destroys the pipelines none of the last `sessions` sessions asked for; only while no session
  // uses the device (a session's own lookup tables hold the handles).
  void KeepOnlyRecent(uint64_t sessions);

  // Pipelines made here and pipelines found kept, since the device was made; pipelines kept now.
  uint64_t pipelines_made() const;
  uint64_t pipelines_found() const;
  size_t pipeline_count() const;

 private:
  VkDevice device_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, VkShaderModule> modules_;  // key: the words' bytes
  std::unordered_map<VkShaderModule, const std::string*> module_words_;  // into modules_' keys
  std::unordered_map<std::string, VkDescriptorSetLayout> set_layouts_;
  std::unordered_map<std::string, VkPipelineLayout> pipeline_layouts_;
  struct KeptPipeline {
    VkPipeline pipeline = VK_NULL_HANDLE;
    uint64_t last_session = 0;  // session_ when a session last asked for it
  };
  std::unordered_map<std::string, KeptPipeline> pipelines_;
  std::unordered_set<std::string> making_;  // keys a thread is making now (one thread a key)
  std::condition_variable made_;           // a making_ entry ended
  uint64_t session_ = 0;
  uint64_t pipelines_made_ = 0, pipelines_found_ = 0;
};

// Appends the object representation of each value to `key` (types without padding bytes only,
// so equal values give equal bytes). Handles are content here (KeptObjects' own).
template <class... T>
void AppendKeyBytes(std::string& key, const T&... values) {
  static_assert((std::has_unique_object_representations_v<T> && ...),
                "a key part with padding bytes would make equal keys differ");
  (key.append(reinterpret_cast<const char*>(&values), sizeof(T)), ...);
}

}  // namespace xnt::vk
