// EDRAM render target cache: ownership claims, transfers and the log (see edram_cache.h).
#include "xnt/vk/fbo/edram_cache.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/vk/fbo/edram_transfer.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {

using gpu::edram::kTileBytes;
using xenos::ColorRenderTargetFormat;
using xenos::DepthRenderTargetFormat;

RenderTargetKey HostKeyOf(const gpu::edram::OwnerKey& key) {
  return RenderTargetKey{key.base_tiles, key.pitch_pixels, key.format, key.is_depth,
                         key.msaa_samples};
}

EdramCache::EdramCache(VulkanContext& context, CommandStream& stream,
                       RenderTargetCache& targets, std::function<void()> end_rendering)
    : context_(context),
      stream_(stream),
      targets_(targets),
      end_rendering_(std::move(end_rendering)),
      edram_(targets.options().scale_x, targets.options().scale_y) {
  host_depth_count_ = size_t(xenos::kEdramSizeBytes / 4) * edram_.scale_x() * edram_.scale_y();
  host_depth_.reset(static_cast<float*>(std::calloc(host_depth_count_, sizeof(float))));
  if (!host_depth_) throw std::bad_alloc();
}

gpu::edram::Surface EdramCache::SurfaceOf(const gpu::edram::OwnerKey& owner) const {
  gpu::edram::Surface surface = owner.ToSurface();
  surface.scale_x = edram_.scale_x();
  surface.scale_y = edram_.scale_y();
  return surface;
}

EdramCache::~EdramCache() = default;

namespace {

constexpr uint32_t kTiles = xenos::kEdramTileCount;

// Host pixel rows of `s` holding tiles [start, end), clamped to `height` (a row of tiles is
// rows_per_tile_row() x scale_y host rows at a resolution scale).
std::pair<uint32_t, uint32_t> RowsOf(const gpu::edram::Surface& s, uint32_t start, uint32_t end,
                                     uint32_t height) {
  uint32_t pitch = s.pitch_tiles();
  if (pitch == 0 || end <= start) return {0, 0};
  uint32_t rel = (start + kTiles - s.base_tiles % kTiles) % kTiles;
  uint32_t r0 = rel / pitch, r1 = (rel + (end - start) - 1) / pitch;
  const uint32_t rows = s.rows_per_tile_row() * s.scale_y;
  uint32_t y0 = std::min(r0 * rows, height);
  uint32_t y1 = std::min((r1 + 1) * rows, height);
  return {y0, y1};
}

// Host pixels of a row block, as read back: colour texels, or depth dwords + stencil bytes.
// Host samples are interleaved per pixel: index ((y - y0) * width + x) * samples + sample.
struct HostBlock {
  uint32_t width = 0, y0 = 0, y1 = 0, texel_bytes = 4, samples = 1;
  std::vector<uint8_t> value;    // colour texels / depth dwords (24-bit unorm or float bits)
  std::vector<uint8_t> stencil;  // depth only
  size_t Index(uint32_t x, uint32_t y, uint32_t s = 0) const {
    return (size_t(y - y0) * width + x) * samples + s;
  }
  uint8_t* At(uint32_t x, uint32_t y, uint32_t s = 0) {
    return value.data() + Index(x, y, s) * texel_bytes;
  }
};

void GlobalBarrier(VkCommandBuffer cmd) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                       0, 1, &barrier, 0, nullptr, 0, nullptr);
}

bool HostD24(const RenderTarget& rt);

