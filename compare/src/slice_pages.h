// The guest pages a slice's kept stream reads (slice.h, "minimal pages"): what each draw and
// resolve fetches (its DMA index buffer, the vertex fetch constants its vertex shader reads, the
// whole footprint of every texture its shaders fetch, mips included, a resolve's rectangle), what
// the swap scans out (the front buffer), what the command processor reads for a packet (IM_LOAD,
// LOAD_ALU_CONSTANT, memory polls), and the whole range of each memexport stream of its draws (a
// GPU path mirrors and copies back each whole range). Footprints are whole ranges, not the bytes
// a draw happens to touch: a path may load a texture or stream in full (the Vulkan texture cache
// does).
#pragma once

#include <cstdint>
#include <set>
#include <span>

#include "xnt/replay/backend.h"
#include "xnt/replay/register_file.h"

namespace xnt::compare::detail {

// Adds the pages of [address, address + size), clipped to the 512 MiB physical range.
void AddPages(std::set<uint32_t>& pages, uint64_t address, uint64_t size);

// The draw's (or resolve's: its rectangle's corners) fetches from guest memory as the registers
// stand at it, and the whole range of every memexport stream its shaders can store into.
void AddDrawReads(const replay::DrawCall& draw, std::set<uint32_t>& pages);

// XE_SWAP (payload: signature, address, width, height): the front buffer gpu::ReadFrontBuffer
// scans out (fetch constant 0's texture when it holds one, else the packet's address at
// 32x32-tiled 32 bpp, the widest layout it reads from a packet alone).
void AddSwapReads(const replay::RegisterFile& registers, std::span<const uint32_t> payload,
                  std::set<uint32_t>& pages);

}  // namespace xnt::compare::detail
