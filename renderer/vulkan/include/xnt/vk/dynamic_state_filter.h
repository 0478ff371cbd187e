// Drops pipeline binds and dynamic-state commands that would record what the command buffer
// already holds. A capture-shaped frame is thousands of draws with the same pipeline and the same
// state, each in its own guest submission; recording the pipeline and 24 dynamic states again
// for each is pure driver work: lavapipe re-derives its rasterizer, depth-stencil and blend state
// objects for every such command on its queue thread, the thread that bounds a replay's speed
// there (docs/speed.md). Xenia's Vulkan command processor keeps the current dynamic state the
// same way and records a value only when it differs (vulkan_command_processor.cc: SetViewport,
// SetScissor and the dynamic_*_update_needed_ flags).
//
// What is remembered is only trusted within one scope: the renderer starts a new one for every
// render pass instance (so a new command buffer, and any foreign pipeline recorded between its
// own rendering, such as the EDRAM copies, begins afresh) and whenever its pipeline changes, so
// a pipeline with another set of dynamic states can never leave a value undefined that this
// filter believes set.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace xnt::vk {

class DynamicStateFilter {
 public:
  // One entry per vkCmdSet* call a draw records (front and back faces apart).
  enum Slot : uint32_t {
    kViewport,
    kScissor,
    kBlendConstants,
    kCullMode,
    kFrontFace,
    kDepthBiasEnable,
    kDepthBias,
    kLineWidth,
    kPrimitiveTopology,
    kDepthTestEnable,
    kDepthWriteEnable,
    kDepthCompareOp,
    kStencilTestEnable,
    kStencilOpFront,
    kStencilOpBack,
    kStencilCompareMaskFront,
    kStencilCompareMaskBack,
    kStencilWriteMaskFront,
    kStencilWriteMaskBack,
    kStencilReferenceFront,
    kStencilReferenceBack,
    kSlotCount,
  };
  static constexpr size_t kMaxValueBytes = 24;  // VkViewport

  // The draw about to be recorded in render pass instance `scope` with `pipeline`: true when the
  // pipeline must be bound. A new scope or pipeline forgets every state.
  bool BindPipeline(uint64_t scope, VkPipeline pipeline) {
    if (scope == scope_ && pipeline == pipeline_ && pipeline != VK_NULL_HANDLE) return false;
    scope_ = scope;
    pipeline_ = pipeline;
    known_ = 0;
    return true;
  }
  // True when `slot` must be recorded with `value` (it differs from the value recorded last in
  // this scope, or none was); remembers it.
  template <typename T>
  bool Changed(Slot slot, const T& value) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= kMaxValueBytes);
    std::array<uint8_t, kMaxValueBytes> bytes{};
    std::memcpy(bytes.data(), &value, sizeof(T));
    const uint32_t bit = 1u << slot;
    if ((known_ & bit) && values_[slot] == bytes) return false;
    values_[slot] = bytes;
    known_ |= bit;
    return true;
  }

 private:
  static_assert(kSlotCount <= 32);
  uint64_t scope_ = ~uint64_t(0);
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  uint32_t known_ = 0;
  std::array<std::array<uint8_t, kMaxValueBytes>, kSlotCount> values_{};
};

}  // namespace xnt::vk
