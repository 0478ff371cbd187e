// Guest primitive → host index list conversion (see primitive_processor.h).
#include "xnt/gpu/primitive_processor.h"

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"

namespace xnt::gpu {

using xenos::PrimitiveType;

bool IsSupportedPrimitiveType(PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kPointList:
    case PrimitiveType::kLineList:
    case PrimitiveType::kLineStrip:
    case PrimitiveType::kLineLoop:
    case PrimitiveType::kTriangleList:
    case PrimitiveType::kTriangleStrip:
    case PrimitiveType::kTriangleFan:
    case PrimitiveType::kRectangleList:
    case PrimitiveType::kQuadList:
    case PrimitiveType::kQuadStrip:
      return true;
    default:
      return false;
  }
}

uint32_t ReadGuestIndex(std::span<const uint8_t> bytes, xenos::IndexFormat format,
                        xenos::Endian endian, uint32_t i) {
  if (format == xenos::IndexFormat::kInt32) {
    size_t offset = size_t(i) * 4;
    if (offset + 4 > bytes.size()) throw Error("index " + std::to_string(i) + " past the buffer");
    return xenos::GpuSwap(LoadLE32(bytes.data() + offset), endian);
  }
  // 16-bit: the swap applies to the dword holding the index (relative to the buffer start).
  size_t offset = size_t(i) * 2;
  if (offset + 2 > bytes.size()) throw Error("index " + std::to_string(i) + " past the buffer");
  size_t dword_offset = offset & ~size_t(3);
  uint8_t word[4] = {0, 0, 0, 0};
  for (size_t b = 0; b < 4 && dword_offset + b < bytes.size(); ++b) {
    word[b] = bytes[dword_offset + b];
  }
  uint32_t swapped = xenos::GpuSwap(LoadLE32(word), endian);
  return (i & 1) ? swapped >> 16 : swapped & 0xFFFFu;
}

bool ReadVertexIndices(const PrimitiveDraw& draw, std::vector<uint32_t>& out) {
  out.clear();
  if (!draw.indexed) {
    out.reserve(draw.vertex_count);
    for (uint32_t i = 0; i < draw.vertex_count; ++i) out.push_back(draw.vertex_index.Apply(i));
    return true;
  }
  const bool wide = draw.index_format == xenos::IndexFormat::kInt32;
  if (uint64_t(draw.vertex_count) * (wide ? 4 : 2) > draw.index_bytes.size()) return false;
  const uint32_t reset = wide ? draw.reset_index : (draw.reset_index & 0xFFFFu);
  out.reserve(draw.vertex_count);
  for (uint32_t i = 0; i < draw.vertex_count; ++i) {
    const uint32_t index = ReadGuestIndex(draw.index_bytes, draw.index_format, draw.index_endian, i);
    if (draw.reset_enable && index == reset) continue;
    out.push_back(draw.vertex_index.Apply(index));
  }
  return true;
}

namespace {

HostTopology TopologyOf(PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kPointList:
      return HostTopology::kPointList;
    case PrimitiveType::kLineList:
    case PrimitiveType::kLineStrip:
    case PrimitiveType::kLineLoop:
      return HostTopology::kLineList;
    case PrimitiveType::kRectangleList:
      return HostTopology::kRectangleList;
    default:
      return HostTopology::kTriangleList;
  }
}

