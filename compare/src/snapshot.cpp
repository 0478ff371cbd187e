// Per-draw target snapshots in guest bits (snapshot.h).
#include "xnt/compare/snapshot.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

#include "xnt/base/error.h"
#include "xnt/gpu/edram_tracker.h"
#include "xnt/gpu/guest_access.h"
#include "xnt/gpu/resolve.h"
#include "xnt/gpu/texture_address.h"
#include "xnt/replay/backend.h"
#include "xnt/replay/register_file.h"
#include "xnt/ucode/shader_cache.h"
#include "xnt/xenos/enums.h"
#include "xnt/xenos/registers.h"

namespace xnt::compare {
namespace {

using xenos::Reg;

// Larger extents are guesses (no scissor, no estimate): the hash still covers them, an image
// this tall would only show stale EDRAM.
constexpr uint32_t kMaxImageRows = 2048;

std::vector<TargetRegion> FromUses(const std::vector<gpu::EdramUse>& uses) {
  std::vector<TargetRegion> out;
  uint32_t colour = 0;
  for (const gpu::EdramUse& u : uses) {
    TargetRegion t;
    t.surface = u.surface;
    t.rows = u.rows;
    t.name = u.surface.is_depth ? "depth" : "colour" + std::to_string(colour++);
    out.push_back(t);
  }
  return out;
}

// A resolve's 128-bit endian swap (gpu::Endian128XorMask); single-byte destinations are never
// swapped, and an undefined encoding swaps nothing here.
uint32_t EndianXorOf(xenos::Endian128 e) { return gpu::Endian128XorMask(e).value_or(0); }

// Resolve rectangles larger than this many pixels are not tracked element by element (they
// only come from corrupt registers: gpu::ResolveCopy refuses more pixels than the EDRAM holds).
constexpr uint64_t kMaxDestinationPixels = uint64_t(16) << 20;
// Memexport streams are hashed over at most this many bytes (a stream constant's size field
// reaches 32 MiB elements).
constexpr uint64_t kMaxExportBytes = uint64_t(64) << 20;
constexpr uint32_t kExportRowElements = 64;

std::string Hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08X", v);
  return buf;
}

std::optional<MemoryTarget> ResolveDestination(const gpu::ResolveInfo& info) {
  if (!info.copy || !info.unsupported.empty() || info.empty()) return std::nullopt;
  const xenos::TextureFormat format = info.dest_format_effective();
  const uint32_t bpp = gpu::ResolveDestBytesPerPixel(format);
  if (bpp == 0) return std::nullopt;
  const uint32_t width = uint32_t(info.x1 - info.x0), height = uint32_t(info.y1 - info.y0);
  if (uint64_t(width) * height > kMaxDestinationPixels) return std::nullopt;
  MemoryTarget t;
  t.name = "dest";
  t.width = width;
  t.height = height;
  t.bytes_per_element = bpp;
  t.endian_xor = bpp == 1 ? 0u : EndianXorOf(info.dest_endian);
  const uint32_t bpp_log2 = uint32_t(std::countr_zero(bpp));
  t.addresses.reserve(size_t(width) * height);
  // The same placement as gpu::ResolveCopy: the rectangle's pixel (x, y) at its own (x, y) of
  // the destination surface, offset from RB_COPY_DEST_BASE.
  for (int32_t y = info.y0; y < info.y1; ++y) {
    for (int32_t x = info.x0; x < info.x1; ++x) {
      int64_t offset;
      if (info.dest_linear) {
        offset = x < 0 || y < 0 ? -1 : int64_t(gpu::LinearOffset2D(uint32_t(x), uint32_t(y), info.dest_pitch, bpp_log2));
      } else if (info.dest_array) {
        offset = gpu::TiledOffset3D(x, y, int32_t(info.dest_slice), info.dest_pitch,
                                    info.dest_height, bpp_log2);
      } else {
        offset = gpu::TiledOffset2D(x, y, info.dest_pitch, bpp_log2);
      }
      const int64_t a = offset < 0 && info.dest_linear ? -1 : int64_t(info.dest_base) + offset;
      // Out of guest memory: an address that ReadElement refuses.
      t.addresses.push_back(a < 0 || a >= int64_t(replay::GuestMemory::kSize) ? UINT32_MAX : uint32_t(a));
    }
  }
  t.describe = "resolve destination " + Hex32(info.dest_base) + " " +
               std::string(xenos::TextureFormatName(uint32_t(format))) + " pitch " +
               std::to_string(info.dest_pitch) + (info.dest_array ? " slice " + std::to_string(info.dest_slice) : "") +
               " endian " + std::to_string(uint32_t(info.dest_endian)) + ", " +
               std::to_string(width) + "x" + std::to_string(height) + " px";
  return t;
}

// One element's guest bytes in element order (the endian swap undone), or false when any byte
// lies outside guest memory.
bool ReadElement(const replay::GuestMemory& memory, const MemoryTarget& t, size_t i, uint8_t* out) {
  const uint64_t a = t.ElementAddress(i);
  if (a == UINT32_MAX || !replay::GuestMemory::InRange(a & ~uint64_t(15), 16 + t.bytes_per_element)) {
    return false;
  }
  if (t.endian_xor == 0) {
    memory.Read(uint32_t(a), std::span<uint8_t>(out, t.bytes_per_element));
    return true;
  }
  uint8_t block[32];
  const uint64_t block_base = a & ~uint64_t(15);
  const size_t span = a + t.bytes_per_element > block_base + 16 ? 32 : 16;
  if (!replay::GuestMemory::InRange(block_base, span)) return false;
  memory.Read(uint32_t(block_base), std::span<uint8_t>(block, span));
  for (uint32_t k = 0; k < t.bytes_per_element; ++k) {
    const uint64_t o = a + k;
    const uint64_t swapped = (o & ~uint64_t(15)) | ((o & 15) ^ t.endian_xor);
    out[k] = block[swapped - block_base];
  }
  return true;
}

}  // namespace

