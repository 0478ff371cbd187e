// EDRAM render target cache: ownership claims, transfers and the log (see edram_cache.h).
#include "xnt/vk/edram_cache.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {

using edram::kTileBytes;
using xenos::ColorRenderTargetFormat;
using xenos::DepthRenderTargetFormat;

RenderTargetKey HostKeyOf(const edram::OwnerKey& key) {
  return RenderTargetKey{key.base_tiles, key.pitch_pixels, key.format, key.is_depth};
}

EdramCache::EdramCache(VulkanContext& /*context*/, CommandStream& stream,
                       RenderTargetCache& targets, std::function<void()> end_rendering)
    : stream_(stream),
      targets_(targets),
      end_rendering_(std::move(end_rendering)) {}

namespace {

constexpr uint32_t kTiles = xenos::kEdramTileCount;

// Pixel rows of `s` holding tiles [start, end), clamped to `height`.
std::pair<uint32_t, uint32_t> RowsOf(const edram::Surface& s, uint32_t start, uint32_t end,
                                     uint32_t height) {
  uint32_t pitch = s.pitch_tiles();
  if (pitch == 0 || end <= start) return {0, 0};
  uint32_t rel = (start + kTiles - s.base_tiles % kTiles) % kTiles;
  uint32_t r0 = rel / pitch, r1 = (rel + (end - start) - 1) / pitch;
  uint32_t y0 = std::min(r0 * s.rows_per_tile_row(), height);
  uint32_t y1 = std::min((r1 + 1) * s.rows_per_tile_row(), height);
  return {y0, y1};
}

uint32_t Unorm8(float v) {
  if (!(v > 0.0f)) return 0;
  if (v >= 1.0f) return 255;
  return uint32_t(v * 255.0f + 0.5f);
}

bool RawColour(uint32_t format) {
  return format == uint32_t(ColorRenderTargetFormat::k_8_8_8_8) ||
         format == uint32_t(ColorRenderTargetFormat::k_8_8_8_8_GAMMA);
}

// Host pixels of a row block, as read back: colour dwords, or depth dwords + stencil bytes.
struct HostBlock {
  uint32_t width = 0, y0 = 0, y1 = 0;
  std::vector<uint32_t> value;   // colour RGBA8 / depth (24-bit unorm or float bits)
  std::vector<uint8_t> stencil;  // depth only
  size_t Index(uint32_t x, uint32_t y) const { return size_t(y - y0) * width + x; }
};

void GlobalBarrier(VkCommandBuffer cmd) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                       0, 1, &barrier, 0, nullptr, 0, nullptr);
}

uint64_t BlockBytes(const RenderTarget& rt, uint32_t rows) {
  uint64_t texels = uint64_t(rt.width) * rows;
  return rt.key.is_depth ? texels * 4 + ((texels + 3) & ~uint64_t(3)) : texels * 4;
}

void RecordCopy(VkCommandBuffer cmd, const RenderTarget& rt, uint32_t y0, uint32_t y1,
                VkBuffer buffer, uint64_t offset, bool to_image) {
  VkBufferImageCopy regions[2]{};
  uint32_t count = 0;
  uint64_t texels = uint64_t(rt.width) * (y1 - y0);
  auto add = [&](VkImageAspectFlags aspect, uint64_t at) {
    VkBufferImageCopy& r = regions[count++];
    r.bufferOffset = at;
    r.imageSubresource = {aspect, 0, 0, 1};
    r.imageOffset = {0, int32_t(y0), 0};
    r.imageExtent = {rt.width, y1 - y0, 1};
  };
  if (rt.key.is_depth) {
    add(VK_IMAGE_ASPECT_DEPTH_BIT, offset);
    add(VK_IMAGE_ASPECT_STENCIL_BIT, offset + texels * 4);
  } else {
    add(VK_IMAGE_ASPECT_COLOR_BIT, offset);
  }
  if (to_image) {
    vkCmdCopyBufferToImage(cmd, buffer, rt.image, VK_IMAGE_LAYOUT_GENERAL, count, regions);
  } else {
    vkCmdCopyImageToBuffer(cmd, rt.image, VK_IMAGE_LAYOUT_GENERAL, buffer, count, regions);
  }
}

}  // namespace

