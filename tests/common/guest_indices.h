// A draw's DMA index buffer as a title's D3D writes one: big-endian 16- or 32-bit indices in
// guest memory, read back with the matching 8in16 / 8in32 swap, `draw` pointed at them.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "xnt/replay/backend.h"
#include "xnt/replay/guest_memory.h"

namespace xnt::test {

template <class Index>
void StoreDmaIndices(replay::GuestMemory& memory, replay::DrawCall& draw, uint32_t address,
                     xenos::PrimitiveType type, const std::vector<Index>& indices) {
  static_assert(std::is_same_v<Index, uint16_t> || std::is_same_v<Index, uint32_t>);
  constexpr bool wide = sizeof(Index) == 4;
  for (size_t i = 0; i < indices.size(); ++i) {
    const uint32_t at = address + uint32_t(i * sizeof(Index));
    if constexpr (wide) {
      memory.StoreBE32(at, indices[i]);
    } else {
      const uint8_t be[2] = {uint8_t(indices[i] >> 8), uint8_t(indices[i])};
      memory.Write(at, be);
    }
  }
  draw.initiator.prim_type = type;
  draw.initiator.num_indices = uint32_t(indices.size());
  draw.indices.source = xenos::SourceSelect::kDma;
  draw.indices.format = wide ? xenos::IndexFormat::kInt32 : xenos::IndexFormat::kInt16;
  draw.indices.endian = wide ? xenos::Endian::k8in32 : xenos::Endian::k8in16;
  draw.indices.guest_address = address;
  draw.indices.size_bytes = uint32_t(indices.size() * sizeof(Index));
}

}  // namespace xnt::test
