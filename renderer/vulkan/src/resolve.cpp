// Resolve rectangle and tiled packing (see resolve.h).
#include "xnt/vk/resolve.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/vk/texture_address.h"
#include "xnt/xenos/registers.h"

namespace xnt::vk {

using xenos::Reg;
using xenos::RegIndex;

namespace {

uint32_t R(RegisterValues regs, Reg r) {
  uint32_t i = RegIndex(r);
  return i < regs.size() ? regs[i] : 0;
}

// Float -> 16.8 fixed point with round-to-nearest-even and saturation, the conversion Direct3D
// 11 specifies for rasterizer coordinates (Xenia draw_util.cc FloatToD3D11Fixed16p8).
int32_t ToFixed16p8(float f) {
  if (!(std::fabs(f) >= 1.0f / 512.0f)) return 0;  // also NaN
  if (f >= 32768.0f - 1.0f / 256.0f) return (1 << 23) - 1;
  if (f <= -32768.0f) return -32768 * 256;
  return int32_t(std::nearbyint(double(f) * 256.0));
}

}  // namespace

ResolveInfo ComputeResolveInfo(RegisterValues regs, const GuestMemoryAccess& memory) {
  ResolveInfo info;
  auto control = xenos::reg::RB_COPY_CONTROL::Decode(R(regs, Reg::RB_COPY_CONTROL));
  info.source_select = control.copy_src_select;
  info.copy = control.copy_command == xenos::CopyCommand::kRaw ||
              control.copy_command == xenos::CopyCommand::kConvert;
  info.color_clear = control.color_clear_enable;
  info.depth_clear = control.depth_clear_enable;
  info.color_clear_value = R(regs, Reg::RB_COLOR_CLEAR);
  info.depth_clear_value = R(regs, Reg::RB_DEPTH_CLEAR);
  auto surface = xenos::reg::RB_SURFACE_INFO::Decode(R(regs, Reg::RB_SURFACE_INFO));
  info.surface_pitch = surface.surface_pitch;
  info.msaa_samples = uint32_t(surface.msaa_samples);
  if (info.source_select < 4) {
    auto color = xenos::reg::RB_COLOR_INFO::Decode(R(regs, xenos::kColorInfoRegs[info.source_select]));
    info.color_base = color.color_base;
    info.color_format = uint32_t(color.color_format);
  } else {
    auto color = xenos::reg::RB_COLOR_INFO::Decode(R(regs, Reg::RB_COLOR_INFO));
    info.color_base = color.color_base;
    info.color_format = uint32_t(color.color_format);
  }
  auto depth = xenos::reg::RB_DEPTH_INFO::Decode(R(regs, Reg::RB_DEPTH_INFO));
  info.depth_base = depth.depth_base;
  info.depth_format = uint32_t(depth.depth_format);
  auto dest_pitch = xenos::reg::RB_COPY_DEST_PITCH::Decode(R(regs, Reg::RB_COPY_DEST_PITCH));
  auto dest_info = xenos::reg::RB_COPY_DEST_INFO::Decode(R(regs, Reg::RB_COPY_DEST_INFO));
  info.dest_base = R(regs, Reg::RB_COPY_DEST_BASE);
  info.dest_pitch = dest_pitch.copy_dest_pitch;
  info.dest_height = dest_pitch.copy_dest_height;
  info.dest_endian = dest_info.copy_dest_endian;
  info.dest_array = dest_info.copy_dest_array;
  info.dest_format = dest_info.copy_dest_format;
  info.dest_exp_bias = dest_info.copy_dest_exp_bias;
  info.dest_swap = dest_info.copy_dest_swap;

  // The rectangle: three corners in vertex fetch constant 0.
  uint32_t f0 = R(regs, Reg(xenos::VertexFetchConstantIndex(0)));
  uint32_t f1 = R(regs, Reg(xenos::VertexFetchConstantIndex(0) + 1));
  auto fetch = xenos::VertexFetchConstant::Decode(f0, f1);
  if (fetch.type != xenos::FetchConstantType::kVertex || fetch.size_dwords != 6) {
    info.unsupported = "resolve rectangle: vertex fetch constant 0 is not 3 x,y float pairs (type " +
                       std::to_string(uint32_t(fetch.type)) + ", " +
                       std::to_string(fetch.size_dwords) + " dwords)";
    return info;
  }
  uint8_t raw[24];
  memory.read(fetch.address_bytes(), raw);
  float half_pixel = (R(regs, Reg::PA_SU_VTX_CNTL) & 1u) ? 0.0f : 0.5f;
  int32_t v[6];
  for (int i = 0; i < 6; ++i) {
    uint32_t word = xenos::GpuSwap(LoadLE32(raw + 4 * i), fetch.endian);
    v[i] = ToFixed16p8(std::bit_cast<float>(word) + half_pixel);
  }
  int32_t x0 = std::min({v[0], v[2], v[4]}), y0 = std::min({v[1], v[3], v[5]});
  int32_t x1 = std::max({v[0], v[2], v[4]}), y1 = std::max({v[1], v[3], v[5]});
  // Top-left rule: a .5 edge is covered on the left/top, not on the right/bottom.
  x0 = (x0 + 127) >> 8;
  y0 = (y0 + 127) >> 8;
  x1 = (x1 + 127) >> 8;
  y1 = (y1 + 127) >> 8;
  auto window_offset =
      xenos::reg::PA_SC_WINDOW_OFFSET::Decode(R(regs, Reg::PA_SC_WINDOW_OFFSET));
  auto mode = xenos::reg::PA_SU_SC_MODE_CNTL::Decode(R(regs, Reg::PA_SU_SC_MODE_CNTL));
  if (mode.vtx_window_offset_enable) {
    x0 += window_offset.window_x_offset;
    x1 += window_offset.window_x_offset;
    y0 += window_offset.window_y_offset;
    y1 += window_offset.window_y_offset;
  }
  auto tl = xenos::reg::PA_SC_WINDOW_SCISSOR_TL::Decode(R(regs, Reg::PA_SC_WINDOW_SCISSOR_TL));
  auto br = xenos::reg::PA_SC_WINDOW_SCISSOR_BR::Decode(R(regs, Reg::PA_SC_WINDOW_SCISSOR_BR));
  int32_t sx0 = int32_t(tl.tl_x), sy0 = int32_t(tl.tl_y);
  int32_t sx1 = std::max(int32_t(br.br_x), sx0), sy1 = std::max(int32_t(br.br_y), sy0);
  if (!tl.window_offset_disable) {
    sx0 = std::max(sx0 + window_offset.window_x_offset, 0);
    sy0 = std::max(sy0 + window_offset.window_y_offset, 0);
    sx1 = std::max(sx1 + window_offset.window_x_offset, 0);
    sy1 = std::max(sy1 + window_offset.window_y_offset, 0);
  }
  x0 = std::clamp(x0, sx0, sx1);
  y0 = std::clamp(y0, sy0, sy1);
  x1 = std::clamp(x1, sx0, sx1);
  y1 = std::clamp(y1, sy0, sy1);
  constexpr int32_t kAlign = int32_t(xenos::kResolveAlignmentPixels);
  x0 &= ~(kAlign - 1);
  y0 &= ~(kAlign - 1);
  x1 = (x1 + kAlign - 1) & ~(kAlign - 1);
  y1 = (y1 + kAlign - 1) & ~(kAlign - 1);
  int32_t pitch_aligned = int32_t(info.surface_pitch) & ~(kAlign - 1);
  x0 = std::min(x0, pitch_aligned);
  x1 = std::min(x1, pitch_aligned);
  y1 = std::min(y1, y0 + int32_t(xenos::kMaxResolveSize));
  info.x0 = x0;
  info.y0 = y0;
  info.x1 = x1;
  info.y1 = y1;

  if (!info.copy) return info;
  if (info.source_select >= 4) {
    info.unsupported = "resolve of depth (copy_src_select 4) is not implemented yet";
  } else if (info.color_format != uint32_t(xenos::ColorRenderTargetFormat::k_8_8_8_8)) {
    info.unsupported = "resolve from colour format " +
                       std::string(xenos::ColorRenderTargetFormatName(info.color_format)) +
                       " is not implemented yet (only k_8_8_8_8)";
  } else if (info.dest_format != xenos::TextureFormat::k_8_8_8_8 &&
             info.dest_format != xenos::TextureFormat::k_8_8_8_8_A) {
    info.unsupported = "resolve to texture format " +
                       std::string(xenos::TextureFormatName(uint32_t(info.dest_format))) +
                       " is not implemented yet (only k_8_8_8_8)";
  } else if (info.dest_array) {
    info.unsupported = "resolve to a 3D/array destination is not implemented yet";
  }
  return info;
}

uint32_t PackResolveColor(uint32_t host_rgba, bool swap_red_blue, int32_t exp_bias) {
  uint32_t c[4] = {host_rgba & 0xFF, (host_rgba >> 8) & 0xFF, (host_rgba >> 16) & 0xFF,
                   host_rgba >> 24};
  if (exp_bias != 0) {
    // Multiply by 2^bias in normalised space, then requantise (saturating).
    double scale = std::ldexp(1.0, exp_bias);
    for (auto& v : c) {
      double f = std::clamp(double(v) / 255.0 * scale, 0.0, 1.0);
      v = uint32_t(std::lround(f * 255.0));
    }
  }
  if (swap_red_blue) std::swap(c[0], c[2]);
  return c[0] | (c[1] << 8) | (c[2] << 16) | (c[3] << 24);
}

uint64_t WriteResolvedColor(const ResolveInfo& info, std::span<const uint8_t> rgba,
                            const GuestMemoryAccess& memory) {
  if (info.empty()) return 0;
  uint32_t width = uint32_t(info.x1 - info.x0), height = uint32_t(info.y1 - info.y0);
  if (rgba.size() < uint64_t(width) * height * 4) {
    throw Error("resolve: " + std::to_string(rgba.size()) + " bytes of pixels for a " +
                std::to_string(width) + "x" + std::to_string(height) + " rectangle");
  }
  // 8in64 / 8in128 reverse bytes across 2 / 4 neighbouring 32-bit texels, which sit next to each
  // other in the tiled layout (x bits 1:0 are byte-offset bits 3:2): texel x lands in the slot
  // of x ^ 1 (x ^ 3) with its bytes reversed.
  uint32_t slot_xor = 0;
  xenos::Endian dword_endian = xenos::Endian::kNone;
  switch (info.dest_endian) {
    case xenos::Endian128::kNone: dword_endian = xenos::Endian::kNone; break;
    case xenos::Endian128::k8in16: dword_endian = xenos::Endian::k8in16; break;
    case xenos::Endian128::k8in32: dword_endian = xenos::Endian::k8in32; break;
    case xenos::Endian128::k16in32: dword_endian = xenos::Endian::k16in32; break;
    case xenos::Endian128::k8in64: dword_endian = xenos::Endian::k8in32; slot_xor = 1; break;
    case xenos::Endian128::k8in128: dword_endian = xenos::Endian::k8in32; slot_xor = 3; break;
    default:
      throw Error("resolve: invalid destination endian " +
                  std::to_string(uint32_t(info.dest_endian)));
  }
  // Offsets relative to the base; the touched span is bounded by whole macro tiles.
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  std::vector<std::pair<int32_t, uint32_t>> writes;
  writes.reserve(size_t(width) * height);
  for (uint32_t j = 0; j < height; ++j) {
    for (uint32_t i = 0; i < width; ++i) {
      int32_t x = info.x0 + int32_t(i), y = info.y0 + int32_t(j);
      int32_t offset = TiledOffset2D(x ^ int32_t(slot_xor), y, info.dest_pitch, 2);
      uint32_t host = LoadLE32(rgba.data() + (size_t(j) * width + i) * 4);
      uint32_t value =
          xenos::GpuSwap(PackResolveColor(host, info.dest_swap, info.dest_exp_bias), dword_endian);
      writes.emplace_back(offset, value);
      lo = std::min<int64_t>(lo, offset);
      hi = std::max<int64_t>(hi, int64_t(offset) + 4);
    }
  }
  int64_t start = int64_t(info.dest_base) + lo;
  int64_t length = hi - lo;
  if (start < 0 || start + length > int64_t(512ull << 20)) {
    throw Error("resolve destination 0x" + std::to_string(start) + "+" + std::to_string(length) +
                " leaves guest physical memory");
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(length));
  memory.read(uint32_t(start), bytes);
  for (auto& [offset, value] : writes) StoreLE32(bytes.data() + (offset - lo), value);
  memory.write(uint32_t(start), bytes);
  return uint64_t(writes.size()) * 4;
}

}  // namespace xnt::vk
