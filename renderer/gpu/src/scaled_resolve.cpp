// Scaled resolve memory (scaled_resolve.h).
#include "xnt/gpu/scaled_resolve.h"

#include <algorithm>
#include <cstring>

#include "xnt/base/error.h"
#include "xnt/gpu/texture_formats.h"
#include "xnt/xenos/enums.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {

namespace {

// A copy's bytes as guest memory at address 0, growing on write.
GuestMemoryAccess Growing(ScaledCopy& copy) {
  GuestMemoryAccess a;
  a.read = [&copy](uint32_t address, std::span<uint8_t> out) { ScaledResolveMemory::Read(copy, address, out); };
  a.write = [&copy](uint32_t address, std::span<const uint8_t> bytes) {
    const uint64_t end = uint64_t(address) + bytes.size();
    if (end > (512ull << 20)) throw Error("scaled resolve copy larger than 512 MiB");
    if (end > copy.bytes.size()) copy.bytes.resize(size_t(end), 0);
    std::memcpy(copy.bytes.data() + address, bytes.data(), bytes.size());
  };
  return a;
}

bool Overlaps(const ScaledCopy& c, uint32_t start, uint64_t end) {
  return start < c.guest_end && c.guest_start < end;
}

}  // namespace

ResolveCopyResult ScaledResolveMemory::Resolve(const ResolveInfo& info, const edram::Edram& edram,
                                               const GuestMemoryAccess& memory, uint32_t scale_x,
                                               uint32_t scale_y) {
  return Resolve(
      info,
      [&edram](const ResolveInfo& i, const GuestMemoryAccess& m) { return ResolveCopy(i, edram, m); },
      memory, scale_x, scale_y);
}

ResolveCopyResult ScaledResolveMemory::Resolve(const ResolveInfo& info, const Copier& copy,
                                               const GuestMemoryAccess& memory, uint32_t scale_x,
                                               uint32_t scale_y) {
  // The guest copy: guest rectangle and destination, every guest pixel read at its top-left
  // host pixel.
  ResolveInfo guest = info;
  guest.scale_x = guest.step_x = scale_x;
  guest.scale_y = guest.step_y = scale_y;
  // last() names this call's copy only: a resolve that writes nothing must not leave the
  // previous one there (callers store last() after each resolve).
  last_.reset();
  const ResolveCopyResult result = copy(guest, memory);
  if (result.pixels == 0) return result;

  // The scaled copy: the same copy in host pixels into a destination S x T times larger. Later
  // resolves into the same destination (a sub-rectangle each, as bloom chains do) write into
  // the same copy; any other copy over these guest bytes is stale.
  ScaledCopy fresh;
  fresh.dest_base = info.dest_base;
  fresh.dest_pitch = info.dest_pitch;
  fresh.dest_height = info.dest_height;
  fresh.format = info.dest_format_effective();
  fresh.tiled = !info.dest_linear && !info.dest_array;
  fresh.scale_x = scale_x;
  fresh.scale_y = scale_y;
  fresh.guest_start = result.dest_start;
  fresh.guest_end = result.dest_end;
  for (auto it = copies_.begin(); it != copies_.end();) {
    const ScaledCopy& c = it->second;
    const bool same = c.dest_base == fresh.dest_base && c.dest_pitch == fresh.dest_pitch &&
                      c.format == fresh.format && c.tiled == fresh.tiled &&
                      c.scale_x == scale_x && c.scale_y == scale_y;
    if (same) {
      fresh.bytes = std::move(it->second.bytes);
      fresh.guest_start = std::min(fresh.guest_start, c.guest_start);
      fresh.guest_end = std::max(fresh.guest_end, c.guest_end);
      fresh.dest_height = std::max(fresh.dest_height, c.dest_height);
      it = copies_.erase(it);
    } else if (Overlaps(c, result.dest_start, result.dest_end)) {
      it = copies_.erase(it);
    } else {
      ++it;
    }
  }
  ResolveInfo host = info;
  host.scale_x = scale_x;
  host.scale_y = scale_y;
  host.step_x = host.step_y = 1;
  host.x0 *= int32_t(scale_x), host.x1 *= int32_t(scale_x);
  host.y0 *= int32_t(scale_y), host.y1 *= int32_t(scale_y);
  host.dest_pitch *= scale_x;
  host.dest_height *= scale_y;
  host.dest_base = 0;
  last_ = fresh.guest_start;
  ScaledCopy& slot = copies_[fresh.guest_start];
  slot = std::move(fresh);
  copy(host, Growing(slot));
  return result;
}

const ScaledCopy* ScaledResolveMemory::last() const {
  if (!last_) return nullptr;
  auto it = copies_.find(*last_);
  return it == copies_.end() ? nullptr : &it->second;
}

