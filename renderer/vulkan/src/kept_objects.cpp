// Device-lifetime objects by content (see kept_objects.h).
#include "xnt/vk/kept_objects.h"

#include <cstring>

#include "xnt/base/error.h"
#include "xnt/vk/vulkan_context.h"

namespace xnt::vk {

KeptObjects::~KeptObjects() {
  for (auto& [key, kept] : pipelines_) vkDestroyPipeline(device_, kept.pipeline, nullptr);
  for (auto& [key, layout] : pipeline_layouts_) vkDestroyPipelineLayout(device_, layout, nullptr);
  for (auto& [key, layout] : set_layouts_) vkDestroyDescriptorSetLayout(device_, layout, nullptr);
  for (auto& [key, module] : modules_) vkDestroyShaderModule(device_, module, nullptr);
}

namespace {

// The handle kept under `key` in `map`, made by `make` (under the lock) when there is none.
template <class Handle, class Make>
Handle FindOrMake(std::mutex& mutex, std::unordered_map<std::string, Handle>& map,
                  std::string key, const Make& make) {
  std::lock_guard lock(mutex);
  auto it = map.find(key);
  if (it != map.end()) return it->second;
  const Handle handle = make();
  map.emplace(std::move(key), handle);
  return handle;
}

}  // namespace

VkShaderModule KeptObjects::Module(std::span<const uint32_t> spirv) {
  std::string key(reinterpret_cast<const char*>(spirv.data()), spirv.size_bytes());
  std::lock_guard lock(mutex_);
  auto it = modules_.find(key);
  if (it != modules_.end()) return it->second;
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = spirv.size_bytes();
  info.pCode = spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  CheckVk(vkCreateShaderModule(device_, &info, nullptr, &module), "vkCreateShaderModule");
  it = modules_.emplace(std::move(key), module).first;
  module_words_.emplace(module, &it->first);  // node-based map: the key's address stays
  return module;
}

std::vector<uint32_t> KeptObjects::ModuleWords(VkShaderModule module) const {
  std::lock_guard lock(mutex_);
  auto it = module_words_.find(module);
  if (it == module_words_.end()) return {};
  const std::string& bytes = *it->second;
  std::vector<uint32_t> words(bytes.size() / sizeof(uint32_t));
  std::memcpy(words.data(), bytes.data(), words.size() * sizeof(uint32_t));
  return words;
}

VkDescriptorSetLayout KeptObjects::SetLayout(std::span<const VkDescriptorSetLayoutBinding> bindings,
                                             const char* what) {
  std::string key;
  for (const VkDescriptorSetLayoutBinding& b : bindings) {
    if (b.pImmutableSamplers) throw Error(std::string(what) + ": immutable samplers are not kept");
    AppendKeyBytes(key, b.binding, b.descriptorType, b.descriptorCount, b.stageFlags);
  }
  return FindOrMake(mutex_, set_layouts_, std::move(key), [&] {
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = uint32_t(bindings.size());
    info.pBindings = bindings.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    CheckVk(vkCreateDescriptorSetLayout(device_, &info, nullptr, &layout), what);
    return layout;
  });
}

VkPipelineLayout KeptObjects::PipelineLayout(std::span<const VkDescriptorSetLayout> sets,
                                             std::span<const VkPushConstantRange> push_ranges,
                                             const char* what) {
  std::string key;
  AppendKeyBytes(key, uint32_t(sets.size()));
  for (VkDescriptorSetLayout set : sets) AppendKeyBytes(key, set);
  for (const VkPushConstantRange& r : push_ranges) {
    AppendKeyBytes(key, r.stageFlags, r.offset, r.size);
  }
  return FindOrMake(mutex_, pipeline_layouts_, std::move(key), [&] {
    VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    info.setLayoutCount = uint32_t(sets.size());
    info.pSetLayouts = sets.data();
    info.pushConstantRangeCount = uint32_t(push_ranges.size());
    info.pPushConstantRanges = push_ranges.data();
    VkPipelineLayout layout = VK_NULL_HANDLE;
    CheckVk(vkCreatePipelineLayout(device_, &info, nullptr, &layout), what);
    return layout;
  });
}

VkPipeline KeptObjects::Pipeline(std::string_view key, const std::function<VkPipeline()>& create) {
  std::string owned(key);  // one copy for the lookups and the insertion
  std::unique_lock lock(mutex_);
  for (;;) {
    auto it = pipelines_.find(owned);
    if (it != pipelines_.end()) {
      ++pipelines_found_;
      it->second.last_session = session_;
      return it->second.pipeline;
    }
    // Another thread is making it: its result, unless it fails (then this one tries).
    if (!making_.count(owned)) break;
    made_.wait(lock);
  }
  making_.insert(owned);
  lock.unlock();
  // However `create` ends, the key is no longer being made and the waiters look again; while it
  // is in making_ no other thread inserts it, so a made pipeline is always the one kept.
  struct Done {
    KeptObjects& kept;
    const std::string& key;
    ~Done() {
      std::lock_guard done_lock(kept.mutex_);
      kept.making_.erase(key);
      kept.made_.notify_all();
    }
  } done{*this, owned};
  const VkPipeline made = create();
  std::lock_guard insert_lock(mutex_);
  ++pipelines_made_;
  pipelines_.emplace(owned, KeptPipeline{made, session_});
  return made;
}

void KeptObjects::KeepOnlyRecent(uint64_t sessions) {
  std::lock_guard lock(mutex_);
  for (auto it = pipelines_.begin(); it != pipelines_.end();) {
    if (it->second.last_session + sessions <= session_) {
      vkDestroyPipeline(device_, it->second.pipeline, nullptr);
      it = pipelines_.erase(it);
    } else {
      ++it;
    }
  }
}

bool KeptObjects::HasPipeline(std::string_view key) const {
  std::lock_guard lock(mutex_);
  return pipelines_.count(std::string(key)) != 0;
}

uint64_t KeptObjects::pipelines_made() const {
  std::lock_guard lock(mutex_);
  return pipelines_made_;
}

uint64_t KeptObjects::pipelines_found() const {
  std::lock_guard lock(mutex_);
  return pipelines_found_;
}

size_t KeptObjects::pipeline_count() const {
  std::lock_guard lock(mutex_);
  return pipelines_.size();
}

}  // namespace xnt::vk
