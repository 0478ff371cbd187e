// translate --check's real textures on the device: loaded by the fbo/fsi paths' own texture cache
// from a shared-memory mirror of the check's texture bytes, sampled through the sampler cache's
// samplers and bound as the paths bind them (path_textures.cpp PathRenderer::BindTextures).
#include <cstring>

#include "check_device.h"
#include "xnt/base/error.h"
#include "xnt/vk/command_stream.h"
#include "xnt/vk/sampler_cache.h"
#include "xnt/vk/shared_memory.h"
#include "xnt/vk/texture_cache.h"
#include "xnt/xenos/enums.h"

namespace xnt::vk {

using Device = TranslateChecker::Device;

// The path objects the real textures go through, made on the first check that has any.
struct Device::TexturePath {
  explicit TexturePath(VulkanContext& context)
      : stream(context, 4u << 20), shared(context, stream), cache(context, stream, shared),
        samplers(context) {}
  CommandStream stream;
  SharedMemory shared;
  TextureCache cache;
  SamplerCache samplers;
  uint64_t generation = 0;  // bumped per check: every page of the texture bytes is new
};

Device::TextureBinding::TextureBinding() = default;
Device::TextureBinding::~TextureBinding() = default;

std::vector<std::string> Device::BindTextures(const uint32_t* fetch_constants, uint32_t slots,
                                              uint32_t address, const std::vector<uint8_t>& bytes,
                                              const ShaderReflection& reflection) {
  // The 1x1 textures everywhere, then the real ones over them.
  std::array<std::array<VkDescriptorImageInfo, kTextureBindingCount>, 3> images;
  for (int t = 0; t < 3; ++t) {
    images[t].fill({sampler_, textures_[t].view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
  }
  std::vector<std::string> notes;
  if (slots) {
    if (!textures_path_.path) textures_path_.path = std::make_unique<TexturePath>(context_);
    TexturePath& p = *textures_path_.path;
    const uint64_t generation = ++p.generation;
    const uint32_t first_page = address / gpu::GuestPageSource::kPageSize;
    const uint32_t pages = uint32_t(bytes.size() / gpu::GuestPageSource::kPageSize);
    gpu::GuestPageSource source;
    source.generation = [generation] { return generation; };
    source.page_generation = [=](uint32_t page) {
      return page >= first_page && page - first_page < pages ? generation : 0;
    };
    source.page_data = [&, first_page, pages](uint32_t page) -> const uint8_t* {
      if (page < first_page || page - first_page >= pages) return nullptr;
      return bytes.data() + size_t(page - first_page) * gpu::GuestPageSource::kPageSize;
    };
    p.shared.Sync(source);
    const Capabilities& caps = context_.capabilities();
    for (uint32_t slot = 0; slot < kTextureBindingCount; ++slot) {
      if (!(slots & (1u << slot))) continue;
      const uint32_t* fetch = fetch_constants + slot * 6;
      const TextureCache::Texture& t = p.cache.Get(fetch, source);
      if (!t.inexact.empty()) notes.push_back("texture: " + t.inexact);
      const SamplerState state =
          SamplerState::ForSlot(fetch, reflection.texture_filters[slot],
                                (reflection.texture_host_lod_slots >> slot) & 1u, &caps);
      if (!state.inexact.empty()) notes.push_back("sampler: " + state.inexact);
      const VkSampler sampler = p.samplers.Get(state);
      const auto dimension = xenos::TextureFetchConstant::Decode(fetch).dimension;
      if (dimension == xenos::DataDimension::kCube) {
        if (t.cube_view) images[1][slot] = {sampler, t.cube_view, VK_IMAGE_LAYOUT_GENERAL};
      } else if (dimension == xenos::DataDimension::k3D) {
        images[2][slot] = {sampler, t.view, VK_IMAGE_LAYOUT_GENERAL};
      } else {
        images[0][slot] = {sampler, t.view, VK_IMAGE_LAYOUT_GENERAL};
      }
    }
    p.stream.Flush();  // the loads, done before the check's draw is submitted
  }
  VkWriteDescriptorSet writes[3] = {};
  const uint32_t bindings[3] = {kTexturesBinding, kTexturesCubeBinding, kTextures3DBinding};
  for (int t = 0; t < 3; ++t) {
    writes[t].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[t].dstSet = sets_[2];
    writes[t].dstBinding = bindings[t];
    writes[t].descriptorCount = kTextureBindingCount;
    writes[t].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    writes[t].pImageInfo = images[t].data();
  }
  vkUpdateDescriptorSets(device_, 3, writes, 0, nullptr);
  return notes;
}

}  // namespace xnt::vk
