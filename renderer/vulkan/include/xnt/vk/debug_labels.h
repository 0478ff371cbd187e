// VK_EXT_debug_utils command-buffer labels and object names, so that a frame debugger
// (RenderDoc, a validation message's pCmdBufLabels / pObjects) shows the guest frame: each guest
// draw as "draw F.K" with its shader hashes, resolves, clears and EDRAM transfers as regions,
// render targets by EDRAM base/pitch/format, textures by guest address/format/size.
//
// Off unless the context was made with ContextOptions::debug_labels and the instance offers
// the extension (the loader, the validation layer or RenderDoc's capture layer provide it): then
// every call here is a test of one pointer, and callers build their label text only after
// asking enabled(), so a replay without labels formats no string.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>

namespace xnt::vk {

class CommandStream;

// What a label or name call was, for DebugLabelObserver.
enum class DebugLabelCall : uint8_t { kBegin, kEnd, kInsert, kObjectName };

// Called with every label begun or inserted and every object name set by any context in the
// process (kEnd with an empty text), after the Vulkan call; nullptr (the default) turns it off.
// The tests count what a replay labelled through it without a layer of their own.
using DebugLabelObserver = void (*)(DebugLabelCall call, VkObjectType type, const char* text);
void SetDebugLabelObserver(DebugLabelObserver observer);

class DebugLabels {
 public:
  DebugLabels() = default;
  // Loads the extension's entry points from `instance` for `device`; without them (extension
  // not enabled) the object stays disabled.
  void Load(VkInstance instance, VkDevice device);

  bool enabled() const { return begin_ != nullptr; }

  // A region of `cmd`'s commands (nesting allowed; End closes the innermost).
  void Begin(VkCommandBuffer cmd, const std::string& text) const;
  void End(VkCommandBuffer cmd) const;
  // One marker between commands.
  void Insert(VkCommandBuffer cmd, const std::string& text) const;

  void Name(VkBuffer buffer, const std::string& text) const {
    Name(VK_OBJECT_TYPE_BUFFER, uint64_t(buffer), text);
  }
  void Name(VkImage image, const std::string& text) const {
    Name(VK_OBJECT_TYPE_IMAGE, uint64_t(image), text);
  }
  void Name(VkObjectType type, uint64_t handle, const std::string& text) const;

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  PFN_vkCmdBeginDebugUtilsLabelEXT begin_ = nullptr;
  PFN_vkCmdEndDebugUtilsLabelEXT end_ = nullptr;
  PFN_vkCmdInsertDebugUtilsLabelEXT insert_ = nullptr;
  PFN_vkSetDebugUtilsObjectNameEXT name_ = nullptr;
};

// A label region on `stream`'s command buffer for the life of the object: a guest draw, a
// resolve, an EDRAM transfer, a clear. `make_text` runs only when labels are on, so a replay
// without them formats nothing. A flush inside the region ends it in the next command buffer of
// the same queue, which the queue's label stack allows.
class DebugLabelRegion {
 public:
  template <class MakeText>
  DebugLabelRegion(const DebugLabels& labels, CommandStream& stream, MakeText&& make_text)
      : labels_(labels), stream_(labels.enabled() ? &stream : nullptr) {
    if (stream_) Begin(make_text());
  }
  ~DebugLabelRegion();
  DebugLabelRegion(const DebugLabelRegion&) = delete;
  DebugLabelRegion& operator=(const DebugLabelRegion&) = delete;

 private:
  void Begin(const std::string& text);
  const DebugLabels& labels_;
  CommandStream* stream_;  // null: labels off
};

}  // namespace xnt::vk
