// fsi path: resolves and clears on the EDRAM read back into the model (gpu::ResolveCopy, the
// CPU resolve engine, the same code the cpu path runs), the swap (gpu::ReadFrontBuffer), texture
// binding and memexport.
#include <algorithm>
#include <cstring>
#include <span>

#include "xnt/base/error.h"
#include "xnt/gpu/resolve.h"
#include "xnt/vk/fsi/fsi_renderer.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk::fsi {

using xenos::Reg;

namespace {

constexpr uint32_t kTexturePoolSets = 256;

}  // namespace

void FsiRenderer::Resolve(gpu::RegisterValues regs, const gpu::GuestMemoryAccess& memory) {
  ++stats_.resolves;
  const gpu::ResolveInfo info = gpu::ComputeResolveInfo(regs, memory);
  if (info.empty()) {
    Note("resolve with an empty rectangle");
    return;
  }
  if (info.surface_pitch == 0) {
    Note("resolve with RB_SURFACE_INFO surface_pitch 0 skipped");
    return;
  }
  const gpu::EdramEventTargets targets = gpu::EdramTargetsForResolve(info);
  tracker_.Use(tracker_.BeginEvent(), targets.used, targets.bound, "resolve",
               [](const gpu::edram::Transfer&, gpu::EdramLogEntry& entry) {
                 entry.data_moved = true;
                 entry.on_gpu = true;
                 entry.note += "in place (fsi path: one EDRAM buffer of guest bits)";
               });
  const bool clears = (info.color_clear && info.source_select < 4) || info.depth_clear;
  if (!info.copy && !clears) return;
  // The buffer's guest bits into the model (one readback per resolve that follows draws).
  ReadBack();
  if (info.copy) {
    if (!info.unsupported.empty()) {
      Note(info.unsupported);
    } else {
      if (!info.note.empty()) Note(info.note);
      // Resolved bytes reach the mirror too (later draws may sample them).
      gpu::GuestMemoryAccess tracked = memory;
      tracked.write = [this, &memory](uint32_t address, std::span<const uint8_t> bytes) {
        memory.write(address, bytes);
        shared_memory_.Invalidate(address, bytes.size());
      };
      try {
        if (options_.scale_x * options_.scale_y == 1) {
          gpu::ResolveCopy(info, model_, tracked);
        } else {
          // As the cpu path: guest memory gets the 1x copy, scaled_ the scaled one (the swap
          // shows it; textures still sample the 1x bytes on this path, see docs/fsi.md).
          scaled_.Resolve(info, model_, tracked, options_.scale_x, options_.scale_y);
        }
      } catch (const Error& e) {
        Note(std::string("resolve copy skipped: ") + e.what());
      }
    }
  }
  if (!clears) return;
  gpu::ApplyResolveClears(info, regs, options_.scale_x, options_.scale_y, model_);
  Upload();
}

gpu::SwapImage FsiRenderer::Swap(gpu::RegisterValues regs, uint32_t frontbuffer_address,
                                 uint32_t width, uint32_t height,
                                 const gpu::GuestMemoryAccess& memory) {
  ++stats_.swaps;
  Flush();
  // At a resolution scale the front buffer is shown at the scaled size when a resolve left a
  // scaled copy of it (fetch constant 0 names it), as on the cpu path.
  uint32_t fetch[6];
  for (uint32_t i = 0; i < 6; ++i) {
    const uint32_t index = xenos::kFetchConstantBase + i;
    fetch[i] = index < regs.size() ? regs[index] : 0u;
  }
  if (const gpu::ScaledCopy* copy = scaled_.Find(fetch)) {
    std::vector<uint32_t> patched(regs.begin(), regs.end());
    const std::array<uint32_t, 6> scaled = gpu::ScaledResolveMemory::ScaledFetch(fetch, *copy);
    for (uint32_t i = 0; i < 6; ++i) patched[xenos::kFetchConstantBase + i] = scaled[i];
    return gpu::ReadFrontBuffer(patched, 0, width * copy->scale_x, height * copy->scale_y,
                                gpu::ScaledResolveMemory::AccessOf(*copy));
  }
  return gpu::ReadFrontBuffer(regs, frontbuffer_address, width, height, memory);
}

void FsiRenderer::PrepareMemExport(const std::vector<MemoryRange>& ranges) {
  EndRendering();
  for (const MemoryRange& r : ranges) shared_memory_.PrepareForShaderWrites(r.address, r.size);
}

