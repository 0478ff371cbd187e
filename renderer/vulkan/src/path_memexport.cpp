// Memexport on the Vulkan paths: the translated shaders store into the shared-memory mirror
// (renderer/vulkan/translator/src/glsl_memexport.cpp); around an exporting draw the renderer
// prepares the stream ranges of the mirror and afterwards copies them back into guest memory,
// the copy every CPU-side reader uses (index fetch, resolves, the front buffer, texture and
// vertex uploads of later draws). Like Xenia's d3d12_readback_memexport, at the cost of a
// synchronous readback per exporting draw.
#include <algorithm>
#include <span>

#include "xnt/vk/path_renderer.h"

namespace xnt::vk {

void PathRenderer::PrepareMemExport(const std::vector<MemoryRange>& ranges) {
  EndRendering();
  // The draw's stores are not described page by page: later uploads keep their place.
  shared_memory_.CloseAhead();
  for (const MemoryRange& r : ranges) shared_memory_.PrepareForShaderWrites(r.address, r.size);
}

void PathRenderer::ReadBackMemExport(const std::vector<MemoryRange>& ranges,
                                     const gpu::GuestMemoryAccess& memory) {
  EndRendering();
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(stream_.cmd(),
                       VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  for (const MemoryRange& r : ranges) {
    const uint64_t end = std::min<uint64_t>(uint64_t(r.address) + r.size, SharedMemory::kSize);
    for (uint64_t at = r.address; at < end; at += kTransferChunk) {
      const uint64_t bytes = std::min(kTransferChunk, end - at);
      const CommandStream::Allocation alloc = RingAllocate(bytes, 16);
      const VkBufferCopy region{at, alloc.offset, bytes};
      vkCmdCopyBuffer(stream_.cmd(), shared_memory_.buffer(), alloc.buffer, 1, &region);
      Flush();  // submits and waits: the ring holds the bytes until the next allocation
      memory.write(uint32_t(at), std::span<const uint8_t>(alloc.data, size_t(bytes)));
      shared_memory_.MarkCurrent(uint32_t(at), bytes, memory.pages);
      // Exports over a scaled resolve copy drop it (the range the shaders may store into).
      scaled_.Invalidate(uint32_t(at), bytes);
    }
  }
}

}  // namespace xnt::vk