uint64_t BlockBytes(const RenderTarget& rt, uint32_t rows) {
  uint64_t texels = uint64_t(rt.width) * rows;
  return rt.key.is_depth ? texels * 4 + ((texels + 3) & ~uint64_t(3)) : texels * rt.texel_bytes;
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

void EdramCache::Use(uint64_t event, std::vector<gpu::EdramUse> uses,
                     const std::vector<gpu::EdramUse>& bound, const std::string& trigger) {
  tracker_.Use(event, std::move(uses), bound, trigger,
               [this](const gpu::edram::Transfer& t, gpu::EdramLogEntry& entry) { Move(t, entry); });
}

// ---- Data movement through the CPU EDRAM model ---------------------------------------------------

namespace {

// Room for `bytes` in the upload ring, flushing it once when it is full.
std::optional<CommandStream::Allocation> RingAllocate(CommandStream& stream, uint64_t bytes,
                                                      uint64_t alignment) {
  auto a = stream.TryAllocate(bytes, alignment);
  if (!a) {
    stream.Flush();
    a = stream.TryAllocate(bytes, alignment);
    if (!a) throw Error("EDRAM transfer of " + std::to_string(bytes) +
                        " bytes is larger than the upload ring");
  }
  return a;
}

// The sample transport's texels take at least 16 bytes of the ring.
uint64_t TransportBytes(const RenderTarget& rt, uint32_t rows) {
  return std::max<uint64_t>(SampleTransport::Bytes(rt, rows), 16);
}

// Copies rows [y0, y1) of `rt` to the host (synchronous).
// MSAA images go through the sample transport (edram_transfer.h), 1-sample ones through copies.
HostBlock ReadRows(CommandStream& stream, SampleTransport* transport, uint64_t alignment,
                   const RenderTarget& rt, uint32_t y0, uint32_t y1) {
  HostBlock block;
  block.width = rt.width;
  block.y0 = y0;
  block.y1 = y1;
  block.texel_bytes = rt.key.is_depth ? 4 : rt.texel_bytes;
  block.samples = uint32_t(rt.samples);
  size_t texels = size_t(rt.width) * (y1 - y0) * block.samples;
  block.value.resize(texels * block.texel_bytes);
  if (rt.key.is_depth) block.stencil.resize(texels);
  if (texels == 0) return block;
  if (block.samples > 1) {
    auto a = RingAllocate(stream, TransportBytes(rt, y1 - y0), alignment);
    VkCommandBuffer cmd = stream.cmd();
    GlobalBarrier(cmd);
    transport->RecordRead(cmd, rt, y0, y1, a->buffer, a->offset);
    GlobalBarrier(cmd);
    stream.Flush();
    std::memcpy(block.value.data(), a->data, block.value.size());
    for (size_t i = 0; i < block.stencil.size(); ++i) {
      block.stencil[i] = a->data[texels * 4 + i * 4];
    }
    return block;
  }
  uint64_t bytes = BlockBytes(rt, y1 - y0);
  auto a = RingAllocate(stream, bytes, 16);
  VkCommandBuffer cmd = stream.cmd();
  GlobalBarrier(cmd);
  RecordCopy(cmd, rt, y0, y1, a->buffer, a->offset, false);
  GlobalBarrier(cmd);
  stream.Flush();
  std::memcpy(block.value.data(), a->data, block.value.size());
  if (rt.key.is_depth) std::memcpy(block.stencil.data(), a->data + texels * 4, texels);
  return block;
}

void WriteRows(CommandStream& stream, SampleTransport* transport, uint64_t alignment,
               const RenderTarget& rt, const HostBlock& block) {
  size_t texels = size_t(block.width) * (block.y1 - block.y0) * block.samples;
  if (texels == 0) return;
  if (block.samples > 1) {
    auto a = RingAllocate(stream, TransportBytes(rt, block.y1 - block.y0), alignment);
    std::memcpy(a->data, block.value.data(), block.value.size());
    for (size_t i = 0; i < block.stencil.size(); ++i) {
      StoreLE32(a->data + texels * 4 + i * 4, block.stencil[i]);
    }
    VkCommandBuffer cmd = stream.cmd();
    GlobalBarrier(cmd);
    transport->RecordWrite(cmd, rt, block.y0, block.y1, a->buffer, a->offset);
    GlobalBarrier(cmd);
    stream.Flush();  // the transport's descriptor sets are reused by the next transfer
    return;
  }
  uint64_t bytes = BlockBytes(rt, block.y1 - block.y0);
  auto up = RingAllocate(stream, bytes, 16);
  std::memcpy(up->data, block.value.data(), block.value.size());
  if (rt.key.is_depth) std::memcpy(up->data + texels * 4, block.stencil.data(), texels);
  VkCommandBuffer cmd = stream.cmd();
  GlobalBarrier(cmd);
  RecordCopy(cmd, rt, block.y0, block.y1, up->buffer, up->offset, true);
  GlobalBarrier(cmd);
}

bool HostD24(const RenderTarget& rt) { return rt.format == VK_FORMAT_D24_UNORM_S8_UINT; }

// Rows of `rt` whose host texels (every sample, as read back) fit in 32 MiB, half the upload
// ring: transfers through the CPU model move at most that much per submission.
uint32_t RowsPerBand(const RenderTarget& rt) {
  const uint64_t row = std::max<uint64_t>(
      rt.samples > VK_SAMPLE_COUNT_1_BIT ? SampleTransport::Bytes(rt, 1) : BlockBytes(rt, 1), 1);
  return uint32_t(std::clamp<uint64_t>((32ull << 20) / row, 1, 1u << 16));
}

float HostDepthValue(const RenderTarget& rt, uint32_t host) {
  return HostD24(rt) ? float(double(host & 0xFFFFFFu) / 16777215.0) : std::bit_cast<float>(host);
}

uint32_t HostDepthBits(const RenderTarget& rt, float d) {
  if (!HostD24(rt)) return std::bit_cast<uint32_t>(d);
  if (!(d > 0.0f)) return 0;
  if (d >= 1.0f) return 0xFFFFFFu;
  return uint32_t(std::lround(double(d) * 16777215.0)) & 0xFFFFFFu;
}

}  // namespace

bool EdramCache::StoreTiles(const gpu::edram::OwnerKey& owner, uint32_t start, uint32_t end,
                            bool* exact) {
  const RenderTarget* rt = targets_.Find(HostKeyOf(owner));
  if (!rt) return false;
  gpu::edram::Surface s = SurfaceOf(owner);
  auto [y0, y1] = RowsOf(s, start, end, rt->height);
  if (y1 <= y0) return true;
  end_rendering_();
  auto depth_format = DepthRenderTargetFormat(s.format);
  if (!rt->key.is_depth && !rt->raw) *exact = false;
  if (rt->key.is_depth && !rt->exact) *exact = false;
  const uint32_t tile_bytes = kTileBytes * s.scale_x * s.scale_y;
  // In bands of rows that fit the upload ring (a scaled target's rows are S x T times larger).
  const uint32_t band = RowsPerBand(*rt);
  for (uint32_t b0 = y0; b0 < y1; b0 += band) {
    const uint32_t b1 = std::min(y1, b0 + band);
    HostBlock block = ReadRows(stream_, &Transport(), StorageAlignment(), *rt, b0, b1);
    for (uint32_t y = b0; y < b1; ++y) {
      for (uint32_t x = 0; x < std::min(rt->width, s.pitch_pixels * s.scale_x); ++x) {
        uint32_t tile = s.SampleOffset(x, y, 0) / tile_bytes;
        if (tile < start || tile >= end) continue;
        for (uint32_t g = 0; g < s.sample_count(); ++g) {
          uint32_t h = HostSampleOfGuest(s.sample_count(), block.samples, g);
          uint64_t bits;
          if (s.is_depth) {
            uint32_t host = LoadLE32(block.At(x, y, h)), stencil = block.stencil[block.Index(x, y, h)];
            host_depth_[s.SampleOffset(x, y, g) / 4] = HostDepthValue(*rt, host);
            if (HostD24(*rt) && depth_format == DepthRenderTargetFormat::kD24S8) {
              bits = ((host & 0xFFFFFFu) << 8) | stencil;
            } else {
              bits = gpu::edram::PackDepth(depth_format, HostDepthValue(*rt, host), stencil);
            }
          } else {
            bits = HostTexelToGuest(s.format, rt->format, block.At(x, y, h));
          }
          edram_.Store(s, x, y, g, bits);
        }
      }
    }
  }
  return true;
}

bool EdramCache::LoadTiles(const gpu::edram::OwnerKey& owner, uint32_t start, uint32_t end,
                           bool* exact, std::string* note) {
  RenderTargetKey key = HostKeyOf(owner);
  if (!targets_.Find(key)) end_rendering_();  // Get records the new target's clear
  const RenderTarget& rt = targets_.Get(key, stream_.cmd());
  gpu::edram::Surface s = SurfaceOf(owner);
  auto [y0, y1] = RowsOf(s, start, end, rt.height);
  if (y1 <= y0) {
    *note += "destination rows outside the host image";
    return false;
  }
  end_rendering_();
  auto depth_format = DepthRenderTargetFormat(s.format);
  if (!rt.key.is_depth && !rt.raw) *exact = false;
  if (rt.key.is_depth && !rt.exact) *exact = false;
  const uint32_t tile_bytes = kTileBytes * s.scale_x * s.scale_y;
  const uint32_t band = RowsPerBand(rt);
  for (uint32_t b0 = y0; b0 < y1; b0 += band) {
    const uint32_t b1 = std::min(y1, b0 + band);
    HostBlock block = ReadRows(stream_, &Transport(), StorageAlignment(), rt, b0, b1);
    for (uint32_t y = b0; y < b1; ++y) {
      for (uint32_t x = 0; x < std::min(rt.width, s.pitch_pixels * s.scale_x); ++x) {
        uint32_t tile = s.SampleOffset(x, y, 0) / tile_bytes;
        if (tile < start || tile >= end) continue;
        for (uint32_t h = 0; h < block.samples; ++h) {
          uint64_t bits = edram_.Load(s, x, y, GuestSampleOfHost(s.sample_count(), block.samples, h));
          if (s.is_depth) {
            uint32_t dword = uint32_t(bits);
            block.stencil[block.Index(x, y, h)] = uint8_t(dword & 0xFF);
            uint32_t host;
            if (HostD24(rt) && depth_format == DepthRenderTargetFormat::kD24S8) {
              host = dword >> 8;
            } else {
              // The host depth stored beside the word (as Xenia's host-depth buffer), trusted while
              // it still converts to the stored bits.
              uint32_t g = GuestSampleOfHost(s.sample_count(), block.samples, h);
              float old_host = host_depth_[s.SampleOffset(x, y, g) / 4];
              float d = gpu::edram::HostDepthStillMatches(depth_format, old_host, dword)
                            ? old_host
                            : gpu::edram::UnpackDepth(depth_format, dword);
              host = HostDepthBits(rt, d);
            }
            StoreLE32(block.At(x, y, h), host);
          } else {
            GuestToHostTexel(s.format, rt.format, bits, block.At(x, y, h));
          }
        }
      }
    }
    WriteRows(stream_, &Transport(), StorageAlignment(), rt, block);
  }
  return true;
}

SampleTransport& EdramCache::Transport() {
  if (!transport_) {
    transport_ = std::make_unique<SampleTransport>(context_);
    transport_->set_scale(edram_.scale_x(), edram_.scale_y());
  }
  return *transport_;
}

uint64_t EdramCache::StorageAlignment() const {
  return std::max<uint64_t>(16, context_.capabilities().min_storage_buffer_offset_alignment);
}

bool EdramCache::MarkSnapshotTiles(const gpu::edram::Transfer& t, bool mark) {
  const uint32_t end = std::min(t.end_tile, xenos::kEdramTileCount);
  const auto first = snapshot_tiles_.begin() + std::min(t.start_tile, end);
  const auto last = snapshot_tiles_.begin() + end;
  if (mark) std::fill(first, last, true);
  return std::find(first, last, true) != last;
}

void EdramCache::MoveFromSnapshot(const gpu::edram::Transfer& t, gpu::EdramLogEntry& entry) {
  bool rewritten = false;
  snapshot_.Move(t, edram_, entry, &rewritten);
  entry.data_moved = false;
  MarkSnapshotTiles(t, true);
  if (t.dest.is_depth) {
    snapshot_depth_loaded_ = true;
    const auto format = DepthRenderTargetFormat(t.dest.format);
    const size_t tile_words = size_t(kTileBytes / 4) * edram_.scale_x() * edram_.scale_y();
    for (size_t w = t.start_tile * tile_words; w < t.end_tile * tile_words; ++w) {
      host_depth_[w] = gpu::edram::UnpackDepth(format, LoadLE32(edram_.bytes().data() + w * 4));
    }
  }
  CopySnapshotToGpuEdram(t);
  bool exact = true;
  entry.note += "; ";
  if (!LoadTiles(t.dest, t.start_tile, t.end_tile, &exact, &entry.note)) return;
  entry.data_moved = true;
  entry.note += "loaded through the CPU";
  if (!exact) entry.note += " (converted through an approximate host format)";
}

void EdramCache::CopySnapshotToGpuEdram(const gpu::edram::Transfer& t) {
  // A GPU transfer out of the loaded target stores only the samples its host image holds, and
  // the load into the next owner reads the others from the GPU EDRAM copy: a surface narrower
  // than its tiles' 80 columns (a 64-pixel pitch) keeps guest samples only there, in depth
  // tiles' swapped halves too. In a full replay the previous owner's store left them; after a
  // snapshot restore they are the snapshot's, so its words go into the copy as well.
  const uint64_t gpu_edram_bytes = 2ull * xenos::kEdramSizeBytes * edram_.scale_x() *
                                       edram_.scale_y() + 4096;
  if (!gpu_transfers_ || gpu_edram_bytes > context_.capabilities().max_storage_buffer_range) {
    return;
  }
  const uint32_t end = std::min(t.end_tile, xenos::kEdramTileCount);
  if (t.start_tile >= end) return;
  const uint64_t tile_bytes = uint64_t(kTileBytes) * edram_.scale_x() * edram_.scale_y();
  const uint64_t offset = t.start_tile * tile_bytes, bytes = (end - t.start_tile) * tile_bytes;
  end_rendering_();
  auto a = RingAllocate(stream_, bytes, 16);
  std::memcpy(a->data, edram_.bytes().data() + offset, bytes);
  VkCommandBuffer cmd = stream_.cmd();
  const VkBuffer copy = Transport().EdramBuffer(cmd);
  GlobalBarrier(cmd);
  const VkBufferCopy region{a->offset, offset, bytes};
  vkCmdCopyBuffer(cmd, a->buffer, copy, 1, &region);
  GlobalBarrier(cmd);
}

void EdramCache::Move(const gpu::edram::Transfer& t, gpu::EdramLogEntry& entry) {
  const DebugLabelRegion label(context_.labels(), stream_, [&] {
    return "EDRAM transfer " + t.source.Describe() + " -> " + t.dest.Describe() + " tiles " +
           std::to_string(t.start_tile) + "-" + std::to_string(t.end_tile) + " (" + t.reason + ")";
  });
  if (t.source.edram_snapshot) {
    MoveFromSnapshot(t, entry);
    return;
  }
  if (t.dest.is_depth && MarkSnapshotTiles(t, false)) snapshot_depth_loaded_ = true;
  if (HostKeyOf(t.source) == HostKeyOf(t.dest)) {
    entry.note += "same host image";
    return;
  }
  // The GPU EDRAM copy is one storage buffer of 2 x 10 MiB x S x T plus the sRGB tables; where
  // that exceeds the device's maxStorageBufferRange (3x3 on lavapipe: 180 MiB > 128 MiB) the
  // transfers go through the CPU model instead.
  const uint64_t gpu_edram_bytes = 2ull * xenos::kEdramSizeBytes * edram_.scale_x() *
                                       edram_.scale_y() + 4096;
  const bool gpu_edram_fits =
      gpu_edram_bytes <= context_.capabilities().max_storage_buffer_range;
  if (gpu_transfers_ && !gpu_edram_fits) entry.note += "GPU EDRAM copy too large at this scale; ";
  if (gpu_transfers_ && gpu_edram_fits) {
    const RenderTarget* src = targets_.Find(HostKeyOf(t.source));
    if (!src) {
      entry.note += "source host target missing";
      return;
    }
    RenderTargetKey dst_key = HostKeyOf(t.dest);
    if (!targets_.Find(dst_key)) end_rendering_();  // Get records the new target's clear
    const RenderTarget& dst = targets_.Get(dst_key, stream_.cmd());
    // A 24-bit unorm host image moves through its copy path only for kD24S8 at one sample (a
    // kD24FS8 stand-in in it, on a device without D32_SFLOAT_S8_UINT, takes the CPU path).
    auto d24_ok = [](const RenderTarget& rt) {
      return !HostD24(rt) ||
             (rt.key.guest_format == uint32_t(DepthRenderTargetFormat::kD24S8) &&
              rt.samples == VK_SAMPLE_COUNT_1_BIT);
    };
    if (SampleTransport::GpuTransferSupports(*src) && SampleTransport::GpuTransferSupports(dst) &&
        d24_ok(*src) && d24_ok(dst)) {
      gpu::edram::Surface ss = SurfaceOf(t.source), ds = SurfaceOf(t.dest);
      auto [sy0, sy1] = RowsOf(ss, t.start_tile, t.end_tile, src->height);
      auto [dy0, dy1] = RowsOf(ds, t.start_tile, t.end_tile, dst.height);
      end_rendering_();
      // One scratch buffer for both halves, sized before anything refers to it.
      uint64_t scratch_bytes = std::max(HostD24(*src) ? BlockBytes(*src, sy1 - sy0) : 0,
                                        HostD24(dst) ? BlockBytes(dst, dy1 - dy0) : 0);
      VkBuffer scratch = scratch_bytes ? Transport().ScratchBuffer(scratch_bytes) : VK_NULL_HANDLE;
      VkCommandBuffer cmd = stream_.cmd();
      GlobalBarrier(cmd);
      if (sy1 > sy0 && HostD24(*src)) {
        // Through copies of the rows (raw 24-bit values; see edram_transfer.h RecordD24Raw).
        RecordCopy(cmd, *src, sy0, sy1, scratch, 0, false);
        GlobalBarrier(cmd);
        Transport().RecordD24Raw(cmd, *src, ss, t.start_tile, t.end_tile, sy0, sy1, scratch, false);
      } else if (sy1 > sy0) {
        Transport().RecordStoreToEdram(cmd, *src, ss, t.start_tile, t.end_tile, sy0, sy1);
      }
      GlobalBarrier(cmd);
      if (dy1 > dy0 && HostD24(dst)) {
        RecordCopy(cmd, dst, dy0, dy1, scratch, 0, false);
        GlobalBarrier(cmd);
        Transport().RecordD24Raw(cmd, dst, ds, t.start_tile, t.end_tile, dy0, dy1, scratch, true);
        GlobalBarrier(cmd);
        RecordCopy(cmd, dst, dy0, dy1, scratch, 0, true);
      } else if (dy1 > dy0) {
        Transport().RecordLoadFromEdram(cmd, dst, ds, t.start_tile, t.end_tile, dy0, dy1);
      }
      GlobalBarrier(cmd);
      stream_.Flush();  // the transfer descriptor sets are reused by the next transfer
      entry.data_moved = true;
      entry.on_gpu = true;
      ++gpu_transfers_done_;
      entry.note += "moved on the GPU";
      auto srgb = [](const RenderTarget& rt) { return rt.format == VK_FORMAT_R8G8B8A8_SRGB; };
      auto codes = [](const RenderTarget& rt) {
        return !rt.key.is_depth && rt.format == VK_FORMAT_R32G32B32A32_SFLOAT;
      };
      if (srgb(*src) || srgb(dst)) {
        entry.note += " (sRGB gamma mode: through the sRGB <-> PWL conversion tables)";
      } else if (codes(*src) || codes(dst)) {
        entry.note += " (gamma codes / 255 in a float target: rounded to the nearest code)";
      } else if ((!src->key.is_depth && !src->raw) || (!dst.key.is_depth && !dst.raw)) {
        entry.note += " (through the 7e3 half-float stand-in)";
      }
      return;
    }
  }
  bool exact = true;
  if (!StoreTiles(t.source, t.start_tile, t.end_tile, &exact)) {
    entry.note += "source host target missing";
    return;
  }
  if (!LoadTiles(t.dest, t.start_tile, t.end_tile, &exact, &entry.note)) return;
  entry.data_moved = true;
  entry.note += "moved through the CPU";
  if (!exact) entry.note += " (converted through an approximate host format)";
}

const gpu::edram::Edram& EdramCache::Snapshot(const gpu::edram::Surface& surface, uint32_t rows) {
  snapshot_exact_ = true;
  uint32_t tiles = surface.TilesForRows(rows);
  uint32_t start = surface.base_tiles % kTiles;
  std::pair<uint32_t, uint32_t> segments[2] = {{start, std::min(start + tiles, kTiles)},
                                               {0, start + tiles > kTiles ? start + tiles - kTiles : 0}};
  for (const auto& range : tracker_.ownership().Ranges()) {
    // Snapshot-owned tiles are in the model already.
    if (!range.owner || range.owner->edram_snapshot) continue;
    for (auto [lo, hi] : segments) {
      uint32_t a = std::max(lo, range.start), b = std::min(hi, range.end);
      if (a < b) StoreTiles(*range.owner, a, b, &snapshot_exact_);
    }
  }
  return edram_;
}

}  // namespace xnt::vk