EdramEventTargets EdramTargetsForDraw(RegisterValues regs, const bool color_used[4],
                                      bool depth_used) {
  auto reg = [&](xenos::Reg r) {
    uint32_t i = xenos::RegIndex(r);
    return i < regs.size() ? regs[i] : 0u;
  };
  EdramEventTargets out;
  auto surface_info = xenos::reg::RB_SURFACE_INFO::Decode(reg(xenos::Reg::RB_SURFACE_INFO));
  if (surface_info.surface_pitch == 0) return out;
  auto extent = [&](edram::Surface s) {
    EdramUse use;
    use.surface = s;
    uint32_t limit = s.RowsToEdramEnd(8192);
    HostViewport vp = ComputeViewport(regs, s.pitch_pixels, std::max(limit, 1u));
    uint32_t bottom = uint32_t(vp.scissor.offset.y) + vp.scissor.extent.height;
    use.rows = std::min(bottom, limit);
    use.rows_guessed = bottom >= limit;
    return use;
  };
  auto mode = xenos::ModeControl(reg(xenos::Reg::RB_MODECONTROL) & 7);
  auto color_mask = xenos::reg::RB_COLOR_MASK{reg(xenos::Reg::RB_COLOR_MASK)};
  for (uint32_t i = 0; i < 4; ++i) {
    auto info = xenos::reg::RB_COLOR_INFO::Decode(reg(xenos::kColorInfoRegs[i]));
    edram::Surface s;
    s.base_tiles = info.color_base;
    s.pitch_pixels = surface_info.surface_pitch;
    s.msaa = surface_info.msaa_samples;
    s.format = uint32_t(info.color_format);
    EdramUse use = extent(s);
    // Bound = enabled in RB_COLOR_MASK (a slot with a zero mask is not a binding).
    if (mode == xenos::ModeControl::kColorDepth && color_mask.rt_mask(i)) out.bound.push_back(use);
    if (color_used[i]) out.used.push_back(use);
  }
  auto depth = xenos::reg::RB_DEPTH_INFO::Decode(reg(xenos::Reg::RB_DEPTH_INFO));
  edram::Surface d;
  d.base_tiles = depth.depth_base;
  d.pitch_pixels = surface_info.surface_pitch;
  d.msaa = surface_info.msaa_samples;
  d.is_depth = true;
  d.format = uint32_t(depth.depth_format);
  EdramUse use = extent(d);
  out.bound.push_back(use);
  if (depth_used) out.used.push_back(use);
  return out;
}

EdramEventTargets EdramTargetsForResolve(const ResolveInfo& info) {
  EdramEventTargets out;
  if (info.surface_pitch == 0 || info.empty()) return out;
  auto make = [&](bool depth) {
    EdramUse use;
    use.surface.base_tiles = depth ? info.depth_base : info.color_base;
    use.surface.pitch_pixels = info.surface_pitch;
    use.surface.msaa = xenos::MsaaSamples(std::min(info.msaa_samples, 2u));
    use.surface.is_depth = depth;
    use.surface.format = depth ? info.depth_format : info.color_format;
    use.rows = uint32_t(info.y1);
    return use;
  };
  bool color = (info.copy && info.source_select < 4) || (info.color_clear && info.source_select < 4);
  bool depth = (info.copy && info.source_select == 4) || info.depth_clear;
  if (color) out.used.push_back(make(false));
  if (depth) out.used.push_back(make(true));
  out.bound = out.used;
  return out;
}

