// What the point-sprite samples share (raster_point_scenes.cpp, raster_point_size_scenes.cpp):
// one vertex buffer per point, the dark resolve-clear, and param gen into r1.
#pragma once

#include <bit>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "xnt/base/byte_order.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/format/writer.h"
#include "xnt/xenos/registers.h"

namespace xnt::samples {

// One point's vertex at `address`: the authored (D3D9) pixel position (x, y) of a width x height
// frame as clip-space x, y, then `extra` floats, big-endian.
inline void WritePointVertex(format::Writer& writer, uint32_t address, uint32_t width,
                             uint32_t height, float x, float y,
                             std::initializer_list<float> extra = {}) {
  std::vector<float> v = {x / (float(width) / 2) - 1.0f, 1.0f - y / (float(height) / 2)};
  v.insert(v.end(), extra.begin(), extra.end());
  std::vector<uint8_t> bytes(v.size() * 4);
  for (size_t k = 0; k < v.size(); ++k) StoreBE32(&bytes[4 * k], std::bit_cast<uint32_t>(v[k]));
  writer.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, address, bytes});
}

// The resolve that clears a width x height target to RGBA (16, 24, 32, 255) through `scratch`.
inline capture::ResolveSetup DarkClear(uint32_t width, uint32_t height, uint32_t scratch,
                                       uint32_t resolve_vertices) {
  return {.width = width, .height = height, .dest_address = scratch, .dest_pitch = width,
          .dest_height = height, .clear_color = true, .clear_color_value = 0xFF201810u,
          .vertex_address = resolve_vertices};
}

// Param gen into r1 (SQ_PROGRAM_CNTL param_gen, SQ_CONTEXT_MISC param_gen_pos = 1), after the
// one interpolator the vertex shader allocates; two registers per shader.
inline void ParamGenIntoR1(capture::Pm4Builder& b) {
  b.WriteRegister(xenos::Reg::SQ_PROGRAM_CNTL,
                  xenos::Field(1, 0, 6) | xenos::Field(1, 8, 6) | (1u << 16) | (1u << 18));
  b.WriteRegister(xenos::Reg::SQ_CONTEXT_MISC, 4u | (1u << 8));
}

}  // namespace xnt::samples