SwapImage ReadFrontBufferAtScale(RegisterValues regs, uint32_t frontbuffer_address, uint32_t width,
                                 uint32_t height, const GuestMemoryAccess& memory,
                                 const ScaledResolveMemory& scaled, uint32_t threads,
                                 std::vector<uint8_t> storage) {
  uint32_t fetch[6];
  for (uint32_t i = 0; i < 6; ++i) fetch[i] = RegisterValue(regs, xenos::kFetchConstantBase + i);
  const ScaledCopy* copy = scaled.Find(fetch);
  if (!copy) {
    return ReadFrontBuffer(regs, frontbuffer_address, width, height, memory, threads,
                           std::move(storage));
  }
  std::vector<uint32_t> patched(regs.begin(), regs.end());
  const std::array<uint32_t, 6> d = ScaledResolveMemory::ScaledFetch(fetch, *copy);
  for (uint32_t i = 0; i < 6; ++i) patched[xenos::kFetchConstantBase + i] = d[i];
  return ReadFrontBuffer(patched, 0, width * copy->scale_x, height * copy->scale_y,
                         ScaledResolveMemory::AccessOf(*copy), threads, std::move(storage));
}

void ScaledResolveMemory::Invalidate(uint32_t address, uint64_t size) {
  const uint64_t end = uint64_t(address) + size;
  for (auto it = copies_.begin(); it != copies_.end();) {
    it = Overlaps(it->second, address, end) ? copies_.erase(it) : std::next(it);
  }
}

const ScaledCopy* ScaledResolveMemory::Find(const uint32_t fetch[6]) const {
  if (copies_.empty()) return nullptr;
  const xenos::TextureFetchConstant f = xenos::TextureFetchConstant::Decode(fetch);
  const uint32_t base = f.base_address_bytes();
  // Only a plain 2D texture without mips reads a copy (a resolve writes one level).
  if (f.mip_address != 0 && f.mip_filter != xenos::TextureFilter::kBaseMap) return nullptr;
  if (f.stacked) return nullptr;
  for (const auto& [start, c] : copies_) {
    if (c.dest_base != base || c.tiled != f.tiled || c.dest_pitch != f.pitch * 32u) continue;
    if (GetTextureFormatInfo(uint32_t(f.format)).bpb_log2 !=
            GetTextureFormatInfo(uint32_t(c.format)).bpb_log2 ||
        GetTextureFormatInfo(uint32_t(f.format)).block_width != 1) {
      continue;
    }
    return &c;
  }
  return nullptr;
}

std::array<uint32_t, 6> ScaledResolveMemory::ScaledFetch(const uint32_t fetch[6],
                                                         const ScaledCopy& copy) {
  std::array<uint32_t, 6> d;
  std::copy(fetch, fetch + 6, d.begin());
  // dword 0 bits 22-30: pitch / 32; dword 1 bits 12-31: base >> 12; dword 2 (2D): width - 1 in
  // bits 0-12, height - 1 in bits 13-25.
  const uint32_t pitch = ((d[0] >> 22) & 0x1FFu) * copy.scale_x;
  d[0] = (d[0] & ~(0x1FFu << 22)) | ((pitch & 0x1FFu) << 22);
  d[1] &= 0xFFFu;
  const uint32_t width = ((d[2] & 0x1FFFu) + 1) * copy.scale_x;
  const uint32_t height = (((d[2] >> 13) & 0x1FFFu) + 1) * copy.scale_y;
  d[2] = (d[2] & ~0x3FFFFFFu) | ((width - 1) & 0x1FFFu) | (((height - 1) & 0x1FFFu) << 13);
  return d;
}

GuestMemoryAccess ScaledResolveMemory::AccessOf(const ScaledCopy& copy) {
  GuestMemoryAccess a;
  a.read = [&copy](uint32_t address, std::span<uint8_t> out) { ScaledResolveMemory::Read(copy, address, out); };
  a.write = [](uint32_t, std::span<const uint8_t>) {
    throw Error("scaled resolve copies are written by resolves only");
  };
  return a;
}

void ScaledResolveMemory::Read(const ScaledCopy& copy, uint32_t address, std::span<uint8_t> out) {
  // Beyond what was written reads as zeros.
  std::fill(out.begin(), out.end(), uint8_t(0));
  if (address >= copy.bytes.size()) return;
  const size_t n = std::min(out.size(), copy.bytes.size() - address);
  std::memcpy(out.data(), copy.bytes.data() + address, n);
}

uint64_t ScaledResolveMemory::bytes() const {
  uint64_t total = 0;
  for (const auto& [start, c] : copies_) total += c.bytes.size();
  return total;
}

}  // namespace xnt::gpu