std::vector<MemoryTarget> EventMemoryTargets(const renderer::DrawEvent& event) {
  std::vector<MemoryTarget> out;
  const replay::DrawCall& call = *event.draw;
  if (!call.registers || !call.memory) return out;
  if (event.resolve) {
    auto& memory = const_cast<replay::GuestMemory&>(*call.memory);
    const gpu::ResolveInfo info =
        gpu::ComputeResolveInfo(call.registers->values(), gpu::GuestAccessOf(memory));
    if (auto t = ResolveDestination(info)) out.push_back(std::move(*t));
    return out;
  }
  for (const replay::Shader* shader : {call.vertex_shader, call.pixel_shader}) {
    if (!shader) continue;
    for (const replay::MemExportCall& m : replay::FindMemExportStreams(call, *shader)) {
      const uint64_t bytes = std::min(m.ByteSize(), kMaxExportBytes);
      const uint32_t base = m.stream.base_address_bytes();
      if (bytes < 4 || !replay::GuestMemory::InRange(base, bytes)) continue;
      MemoryTarget t;
      t.name = std::string(shader == call.pixel_shader ? "ps" : "vs") + "_export_c" +
               std::to_string(m.stream_constant);
      t.linear_base = base;
      t.bytes_per_element = 4;
      const uint32_t dwords = uint32_t(bytes / 4);
      t.width = std::min(dwords, kExportRowElements);
      t.height = (dwords + t.width - 1) / t.width;
      t.describe = "memexport stream c" + std::to_string(m.stream_constant) + " " +
                   Hex32(base) + " +" + std::to_string(bytes) + " bytes (" +
                   std::string(xenos::TextureFormatName(uint32_t(m.stream.format))) + ")";
      // Elements past the range's last whole dword are not part of it.
      t.addresses.clear();
      if (uint64_t(t.width) * t.height != dwords) {
        t.addresses.reserve(size_t(t.width) * t.height);
        for (uint32_t i = 0; i < t.width * t.height; ++i) {
          t.addresses.push_back(i < dwords ? base + i * 4 : UINT32_MAX);
        }
      }
      out.push_back(std::move(t));
    }
  }
  return out;
}