void EdramCache::Use(uint64_t event, std::vector<EdramUse> uses,
                     const std::vector<EdramUse>& bound, const std::string& trigger) {
  // Extents: rows -> tiles, clamped to the next used target's base (a target cannot extend into
  // the one the game placed after it in the same pass) and to the whole EDRAM.
  std::vector<uint32_t> tiles(uses.size());
  for (size_t i = 0; i < uses.size(); ++i) {
    const edram::Surface& s = uses[i].surface;
    tiles[i] = s.TilesForRows(uses[i].rows);
    for (size_t j = 0; j < uses.size(); ++j) {
      uint32_t a = s.base_tiles % kTiles, b = uses[j].surface.base_tiles % kTiles;
      if (b > a) tiles[i] = std::min(tiles[i], b - a);
    }
  }
  std::vector<std::pair<edram::OwnerKey, uint32_t>> naive;
  for (auto& b : bound) {
    naive.emplace_back(edram::OwnerKey::From(b.surface), b.surface.TilesForRows(b.rows));
  }
  naive_.OnBindings(naive);

  for (size_t i = 0; i < uses.size(); ++i) {
    if (tiles[i] == 0) continue;
    edram::OwnerKey key = edram::OwnerKey::From(uses[i].surface);
    if (uses[i].rows_guessed) ++guessed_;
    claims_.push_back({event, frame_, key.base_tiles, tiles[i], key, uses[i].rows_guessed, trigger});
    auto transfers = map_.ChangeOwnership(key, key.base_tiles, tiles[i]);
    for (auto& t : transfers) {
      t.draw_index = event;
      t.trigger = trigger;
      EdramLogEntry entry;
      entry.transfer = t;
      entry.frame = frame_;
      if (uses[i].rows_guessed) entry.note = "extent guessed (no viewport/scissor bound); ";
      Move(t, entry);
      log_.push_back(std::move(entry));
    }
  }
}

