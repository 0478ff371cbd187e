// The pages a slice's kept stream reads (slice_pages.h).
#include "slice_pages.h"

#include <array>

#include "xnt/base/error.h"
#include "xnt/gpu/texture_descriptor.h"
#include "xnt/gpu/vertex_exports.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/ucode/shader_cache.h"
#include "xnt/xenos/enums.h"
#include "xnt/xenos/registers.h"

namespace xnt::compare::detail {
namespace {

constexpr uint32_t kPageShift = replay::GuestMemory::kPageShift;

// The fetch constants a shader reads (ucode::Analysis); every one when its microcode does not
// decode or analyse (the path then reads nothing, but the slice stays on the safe side).
struct FetchUse {
  uint32_t textures = 0;               // tf0-tf31
  std::array<uint32_t, 3> vertices{};  // vf0-vf95
};

void AddUse(const replay::Shader* shader, FetchUse& use) {
  if (!shader) return;
  if (!shader->decoded || !shader->decoded->ok()) {
    use.textures = ~0u;
    use.vertices = {~0u, ~0u, ~0u};
    return;
  }
  const ucode::Analysis& a = shader->decoded->analysis;
  use.textures |= a.texture_fetch_constants;
  for (size_t i = 0; i < 3; ++i) use.vertices[i] |= a.vertex_fetch_constants[i];
}

void AddTexture(const replay::RegisterFile& regs, uint32_t slot, std::set<uint32_t>& pages) {
  uint32_t dwords[6];
  for (uint32_t d = 0; d < 6; ++d) dwords[d] = regs[xenos::FetchConstantIndex(slot, d)];
  if (xenos::FetchConstantType(dwords[0] & 3u) != xenos::FetchConstantType::kTexture) return;
  try {
    const gpu::TextureDescriptor texture = gpu::TextureDescriptor::FromFetchConstant(dwords);
    for (const auto& [address, size] : texture.ByteRanges()) AddPages(pages, address, size);
  } catch (const Error&) {
    // A fetch constant no path can load: it reads no memory.
  }
}

}  // namespace

void AddPages(std::set<uint32_t>& pages, uint64_t address, uint64_t size) {
  const uint64_t end = std::min<uint64_t>(address + size, replay::GuestMemory::kSize);
  for (uint64_t page = address >> kPageShift; (page << kPageShift) < end; ++page) {
    pages.insert(uint32_t(page));
  }
}

void AddDrawReads(const replay::DrawCall& draw, std::set<uint32_t>& pages) {
  if (draw.indices.source == xenos::SourceSelect::kDma) {
    AddPages(pages, draw.indices.guest_address, draw.indices.size_bytes);
  }
  if (!draw.registers) return;
  const replay::RegisterFile& regs = *draw.registers;
  FetchUse use;
  AddUse(draw.vertex_shader, use);
  AddUse(draw.pixel_shader, use);
  // A resolve takes its rectangle from the three corners vertex fetch constant 0 points at
  // (gpu/resolve.cpp; Xenia draw_util.cc GetResolveInfo), whatever shaders are bound.
  if (draw.edram_mode == xenos::ModeControl::kCopy) {
    use.vertices[0] |= 1u;
  } else {
    // Every memexport stream range of the draw's shaders, not only the elements it stores: the
    // GPU paths mirror each whole range before the draw and copy it all back after
    // (gpu::MemExportRanges), and compare hashes it whole, so bytes of a range the draw leaves
    // alone must be the cut's too.
    bool past_memory = false;
    for (const gpu::MemExportRange& r : gpu::MemExportRanges(draw, past_memory)) {
      AddPages(pages, r.address, r.size);
    }
  }
  for (uint32_t slot = 0; slot < xenos::kTextureFetchConstantCount; ++slot) {
    if (use.textures & (1u << slot)) AddTexture(regs, slot, pages);
  }
  for (uint32_t n = 0; n < xenos::kVertexFetchConstantCount; ++n) {
    if (!(use.vertices[n / 32] & (1u << (n % 32)))) continue;
    const uint32_t index = xenos::VertexFetchConstantIndex(n);
    const auto fetch = xenos::VertexFetchConstant::Decode(regs[index], regs[index + 1]);
    if (fetch.type != xenos::FetchConstantType::kVertex) continue;
    AddPages(pages, fetch.address_bytes(), uint64_t(fetch.size_dwords) * 4);
  }
}

void AddSwapReads(const replay::RegisterFile& registers, std::span<const uint32_t> payload,
                  std::set<uint32_t>& pages) {
  AddTexture(registers, 0, pages);
  if (payload.size() < 4) return;
  auto tiles = [](uint32_t texels) { return (uint64_t(texels) + 31) / 32 * 32; };
  AddPages(pages, payload[1] & 0x1FFFFFFFu, tiles(payload[2]) * tiles(payload[3]) * 4);
}

}  // namespace xnt::compare::detail