// Appends the list form of one reset-free run of guest vertices.
void ConvertRun(PrimitiveType type, const uint32_t* v, size_t n, HostPrimitives& out) {
  auto& o = out.indices;
  switch (type) {
    case PrimitiveType::kPointList:
      o.insert(o.end(), v, v + n);
      out.guest_primitive_count += uint32_t(n);
      break;
    case PrimitiveType::kLineList:
      for (size_t i = 0; i + 1 < n; i += 2) {
        o.insert(o.end(), {v[i], v[i + 1]});
        ++out.guest_primitive_count;
      }
      break;
    case PrimitiveType::kLineStrip:
    case PrimitiveType::kLineLoop:
      for (size_t i = 0; i + 1 < n; ++i) {
        o.insert(o.end(), {v[i], v[i + 1]});
        ++out.guest_primitive_count;
      }
      if (type == PrimitiveType::kLineLoop && n > 2) {
        o.insert(o.end(), {v[n - 1], v[0]});
        ++out.guest_primitive_count;
      }
      break;
    case PrimitiveType::kTriangleList:
    case PrimitiveType::kRectangleList:
      for (size_t i = 0; i + 2 < n; i += 3) {
        o.insert(o.end(), {v[i], v[i + 1], v[i + 2]});
        ++out.guest_primitive_count;
      }
      break;
    case PrimitiveType::kTriangleStrip:
      // Same vertex order (and provoking vertex) as a host strip: the Vulkan spec's triangle i
      // of a strip is (i, i + 1 + i%2, i + 2 - i%2).
      for (size_t i = 0; i + 2 < n; ++i) {
        if (i & 1) {
          o.insert(o.end(), {v[i], v[i + 2], v[i + 1]});
        } else {
          o.insert(o.end(), {v[i], v[i + 1], v[i + 2]});
        }
        ++out.guest_primitive_count;
      }
      break;
    case PrimitiveType::kTriangleFan:
      // Vulkan fan order: triangle i = (i + 1, i + 2, 0).
      for (size_t i = 0; i + 2 < n; ++i) {
        o.insert(o.end(), {v[i + 1], v[i + 2], v[0]});
        ++out.guest_primitive_count;
      }
      break;
    case PrimitiveType::kQuadList:
      for (size_t i = 0; i + 3 < n; i += 4) {
        o.insert(o.end(), {v[i], v[i + 1], v[i + 2], v[i], v[i + 2], v[i + 3]});
        ++out.guest_primitive_count;
      }
      break;
    case PrimitiveType::kQuadStrip:
      // Quad k of a strip is (2k, 2k+1, 2k+3, 2k+2) around its edge.
      for (size_t i = 0; i + 3 < n; i += 2) {
        o.insert(o.end(), {v[i], v[i + 1], v[i + 3], v[i], v[i + 3], v[i + 2]});
        ++out.guest_primitive_count;
      }
      break;
    default:
      break;
  }
}

}  // namespace

HostPrimitives ProcessPrimitives(const PrimitiveDraw& draw) {
  if (!IsSupportedPrimitiveType(draw.type)) {
    throw Error("primitive type " + std::string(xenos::PrimitiveTypeName(uint32_t(draw.type))) +
                " (" + std::to_string(uint32_t(draw.type)) + ") is not implemented");
  }
  HostPrimitives out;
  out.topology = TopologyOf(draw.type);
  if (draw.vertex_count == 0) return out;

  std::vector<uint32_t> guest;
  guest.reserve(draw.vertex_count);
  if (draw.indexed) {
    size_t index_size = draw.index_format == xenos::IndexFormat::kInt32 ? 4 : 2;
    if (draw.index_bytes.size() / index_size < draw.vertex_count) {
      throw Error("index buffer holds " + std::to_string(draw.index_bytes.size() / index_size) +
                  " indices but the draw uses " + std::to_string(draw.vertex_count));
    }
    uint32_t reset = draw.index_format == xenos::IndexFormat::kInt32 ? draw.reset_index
                                                                     : draw.reset_index & 0xFFFFu;
    size_t run_start = 0;
    for (uint32_t i = 0; i < draw.vertex_count; ++i) {
      uint32_t index = ReadGuestIndex(draw.index_bytes, draw.index_format, draw.index_endian, i);
      if (draw.reset_enable && index == reset) {
        ConvertRun(draw.type, guest.data() + run_start, guest.size() - run_start, out);
        run_start = guest.size();
        continue;
      }
      guest.push_back(draw.vertex_index.Apply(index));
    }
    ConvertRun(draw.type, guest.data() + run_start, guest.size() - run_start, out);
  } else {
    // Auto indices count up from 0 and the VGT has 24 index bits; more is a corrupt draw, not a
    // reason to allocate gigabytes.
    if (draw.vertex_count > xenos::kVertexIndexMask + 1) {
      throw Error("auto-indexed draw of " + std::to_string(draw.vertex_count) +
                  " vertices exceeds the 24-bit vertex index range");
    }
    for (uint32_t i = 0; i < draw.vertex_count; ++i) guest.push_back(draw.vertex_index.Apply(i));
    ConvertRun(draw.type, guest.data(), guest.size(), out);
  }
  return out;
}

}  // namespace xnt::gpu