uint64_t HashMemoryTargets(const replay::GuestMemory& memory,
                           const std::vector<MemoryTarget>& targets) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  std::vector<uint8_t> bytes;
  for (const MemoryTarget& t : targets) {
    const size_t n = size_t(t.width) * t.height;
    if (t.addresses.empty() && t.endian_xor == 0) {
      // A contiguous range: one read.
      bytes.resize(n * t.bytes_per_element);
      memory.Read(t.linear_base, bytes);
      XXH3_64bits_update(state, bytes.data(), bytes.size());
      continue;
    }
    uint8_t element[16];
    static constexpr uint8_t kOutside[4] = {0xDE, 0xAD, 0x0F, 0xF0};
    for (size_t i = 0; i < n; ++i) {
      if (ReadElement(memory, t, i, element)) {
        XXH3_64bits_update(state, element, t.bytes_per_element);
      } else {
        XXH3_64bits_update(state, kOutside, sizeof(kOutside));
      }
    }
  }
  const uint64_t h = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return h;
}

diff::OwnedImage MemoryTargetImage(const replay::GuestMemory& memory, const MemoryTarget& t,
                                   std::vector<uint64_t>* raw) {
  const uint32_t width = std::max<uint32_t>(1, t.width);
  const uint32_t height = std::max<uint32_t>(1, std::min(t.height, kMaxImageRows));
  diff::OwnedImage image(int(width), int(height), 4, diff::PixelType::kU8);
  if (raw) raw->assign(size_t(width) * height, 0);
  for (uint32_t y = 0; y < height; ++y) {
    uint8_t* row = image.MutableRow(int(y));
    for (uint32_t x = 0; x < width; ++x) {
      const size_t i = size_t(y) * t.width + x;
      uint8_t element[16] = {};
      uint8_t* p = row + size_t(x) * 4;
      if (i >= size_t(t.width) * t.height || !ReadElement(memory, t, i, element)) {
        p[0] = p[1] = p[2] = 0;
        p[3] = 255;
        if (raw) (*raw)[size_t(y) * width + x] = UINT64_MAX;
        continue;
      }
      for (uint32_t k = 0; k < 4; ++k) p[k] = k < t.bytes_per_element ? element[k] : 0;
      if (t.bytes_per_element < 4) p[3] = 255;
      if (raw) {
        uint64_t v = 0;
        if (t.bytes_per_element <= 8) {
          std::memcpy(&v, element, t.bytes_per_element);
        } else {
          v = XXH3_64bits(element, t.bytes_per_element);
        }
        (*raw)[size_t(y) * width + x] = v;
      }
    }
  }
  return image;
}

std::string TargetRegion::Describe() const {
  return name + " " + surface.Describe() + ", " + std::to_string(rows) + " rows";
}

