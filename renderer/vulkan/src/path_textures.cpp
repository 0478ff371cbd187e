// A draw's texture descriptor set on every Vulkan path (see path_renderer.h): each slot the
// shaders fetch from bound to the texture cache's image (or, at a resolution scale, the scaled
// resolve copy it covers) with the fetch constant's sampler; one set per distinct binding.
#include <string>

#include "xnt/base/error.h"
#include "xnt/vk/path_renderer.h"
#include "xnt/vk/scaled_resolve_mirror.h"
#include "xnt/vk/translator/shader_interface.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {

std::vector<VkDescriptorImageInfo> PathRenderer::DummyImages() {
  const VkSampler dummy_sampler = samplers_.Get(SamplerState{});
  std::vector<VkDescriptorImageInfo> images;
  for (uint32_t b = 0; b < kTextureBindingArrays; ++b) {
    images.insert(images.end(), kTextureBindingCount,
                  {dummy_sampler, textures_.dummy_view(b), VK_IMAGE_LAYOUT_GENERAL});
  }
  return images;
}

void PathRenderer::WriteTextureSet(VkDescriptorSet set,
                                   const std::vector<VkDescriptorImageInfo>& images) {
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
}

VkDescriptorSet PathRenderer::BindTextures(const DrawInput& draw, gpu::RegisterValues regs,
                                           const gpu::GuestMemoryAccess& memory,
                                           uint32_t* scaled_slots) {
  *scaled_slots = 0;
  if (!draw.texture_slots) return textures_set_;
  std::vector<VkDescriptorImageInfo> images = DummyImages();
  for (uint32_t slot = 0; slot < kTextureBindingCount; ++slot) {
    if (!(draw.texture_slots & (1u << slot))) continue;
    const uint32_t first = xenos::kFetchConstantBase + slot * 6;
    if (uint64_t(first) + 6 > regs.size()) continue;
    const uint32_t* fetch = regs.data() + first;
    try {
      // At a resolution scale a texture over a scaled resolve copy reads it at the scaled size
      // (the translated shader keeps its coordinates in guest texels: scaled_texture_slots).
      const TextureCache::Texture* scaled =
          scaled_mirror_ ? scaled_mirror_->LoadTexture(fetch, textures_, [this] { EndRendering(); })
                         : nullptr;
      if (scaled) *scaled_slots |= 1u << slot;
      const TextureCache::Texture& t = scaled ? *scaled : textures_.Get(fetch, memory.pages);
      if (!t.inexact.empty()) Note("texture: " + t.inexact);
      const SamplerState state =
          SamplerState::ForSlot(fetch, draw.texture_filters[slot],
                                (draw.texture_host_lod_slots >> slot) & 1u, &context_.capabilities());
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
  return TextureSetFor(images);
}

VkDescriptorSet PathRenderer::TextureSetFor(std::vector<VkDescriptorImageInfo>& images) {
  // A set per distinct binding of the submission (DescriptorSetRing: written again only once
  // the submission that used it has completed).
  const uint64_t submission = stream_.submission_count();
  if (submission != texture_sets_submission_) {
    texture_set_of_.clear();
    texture_sets_submission_ = submission;
  }
  std::vector<uint64_t> key;
  key.reserve(images.size() * 2);
  for (const auto& i : images) {
    key.push_back(uint64_t(reinterpret_cast<uintptr_t>(i.imageView)));
    key.push_back(uint64_t(reinterpret_cast<uintptr_t>(i.sampler)));
  }
  auto it = texture_set_of_.find(key);
  if (it != texture_set_of_.end()) return it->second;
  const VkDescriptorSet set = texture_sets_.Next(submission);
  WriteTextureSet(set, images);
  texture_set_of_.emplace(std::move(key), set);
  return set;
}

}  // namespace xnt::vk