void EdramCache::Move(const edram::Transfer& t, EdramLogEntry& entry) {
  RenderTargetKey src_key = HostKeyOf(t.source), dst_key = HostKeyOf(t.dest);
  if (src_key == dst_key) {
    entry.note += "same host image (only the sample count differs; host renders 1 sample)";
    return;
  }
  const RenderTarget* src = targets_.Find(src_key);
  if (!src) {
    entry.note += "source host target missing";
    return;
  }
  if (!targets_.Find(dst_key)) end_rendering_();  // Get records the new target's clear
  const RenderTarget& dst = targets_.Get(dst_key, stream_.cmd());
  edram::Surface ss = t.source.ToSurface(), ds = t.dest.ToSurface();
  auto [sy0, sy1] = RowsOf(ss, t.start_tile, t.end_tile, src->height);
  auto [dy0, dy1] = RowsOf(ds, t.start_tile, t.end_tile, dst.height);
  if (dy1 <= dy0) {
    entry.note += "destination rows outside the host image";
    return;
  }
  uint64_t src_bytes = BlockBytes(*src, sy1 - sy0), dst_bytes = BlockBytes(dst, dy1 - dy0);
  end_rendering_();
  auto a = stream_.TryAllocate(std::max<uint64_t>(src_bytes, 16), 16);
  auto b = a ? stream_.TryAllocate(dst_bytes, 16) : std::nullopt;
  if (!a || !b) {
    stream_.Flush();
    a = stream_.TryAllocate(std::max<uint64_t>(src_bytes, 16), 16);
    b = a ? stream_.TryAllocate(dst_bytes, 16) : std::nullopt;
    if (!a || !b) {
      entry.note += "transfer larger than the upload ring; not moved";
      return;
    }
  }
  VkCommandBuffer cmd = stream_.cmd();
  GlobalBarrier(cmd);
  if (sy1 > sy0) RecordCopy(cmd, *src, sy0, sy1, a->buffer, a->offset, false);
  RecordCopy(cmd, dst, dy0, dy1, b->buffer, b->offset, false);
  stream_.Flush();

  auto read_block = [](const RenderTarget& rt, uint32_t y0, uint32_t y1, const uint8_t* data) {
    HostBlock block;
    block.width = rt.width;
    block.y0 = y0;
    block.y1 = y1;
    size_t texels = size_t(rt.width) * (y1 - y0);
    block.value.resize(texels);
    if (texels) std::memcpy(block.value.data(), data, texels * 4);
    if (rt.key.is_depth) block.stencil.assign(data + texels * 4, data + texels * 5);
    return block;
  };
  HostBlock source = read_block(*src, sy0, sy1, a->data);
  HostBlock dest = read_block(dst, dy0, dy1, b->data);

  bool src_d24 = src->format == VK_FORMAT_D24_UNORM_S8_UINT;
  bool dst_d24 = dst.format == VK_FORMAT_D24_UNORM_S8_UINT;
  bool exact = true;
  // Store: the source's pixels in the transferred tiles, in the guest layout.
  for (uint32_t y = sy0; y < sy1; ++y) {
    for (uint32_t x = 0; x < std::min(src->width, ss.pitch_pixels); ++x) {
      uint32_t offset0 = ss.SampleOffset(x, y, 0);
      uint32_t tile = offset0 / kTileBytes;
      if (tile < t.start_tile || tile >= t.end_tile) continue;
      size_t i = source.Index(x, y);
      uint64_t bits;
      if (ss.is_depth) {
        uint32_t host = source.value[i], stencil = source.stencil[i];
        if (src_d24 && ss.format == uint32_t(DepthRenderTargetFormat::kD24S8)) {
          bits = ((host & 0xFFFFFFu) << 8) | stencil;
        } else {
          float d = src_d24 ? float(double(host & 0xFFFFFFu) / 16777215.0)
                            : std::bit_cast<float>(host);
          bits = edram::PackDepth(DepthRenderTargetFormat(ss.format), d, stencil);
        }
      } else if (RawColour(ss.format)) {
        bits = source.value[i];
      } else {
        uint32_t h = source.value[i];
        bits = edram::PackColor(ColorRenderTargetFormat(ss.format),
                                {float(h & 0xFF) / 255.0f, float((h >> 8) & 0xFF) / 255.0f,
                                 float((h >> 16) & 0xFF) / 255.0f, float(h >> 24) / 255.0f});
        exact = false;
      }
      for (uint32_t s = 0; s < ss.sample_count(); ++s) edram_.Store(ss, x, y, s, bits);
    }
  }
  // Load: the destination's pixels in those tiles, from the guest layout.
  for (uint32_t y = dy0; y < dy1; ++y) {
    for (uint32_t x = 0; x < std::min(dst.width, ds.pitch_pixels); ++x) {
      uint32_t tile = ds.SampleOffset(x, y, 0) / kTileBytes;
      if (tile < t.start_tile || tile >= t.end_tile) continue;
      size_t i = dest.Index(x, y);
      uint64_t bits = edram_.Load(ds, x, y, 0);
      if (ds.is_depth) {
        uint32_t dword = uint32_t(bits);
        dest.stencil[i] = uint8_t(dword & 0xFF);
        auto format = DepthRenderTargetFormat(ds.format);
        if (dst_d24 && format == DepthRenderTargetFormat::kD24S8) {
          dest.value[i] = dword >> 8;
        } else {
          float old_host = dst_d24 ? float(double(dest.value[i] & 0xFFFFFFu) / 16777215.0)
                                   : std::bit_cast<float>(dest.value[i]);
          // Keep the host depth while it still converts to the stored bits.
          float d = edram::HostDepthStillMatches(format, old_host, dword)
                        ? old_host
                        : edram::UnpackDepth(format, dword);
          dest.value[i] = dst_d24 ? uint32_t(std::lround(double(d) * 16777215.0)) & 0xFFFFFFu
                                  : std::bit_cast<uint32_t>(d);
        }
      } else if (RawColour(ds.format)) {
        dest.value[i] = uint32_t(bits);
      } else {
        auto c = edram::UnpackColor(ColorRenderTargetFormat(ds.format), bits);
        dest.value[i] = Unorm8(c[0]) | (Unorm8(c[1]) << 8) | (Unorm8(c[2]) << 16) |
                        (Unorm8(c[3]) << 24);
        exact = false;
      }
    }
  }
  auto up = stream_.TryAllocate(dst_bytes, 16);
  if (!up) {
    stream_.Flush();
    up = stream_.TryAllocate(dst_bytes, 16);
  }
  size_t texels = dest.value.size();
  std::memcpy(up->data, dest.value.data(), texels * 4);
  if (ds.is_depth) std::memcpy(up->data + texels * 4, dest.stencil.data(), texels);
  cmd = stream_.cmd();
  GlobalBarrier(cmd);
  RecordCopy(cmd, dst, dy0, dy1, up->buffer, up->offset, true);
  GlobalBarrier(cmd);
  entry.data_moved = true;
  if (!exact) entry.note += "converted through the 8-bit host stand-in (approximated)";
}

}  // namespace xnt::vk
