// Scaled resolve memory (resolution scaling, as in Xenia's article "Leaving No Pixel Behind"): a resolve from a scaled render target
// writes the guest memory it always writes (1x, downsampled, so CPU-side readers and
// --dump-memory stay meaningful) and, beside it, a copy at the scale: the same destination as a
// texture S times wider and T times taller, in the same format, tiling and endianness. Only ranges
// actually resolved to are kept (nothing mirrors all of guest memory). A texture (or the front
// buffer) whose fetch constant names the same base, layout and format is read from the scaled
// copy at the scaled size; a CPU write or memexport over a copy's guest range drops it, after
// which readers see the 1x bytes again. Backend-free: every path that scales can keep one.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "xnt/gpu/front_buffer.h"
#include "xnt/gpu/guest_access.h"
#include "xnt/gpu/register_values.h"
#include "xnt/gpu/resolve.h"

namespace xnt::gpu {

struct ScaledCopy {
  uint32_t guest_start = 0, guest_end = 0;  // the 1x bytes the resolve wrote, [start, end)
  uint32_t dest_base = 0;                   // the resolve's destination (= a texture's base)
  uint32_t dest_pitch = 0, dest_height = 0; // guest texels
  xenos::TextureFormat format = xenos::TextureFormat::k_8_8_8_8;
  bool tiled = true;
  uint32_t scale_x = 1, scale_y = 1;
  std::vector<uint8_t> bytes;  // the scaled destination, its base at offset 0
};

class ScaledResolveMemory {
 public:
  // Copies `info` (guest units, as ComputeResolveInfo gives it) from `edram` at the scale twice:
  // to `memory` at 1x (point-downsampled: each guest pixel's top-left host pixel) and to a new
  // scaled copy, which replaces every copy whose range it overlaps. Returns the 1x result.
  ResolveCopyResult Resolve(const ResolveInfo& info, const edram::Edram& edram,
                            const GuestMemoryAccess& memory, uint32_t scale_x, uint32_t scale_y);
  // The same with the two copies made by `copy` (ResolveCopy's contract): first the 1x guest
  // copy into `memory`, then the scaled copy into the copy's bytes (a path that resolves on the
  // GPU, e.g. fsi's compute resolve).
  using Copier = std::function<ResolveCopyResult(const ResolveInfo&, const GuestMemoryAccess&)>;
  ResolveCopyResult Resolve(const ResolveInfo& info, const Copier& copy,
                            const GuestMemoryAccess& memory, uint32_t scale_x, uint32_t scale_y);
  // Drops the copies overlapping guest bytes [address, address + size).
  void Invalidate(uint32_t address, uint64_t size);
  // The copy a texture fetch constant (6 dwords) reads, if its base, tiling, pitch and bytes per
  // texel match a copy and it has no mips; null otherwise.
  const ScaledCopy* Find(const uint32_t fetch[6]) const;
  // The fetch constant rewritten to address `copy.bytes` (base 0) at the scaled size.
  static std::array<uint32_t, 6> ScaledFetch(const uint32_t fetch[6], const ScaledCopy& copy);
  // Reads of a copy's bytes as guest memory at address 0 (out-of-range bytes read as zeros).
  static GuestMemoryAccess AccessOf(const ScaledCopy& copy);
  static void Read(const ScaledCopy& copy, uint32_t address, std::span<uint8_t> out);

  // The copy the last Resolve wrote (null when it wrote none or it was dropped since).
  const ScaledCopy* last() const;
  size_t size() const { return copies_.size(); }
  // Every copy, by the guest start of its range (a path that uploads copies reads them in place).
  const std::map<uint32_t, ScaledCopy>& copies() const { return copies_; }
  uint64_t bytes() const;  // held by all copies

 private:
  std::map<uint32_t, ScaledCopy> copies_;  // by guest_start
  std::optional<uint32_t> last_;           // guest_start of the last Resolve's copy
};

// The swapped front buffer at a resolution scale: read from the scaled copy fetch constant 0
// names (as VdSwap writes it), S x T times `width` x `height`, when a resolve left one; else
// gpu::ReadFrontBuffer at 1x from guest memory (`storage` as there).
SwapImage ReadFrontBufferAtScale(RegisterValues regs, uint32_t frontbuffer_address, uint32_t width,
                                 uint32_t height, const GuestMemoryAccess& memory,
                                 const ScaledResolveMemory& scaled, uint32_t threads = 1,
                                 std::vector<uint8_t> storage = {});

}  // namespace xnt::gpu
