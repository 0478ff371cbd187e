// Per-draw snapshots of the targets a draw or resolve writes, read through a session's EDRAM in
// guest bits (renderer::Session::SnapshotEdram), so two paths compare bit for bit whatever host
// formats they use; and of the guest memory it writes outside the EDRAM (a resolve's
// destination, an exporting draw's memexport streams), in guest bytes. compare's bisection
// hashes them; `replay --snapshots` writes them as PNGs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "xnt/diff/image.h"
#include "xnt/gpu/edram.h"
#include "xnt/renderer/session.h"
#include "xnt/replay/guest_memory.h"

namespace xnt::compare {

struct TargetRegion {
  gpu::edram::Surface surface;
  uint32_t rows = 0;        // pixel rows [0, rows) the event may touch (scissor / estimate)
  std::string Describe() const;  // "colour 0 k_8_8_8_8 base 0 pitch 64 (1 tiles) 1x, 32 rows"
  std::string name;              // "colour0", "depth"
};

// What an event writes, from its registers: a draw's colour targets whose pixel shader writes
// them and RB_COLOR_MASK lets bits through (edram_mode colour+depth), its depth target when the
// depth or stencil test is on; a resolve's source and cleared targets. Empty for an event that
// writes no EDRAM.
std::vector<TargetRegion> EventTargets(const renderer::DrawEvent& event);

// XXH3-64 of the EDRAM bytes of every region's tiles as the session holds them now.
uint64_t HashTargets(renderer::Session& session, const std::vector<TargetRegion>& regions);

// The region as an image: colour through its format's decoding (gpu::edram::UnpackColor, clamped
// to 0..1, 8-bit), depth as grey, sample 0 of MSAA; at most 2048 rows.
// `raw`, when given, receives each pixel's guest bits (sample 0), row-major.
diff::OwnedImage TargetImage(renderer::Session& session, const TargetRegion& region,
                             std::vector<uint64_t>* raw = nullptr);

// Guest memory an event writes outside the EDRAM, as a grid of elements:
// - a resolve's destination (when it copies): one element per pixel of the rectangle, at the
//   address, bytes per pixel and 16-byte endian swap gpu::ResolveCopy places it with (tiled 2D,
//   3D slice or linear), so a wrong format, swap or layout in one path shows as different bytes;
// - each memexport stream an exporting draw's shaders read (replay::FindMemExportStreams): the
//   stream's range as dwords, 64 to a row.
struct MemoryTarget {
  std::string name;      // "dest", "export_c12"
  std::string describe;  // "resolve destination 0x00200000 k_8_8_8_8 pitch 320, 320x240 px"
  uint32_t width = 0, height = 0;
  uint32_t bytes_per_element = 4;
  uint32_t endian_xor = 0;          // byte address bits 3:0 are XORed with it (Endian128)
  uint32_t linear_base = 0;         // when `addresses` is empty: element i at base + i * bytes
  std::vector<uint32_t> addresses;  // else element i's first byte (before the endian swap)
  uint32_t ElementAddress(size_t i) const {
    return addresses.empty() ? linear_base + uint32_t(i) * bytes_per_element : addresses[i];
  }
};

// Empty for an event that writes no guest memory (or whose destination is not resolvable).
std::vector<MemoryTarget> EventMemoryTargets(const renderer::DrawEvent& event);
// XXH3-64 of every element's bytes in element order; addresses outside guest memory hash as a
// marker, never read.
uint64_t HashMemoryTargets(const replay::GuestMemory& memory,
                           const std::vector<MemoryTarget>& targets);
// The target as an image: each element's first four guest bytes as R, G, B, A (at most 2048
// rows). `raw`, when given, receives each element's bytes as one value (elements of more than 8
// bytes folded with XXH3-64), row-major.
diff::OwnedImage MemoryTargetImage(const replay::GuestMemory& memory, const MemoryTarget& target,
                                   std::vector<uint64_t>* raw = nullptr);

// One target of an event, EDRAM region or guest memory, as it holds now.
struct TargetSnapshot {
  std::string name;      // "colour0", "depth", "dest", "vs_export_c12"
  std::string describe;
  diff::OwnedImage image;      // for the eye (TargetImage / MemoryTargetImage)
  std::vector<uint64_t> bits;  // per element: guest bits, or the element's guest bytes
};
// Every target the event writes (EventTargets, then EventMemoryTargets).
std::vector<TargetSnapshot> SnapshotEventTargets(renderer::Session& session,
                                                 const renderer::DrawEvent& event);
// One hash of everything the event writes: its EDRAM targets' tiles and its guest-memory
// targets' bytes.
uint64_t HashEvent(renderer::Session& session, const renderer::DrawEvent& event);
// Magenta where an element's value differs (or only one side has it), dark grey where equal;
// `count` receives the differing elements.
diff::OwnedImage AnyDifferenceMask(const diff::Image& shape, const std::vector<uint64_t>& a,
                                   const std::vector<uint64_t>& b, uint64_t* count);

// "F.K[,F.K...]" or "all" (every draw). Throws xnt::Error.
struct SnapshotSelection {
  bool all = false;
  std::vector<renderer::DrawId> draws;
  bool Contains(uint64_t frame, uint32_t draw) const;
};
SnapshotSelection ParseSnapshotSelection(const std::string& text);

}  // namespace xnt::compare
