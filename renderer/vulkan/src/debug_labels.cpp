// VK_EXT_debug_utils labels and names (see debug_labels.h).
#include "xnt/vk/debug_labels.h"

#include <atomic>

#include "xnt/vk/command_stream.h"

namespace xnt::vk {
namespace {

std::atomic<DebugLabelObserver> g_observer{nullptr};

void Observe(DebugLabelCall call, VkObjectType type, const char* text) {
  if (DebugLabelObserver observer = g_observer.load()) observer(call, type, text);
}

VkDebugUtilsLabelEXT MakeLabel(const std::string& text) {
  VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
  label.pLabelName = text.c_str();
  return label;
}

}  // namespace

void SetDebugLabelObserver(DebugLabelObserver observer) { g_observer.store(observer); }

void DebugLabels::Load(VkInstance instance, VkDevice device) {
  // The entry points are instance-level in the extension (it is an instance extension), so they
  // come from vkGetInstanceProcAddr; a layer that provides the extension (validation, RenderDoc)
  // answers there too.
  device_ = device;
  auto get = [&](const char* name) { return vkGetInstanceProcAddr(instance, name); };
  begin_ = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(get("vkCmdBeginDebugUtilsLabelEXT"));
  end_ = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(get("vkCmdEndDebugUtilsLabelEXT"));
  insert_ =
      reinterpret_cast<PFN_vkCmdInsertDebugUtilsLabelEXT>(get("vkCmdInsertDebugUtilsLabelEXT"));
  name_ = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(get("vkSetDebugUtilsObjectNameEXT"));
  if (!begin_ || !end_ || !insert_ || !name_) {
    begin_ = nullptr;
    end_ = nullptr;
    insert_ = nullptr;
    name_ = nullptr;
  }
}

void DebugLabels::Begin(VkCommandBuffer cmd, const std::string& text) const {
  if (!begin_) return;
  const VkDebugUtilsLabelEXT label = MakeLabel(text);
  begin_(cmd, &label);
  Observe(DebugLabelCall::kBegin, VK_OBJECT_TYPE_COMMAND_BUFFER, text.c_str());
}

void DebugLabels::End(VkCommandBuffer cmd) const {
  if (!end_) return;
  end_(cmd);
  Observe(DebugLabelCall::kEnd, VK_OBJECT_TYPE_COMMAND_BUFFER, "");
}

void DebugLabels::Insert(VkCommandBuffer cmd, const std::string& text) const {
  if (!insert_) return;
  const VkDebugUtilsLabelEXT label = MakeLabel(text);
  insert_(cmd, &label);
  Observe(DebugLabelCall::kInsert, VK_OBJECT_TYPE_COMMAND_BUFFER, text.c_str());
}

void DebugLabels::Name(VkObjectType type, uint64_t handle, const std::string& text) const {
  if (!name_ || handle == 0) return;
  VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
  info.objectType = type;
  info.objectHandle = handle;
  info.pObjectName = text.c_str();
  name_(device_, &info);
  Observe(DebugLabelCall::kObjectName, type, text.c_str());
}

void DebugLabelRegion::Begin(const std::string& text) { labels_.Begin(stream_->cmd(), text); }

DebugLabelRegion::~DebugLabelRegion() {
  if (!stream_) return;
  // The region may end while an error from the stream unwinds the stack; a second one here
  // (no command buffer to record into) must not end the process: the region is left open, which
  // costs the frame debugger a label, never the replay.
  try {
    labels_.End(stream_->cmd());
  } catch (...) {
  }
}

}  // namespace xnt::vk