std::vector<TargetRegion> EventTargets(const renderer::DrawEvent& event) {
  const replay::DrawCall& call = *event.draw;
  const gpu::RegisterValues regs = call.registers->values();
  if (event.resolve) {
    // ComputeResolveInfo reads guest memory only to describe the destination; the session's
    // memory is the player's, so the const view is enough for that read.
    auto& memory = const_cast<replay::GuestMemory&>(*call.memory);
    const gpu::ResolveInfo info = gpu::ComputeResolveInfo(regs, gpu::GuestAccessOf(memory));
    if (info.empty() || info.surface_pitch == 0) return {};
    return FromUses(gpu::EdramTargetsForResolve(info).used);
  }
  const auto mode = xenos::ModeControl(gpu::RegisterValue(regs, Reg::RB_MODECONTROL) & 7);
  if (mode != xenos::ModeControl::kColorDepth && mode != xenos::ModeControl::kDepth) return {};
  const auto surface = xenos::reg::RB_SURFACE_INFO::Decode(gpu::RegisterValue(regs, Reg::RB_SURFACE_INFO));
  if (surface.surface_pitch == 0) return {};
  bool color_used[4] = {};
  const ucode::DecodedShader* ps =
      call.pixel_shader && call.pixel_shader->decoded && call.pixel_shader->decoded->ok()
          ? call.pixel_shader->decoded.get()
          : nullptr;
  const auto color_mask = xenos::reg::RB_COLOR_MASK::Decode(gpu::RegisterValue(regs, Reg::RB_COLOR_MASK));
  if (mode == xenos::ModeControl::kColorDepth && ps) {
    for (uint32_t i = 0; i < 4; ++i) {
      color_used[i] = (ps->analysis.color_mask & (1u << i)) && color_mask.rt_mask(i);
    }
  }
  const auto depth_control = xenos::reg::RB_DEPTHCONTROL::Decode(gpu::RegisterValue(regs, Reg::RB_DEPTHCONTROL));
  const bool depth_used = depth_control.z_enable || depth_control.stencil_enable;
  // No geometry estimate: the scissor bounds the rows, else the rest of the EDRAM (both paths
  // see the same registers, so they hash the same tiles).
  return FromUses(gpu::EdramTargetsForDraw(regs, color_used, depth_used).used);
}

uint64_t HashTargets(renderer::Session& session, const std::vector<TargetRegion>& regions) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  for (const TargetRegion& t : regions) {
    const gpu::edram::Edram& edram = session.SnapshotEdram(t.surface, t.rows);
    const uint32_t tiles = std::min<uint32_t>(t.surface.TilesForRows(t.rows), xenos::kEdramTileCount);
    const std::span<const uint8_t> bytes = edram.bytes();
    // At a resolution scale a guest tile holds S x T times the samples (edram.h Surface).
    const size_t tile_bytes = size_t(gpu::edram::kTileBytes) * edram.scale_x() * edram.scale_y();
    for (uint32_t i = 0; i < tiles; ++i) {
      const uint32_t tile = (t.surface.base_tiles + i) % xenos::kEdramTileCount;
      if ((size_t(tile) + 1) * tile_bytes > bytes.size()) break;
      XXH3_64bits_update(state, bytes.data() + size_t(tile) * tile_bytes, tile_bytes);
    }
  }
  const uint64_t h = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return h;
}

diff::OwnedImage TargetImage(renderer::Session& session, const TargetRegion& t,
                             std::vector<uint64_t>* raw) {
  const gpu::edram::Edram& edram = session.SnapshotEdram(t.surface, t.rows);
  // Host pixels: at a resolution scale S x T per guest pixel (the scaled EDRAM's layout).
  gpu::edram::Surface surface = t.surface;
  surface.scale_x = edram.scale_x();
  surface.scale_y = edram.scale_y();
  const uint32_t width = std::max<uint32_t>(1, surface.pitch_pixels * surface.scale_x);
  const uint32_t height = std::max<uint32_t>(
      1, std::min(surface.RowsInEdram(t.rows) * surface.scale_y, kMaxImageRows));
  diff::OwnedImage image(int(width), int(height), 4, diff::PixelType::kU8);
  if (raw) raw->assign(size_t(width) * height, 0);
  auto to8 = [](float v) {
    if (!(v > 0)) return uint8_t(0);
    if (v >= 1) return uint8_t(255);
    return uint8_t(std::lround(v * 255.0f));
  };
  for (uint32_t y = 0; y < height; ++y) {
    uint8_t* row = image.MutableRow(int(y));
    for (uint32_t x = 0; x < width; ++x) {
      const uint64_t bits = edram.Load(surface, x, y, 0);
      if (raw) (*raw)[size_t(y) * width + x] = bits;
      uint8_t* p = row + size_t(x) * 4;
      if (t.surface.is_depth) {
        const float d = gpu::edram::UnpackDepth(xenos::DepthRenderTargetFormat(t.surface.format),
                                                uint32_t(bits));
        p[0] = p[1] = p[2] = to8(d);
        p[3] = 255;
      } else {
        const auto c = gpu::edram::UnpackColor(xenos::ColorRenderTargetFormat(t.surface.format), bits);
        for (int k = 0; k < 4; ++k) p[k] = to8(c[size_t(k)]);
      }
    }
  }
  return image;
}