void FsiRenderer::ReadBackMemExport(const std::vector<MemoryRange>& ranges,
                                    const gpu::GuestMemoryAccess& memory) {
  EndRendering();
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(stream_.cmd(),
                       VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  constexpr uint64_t kChunk = 16ull << 20;
  for (const MemoryRange& r : ranges) {
    const uint64_t end = std::min<uint64_t>(uint64_t(r.address) + r.size, SharedMemory::kSize);
    for (uint64_t at = r.address; at < end; at += kChunk) {
      const uint64_t bytes = std::min(kChunk, end - at);
      auto alloc = stream_.TryAllocate(bytes, 16);
      if (!alloc) {
        Flush();
        alloc = stream_.TryAllocate(bytes, 16);
      }
      const VkBufferCopy region{at, alloc->offset, bytes};
      vkCmdCopyBuffer(stream_.cmd(), shared_memory_.buffer(), alloc->buffer, 1, &region);
      Flush();
      memory.write(uint32_t(at), std::span<const uint8_t>(alloc->data, size_t(bytes)));
      shared_memory_.MarkCurrent(uint32_t(at), bytes, memory.pages);
      scaled_.Invalidate(uint32_t(at), bytes);
    }
  }
}

VkDescriptorSet FsiRenderer::BindTextures(const FsiDrawInput& draw, gpu::RegisterValues regs,
                                          const gpu::GuestMemoryAccess& memory) {
  if (!draw.texture_slots) return textures_set_;
  VkSampler dummy_sampler = samplers_.Get(SamplerState{});
  std::vector<VkDescriptorImageInfo> images;
  for (uint32_t b = 0; b < kTextureBindingArrays; ++b) {
    images.insert(images.end(), kTextureBindingCount,
                  {dummy_sampler, textures_.dummy_view(b), VK_IMAGE_LAYOUT_GENERAL});
  }
  for (uint32_t slot = 0; slot < kTextureBindingCount; ++slot) {
    if (!(draw.texture_slots & (1u << slot))) continue;
    const uint32_t first = xenos::kFetchConstantBase + slot * 6;
    if (uint64_t(first) + 6 > regs.size()) continue;
    const uint32_t* fetch = regs.data() + first;
    try {
      const TextureCache::Texture& t = textures_.Get(fetch, memory.pages);
      if (!t.inexact.empty()) Note("texture: " + t.inexact);
      SamplerState state = SamplerState::FromFetchConstant(fetch, &context_.capabilities());
      state.ApplyInstructionFilters(draw.texture_filters[slot], &context_.capabilities());
      if (!state.inexact.empty()) Note("sampler: " + state.inexact);
      const VkSampler sampler = samplers_.Get(state);
      const auto dimension = xenos::TextureFetchConstant::Decode(fetch).dimension;
      if (dimension == xenos::DataDimension::kCube) {
        if (t.cube_view) {
          images[kTextureBindingCount * (kTexturesCubeBinding - kTexturesBinding) + slot] = {
              sampler, t.cube_view, VK_IMAGE_LAYOUT_GENERAL};
        } else {
          Note("cube texture whose faces are not square sampled as zeros");
        }
      } else if (dimension == xenos::DataDimension::k3D) {
        images[kTextureBindingCount * (kTextures3DBinding - kTexturesBinding) + slot] = {
            sampler, t.view, VK_IMAGE_LAYOUT_GENERAL};
      } else {
        images[slot] = {sampler, t.view, VK_IMAGE_LAYOUT_GENERAL};
      }
    } catch (const Error& e) {
      Note("texture fetch constant " + std::to_string(slot) + " sampled as zeros: " + e.what());
    }
  }
  // A set per distinct binding, from a pool recycled once a submission has completed.
  if (stream_.submission_count() != texture_pool_epoch_) {
    CheckVk(vkResetDescriptorPool(device_, texture_pool_, 0), "vkResetDescriptorPool(fsi)");
    texture_sets_.clear();
    texture_pool_epoch_ = stream_.submission_count();
  }
  std::vector<uint64_t> key;
  key.reserve(images.size() * 2);
  for (const auto& i : images) {
    key.push_back(uint64_t(reinterpret_cast<uintptr_t>(i.imageView)));
    key.push_back(uint64_t(reinterpret_cast<uintptr_t>(i.sampler)));
  }
  auto it = texture_sets_.find(key);
  if (it != texture_sets_.end()) return it->second;
  if (texture_sets_.size() >= kTexturePoolSets) {
    Flush();
    CheckVk(vkResetDescriptorPool(device_, texture_pool_, 0), "vkResetDescriptorPool(fsi)");
    texture_sets_.clear();
    texture_pool_epoch_ = stream_.submission_count();
  }
  VkDescriptorSetLayout layout = layouts_.textures_layout();
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = texture_pool_;
  alloc.descriptorSetCount = 1;
  alloc.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  CheckVk(vkAllocateDescriptorSets(device_, &alloc, &set), "vkAllocateDescriptorSets(fsi)");
  VkWriteDescriptorSet writes[kTextureBindingArrays]{};
  for (uint32_t b = 0; b < kTextureBindingArrays; ++b) {
    writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[b].dstSet = set;
    writes[b].dstBinding = kTexturesBinding + b;
    writes[b].descriptorCount = kTextureBindingCount;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    writes[b].pImageInfo = images.data() + b * kTextureBindingCount;
  }
  vkUpdateDescriptorSets(device_, kTextureBindingArrays, writes, 0, nullptr);
  texture_sets_.emplace(std::move(key), set);
  return set;
}

}  // namespace xnt::vk::fsi