std::vector<TargetSnapshot> SnapshotEventTargets(renderer::Session& session,
                                                 const renderer::DrawEvent& event) {
  std::vector<TargetSnapshot> out;
  for (const TargetRegion& t : EventTargets(event)) {
    TargetSnapshot s;
    s.name = t.name;
    s.describe = t.Describe();
    s.image = TargetImage(session, t, &s.bits);
    out.push_back(std::move(s));
  }
  for (const MemoryTarget& t : EventMemoryTargets(event)) {
    TargetSnapshot s;
    s.name = t.name;
    s.describe = t.describe;
    s.image = MemoryTargetImage(*event.draw->memory, t, &s.bits);
    out.push_back(std::move(s));
  }
  return out;
}

uint64_t HashEvent(renderer::Session& session, const renderer::DrawEvent& event) {
  const uint64_t edram = HashTargets(session, EventTargets(event));
  const std::vector<MemoryTarget> memory = EventMemoryTargets(event);
  if (memory.empty()) return edram;
  const uint64_t both[2] = {edram, HashMemoryTargets(*event.draw->memory, memory)};
  return XXH3_64bits(both, sizeof(both));
}

diff::OwnedImage AnyDifferenceMask(const diff::Image& shape, const std::vector<uint64_t>& a,
                                   const std::vector<uint64_t>& b, uint64_t* count) {
  diff::OwnedImage mask(shape.width, shape.height, 4, diff::PixelType::kU8);
  *count = 0;
  for (int y = 0; y < shape.height; ++y) {
    uint8_t* row = mask.MutableRow(y);
    for (int x = 0; x < shape.width; ++x) {
      const size_t i = size_t(y) * size_t(shape.width) + size_t(x);
      const bool differs = i >= a.size() || i >= b.size() || a[i] != b[i];
      *count += differs;
      const uint8_t g = differs ? 255 : 40;
      row[x * 4 + 0] = g;
      row[x * 4 + 1] = differs ? 0 : g;
      row[x * 4 + 2] = differs ? 255 : g;
      row[x * 4 + 3] = 255;
    }
  }
  return mask;
}

bool SnapshotSelection::Contains(uint64_t frame, uint32_t draw) const {
  if (all) return true;
  return std::find(draws.begin(), draws.end(), renderer::DrawId{frame, draw}) != draws.end();
}

SnapshotSelection ParseSnapshotSelection(const std::string& text) {
  SnapshotSelection s;
  if (text == "all") {
    s.all = true;
    return s;
  }
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t dot = item.find('.');
    auto digits = [](const std::string& d) {
      return !d.empty() && d.size() <= 9 && d.find_first_not_of("0123456789") == std::string::npos;
    };
    if (dot == std::string::npos || !digits(item.substr(0, dot)) || !digits(item.substr(dot + 1))) {
      throw Error("--snapshots: '" + item + "' is not F.K (frame.draw, as `xenotrace dump` numbers them) or all");
    }
    s.draws.push_back({std::stoull(item.substr(0, dot)), uint32_t(std::stoul(item.substr(dot + 1)))});
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return s;
}

}  // namespace xnt::compare
