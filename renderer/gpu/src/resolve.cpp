// Resolve rectangle and the resolve engine (see resolve.h).
#include "xnt/gpu/resolve.h"

#include <algorithm>
#include <bit>
#include <atomic>
#include <cmath>
#include <cstring>
#include <exception>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/base/parallel.h"
#include "xnt/gpu/texture_address.h"
#include "xnt/xenos/registers.h"
#include "resolve_dest_row.h"

namespace xnt::gpu {

using xenos::ColorRenderTargetFormat;
using xenos::CopySampleSelect;
using xenos::Reg;
using xenos::RegIndex;
using xenos::TextureFormat;

namespace {

using resolve_dest::DestRow;
using resolve_dest::LayOutRow32;
using resolve_dest::SwapInDword;

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
  auto control = xenos::reg::RB_COPY_CONTROL::Decode(RegisterValue(regs, Reg::RB_COPY_CONTROL));
  info.source_select = control.copy_src_select;
  info.copy = control.copy_command == xenos::CopyCommand::kRaw ||
              control.copy_command == xenos::CopyCommand::kConvert;
  info.color_clear = control.color_clear_enable;
  info.depth_clear = control.depth_clear_enable;
  info.color_clear_value = RegisterValue(regs, Reg::RB_COLOR_CLEAR);
  info.color_clear_value_lo = RegisterValue(regs, Reg::RB_COLOR_CLEAR_LO);
  info.depth_clear_value = RegisterValue(regs, Reg::RB_DEPTH_CLEAR);
  auto surface = xenos::reg::RB_SURFACE_INFO::Decode(RegisterValue(regs, Reg::RB_SURFACE_INFO));
  info.surface_pitch = surface.surface_pitch;
  info.msaa_samples = uint32_t(surface.msaa_samples);
  info.sample_select_raw = uint32_t(control.copy_sample_select);
  if (info.source_select < 4) {
    auto color = xenos::reg::RB_COLOR_INFO::Decode(RegisterValue(regs, xenos::kColorInfoRegs[info.source_select]));
    info.color_base = color.color_base;
    info.color_format = uint32_t(color.color_format);
  } else {
    auto color = xenos::reg::RB_COLOR_INFO::Decode(RegisterValue(regs, Reg::RB_COLOR_INFO));
    info.color_base = color.color_base;
    info.color_format = uint32_t(color.color_format);
  }
  auto depth = xenos::reg::RB_DEPTH_INFO::Decode(RegisterValue(regs, Reg::RB_DEPTH_INFO));
  info.depth_base = depth.depth_base;
  info.depth_format = uint32_t(depth.depth_format);
  auto dest_pitch = xenos::reg::RB_COPY_DEST_PITCH::Decode(RegisterValue(regs, Reg::RB_COPY_DEST_PITCH));
  auto dest_info = xenos::reg::RB_COPY_DEST_INFO::Decode(RegisterValue(regs, Reg::RB_COPY_DEST_INFO));
  info.dest_base = RegisterValue(regs, Reg::RB_COPY_DEST_BASE);
  info.dest_pitch = dest_pitch.copy_dest_pitch;
  info.dest_height = dest_pitch.copy_dest_height;
  info.dest_endian = dest_info.copy_dest_endian;
  info.dest_array = dest_info.copy_dest_array;
  info.dest_slice = dest_info.copy_dest_slice;
  info.dest_format = dest_info.copy_dest_format;
  info.dest_number = dest_info.copy_dest_number;
  info.dest_exp_bias = dest_info.copy_dest_exp_bias;
  info.dest_swap = dest_info.copy_dest_swap;

  // The rectangle: three corners in vertex fetch constant 0.
  uint32_t f0 = RegisterValue(regs, Reg(xenos::VertexFetchConstantIndex(0)));
  uint32_t f1 = RegisterValue(regs, Reg(xenos::VertexFetchConstantIndex(0) + 1));
  auto fetch = xenos::VertexFetchConstant::Decode(f0, f1);
  if (fetch.type != xenos::FetchConstantType::kVertex || fetch.size_dwords != 6) {
    info.unsupported = "resolve rectangle: vertex fetch constant 0 is not 3 x,y float pairs (type " +
                       std::to_string(uint32_t(fetch.type)) + ", " +
                       std::to_string(fetch.size_dwords) + " dwords)";
    return info;
  }
  uint8_t raw[24];
  memory.read(fetch.address_bytes(), raw);
  float half_pixel = (RegisterValue(regs, Reg::PA_SU_VTX_CNTL) & 1u) ? 0.0f : 0.5f;
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
      xenos::reg::PA_SC_WINDOW_OFFSET::Decode(RegisterValue(regs, Reg::PA_SC_WINDOW_OFFSET));
  auto mode = xenos::reg::PA_SU_SC_MODE_CNTL::Decode(RegisterValue(regs, Reg::PA_SU_SC_MODE_CNTL));
  if (mode.vtx_window_offset_enable) {
    x0 += window_offset.window_x_offset;
    x1 += window_offset.window_x_offset;
    y0 += window_offset.window_y_offset;
    y1 += window_offset.window_y_offset;
  }
  auto tl = xenos::reg::PA_SC_WINDOW_SCISSOR_TL::Decode(RegisterValue(regs, Reg::PA_SC_WINDOW_SCISSOR_TL));
  auto br = xenos::reg::PA_SC_WINDOW_SCISSOR_BR::Decode(RegisterValue(regs, Reg::PA_SC_WINDOW_SCISSOR_BR));
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
  bool msaa_valid = info.msaa_samples <= 2;
  if (!msaa_valid) {
    info.unsupported = "resolve of a surface with RB_SURFACE_INFO msaa_samples " +
                       std::to_string(info.msaa_samples) + " (Xenos has 1x, 2x and 4x)";
    return info;
  }
  info.sample_select = SanitizeCopySampleSelect(
      info.sample_select_raw, xenos::MsaaSamples(info.msaa_samples), info.is_depth());
  if (uint32_t(info.sample_select) != info.sample_select_raw) {
    info.note = "resolve copy_sample_select " + std::to_string(info.sample_select_raw) +
                " on a " + std::to_string(1u << info.msaa_samples) + "x " +
                (info.is_depth() ? "depth" : "colour") + " surface treated as " +
                std::to_string(uint32_t(info.sample_select));
  }
  if (info.source_select > 4) {
    info.unsupported = "resolve copy_src_select " + std::to_string(info.source_select) +
                       " (0-3 colour, 4 depth) has no source";
  } else if (info.is_depth() &&
             info.depth_format > uint32_t(xenos::DepthRenderTargetFormat::kD24FS8)) {
    info.unsupported = "resolve of depth format " + std::to_string(info.depth_format);
  } else if (!info.is_depth() && xenos::ColorRenderTargetFormatName(info.color_format) == "unknown") {
    info.unsupported = "resolve of colour render target format " +
                       std::to_string(info.color_format) + " (not a Xenos format)";
  } else if (!info.is_depth() && ResolveDestBytesPerPixel(info.dest_format) == 0) {
    info.unsupported = "resolve to texture format " +
                       std::string(xenos::TextureFormatName(uint32_t(info.dest_format))) +
                       " is not implemented (not a format resolves can write: k_8, k_8_A, "
                       "k_8_B, k_1_5_5_5, k_5_6_5, k_6_5_5, k_8_8, k_4_4_4_4, k_16, k_16_FLOAT, "
                       "k_8_8_8_8(_A/_AS_16_16_16_16), k_2_10_10_10(_AS_16_16_16_16), "
                       "k_10_11_11(_AS_16_16_16_16), k_11_11_10(_AS_16_16_16_16), k_16_16, "
                       "k_16_16_FLOAT, k_32_FLOAT, k_16_16_16_16, k_16_16_16_16_FLOAT, "
                       "k_32_32_FLOAT, k_32_32_32_32_FLOAT)";
  }
  return info;
}

// ---- Engine ------------------------------------------------------------------------------------

TextureFormat ResolveInfo::dest_format_effective() const {
  if (!is_depth()) return dest_format;
  return depth_format == uint32_t(xenos::DepthRenderTargetFormat::kD24FS8)
             ? TextureFormat::k_24_8_FLOAT
             : TextureFormat::k_24_8;
}

edram::Surface ResolveInfo::SourceSurface() const {
  edram::Surface s;
  s.base_tiles = is_depth() ? depth_base : color_base;
  s.pitch_pixels = surface_pitch;
  s.msaa = xenos::MsaaSamples(std::min(msaa_samples, 2u));
  s.is_depth = is_depth();
  s.format = is_depth() ? depth_format : color_format;
  s.scale_x = scale_x;
  s.scale_y = scale_y;
  return s;
}

CopySampleSelect SanitizeCopySampleSelect(uint32_t raw, xenos::MsaaSamples msaa, bool is_depth) {
  // draw_util.cc SanitizeCopySampleSelect.
  uint32_t s = raw;
  if (msaa == xenos::MsaaSamples::k4X) {
    s = std::min(s, uint32_t(CopySampleSelect::k0123));
    if (is_depth) {
      if (s == uint32_t(CopySampleSelect::k01) || s == uint32_t(CopySampleSelect::k0123)) s = 0;
      if (s == uint32_t(CopySampleSelect::k23)) s = 2;
    }
  } else if (msaa == xenos::MsaaSamples::k2X) {
    if (s == 2) {
      s = 0;
    } else if (s == 3) {
      s = 1;
    } else if (s > uint32_t(CopySampleSelect::k01)) {
      s = uint32_t(CopySampleSelect::k01);
    }
    if (is_depth && s == uint32_t(CopySampleSelect::k01)) s = 0;
  } else {
    s = 0;
  }
  return CopySampleSelect(s);
}

uint32_t ResolveDestBytesPerPixel(TextureFormat format) {
  // Depth sources resolve to k_24_8 / k_24_8_FLOAT; every other destination is a colour format.
  if (format == TextureFormat::k_24_8 || format == TextureFormat::k_24_8_FLOAT) return 4;
  return xenos::ColorFormatWriteBytes(format);
}

std::optional<uint32_t> Endian128XorMask(xenos::Endian128 e) {
  switch (e) {
    case xenos::Endian128::kNone: return 0;
    case xenos::Endian128::k8in16: return 1;
    case xenos::Endian128::k8in32: return 3;
    case xenos::Endian128::k16in32: return 2;
    case xenos::Endian128::k8in64: return 7;
    case xenos::Endian128::k8in128: return 15;
  }
  return std::nullopt;
}

namespace {

bool BitwiseEquivalent(ColorRenderTargetFormat rt, TextureFormat dest) {
  // xenos.h IsColorResolveFormatBitwiseEquivalent.
  switch (rt) {
    case ColorRenderTargetFormat::k_8_8_8_8:
    case ColorRenderTargetFormat::k_8_8_8_8_GAMMA:
      return dest == TextureFormat::k_8_8_8_8 || dest == TextureFormat::k_8_8_8_8_A ||
             dest == TextureFormat::k_8_8_8_8_AS_16_16_16_16;
    case ColorRenderTargetFormat::k_2_10_10_10:
    case ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10:
      return dest == TextureFormat::k_2_10_10_10 ||
             dest == TextureFormat::k_2_10_10_10_AS_16_16_16_16;
    case ColorRenderTargetFormat::k_16_16_FLOAT:
      return dest == TextureFormat::k_16_16_FLOAT;
    case ColorRenderTargetFormat::k_16_16_16_16_FLOAT:
      return dest == TextureFormat::k_16_16_16_16_FLOAT;
    case ColorRenderTargetFormat::k_32_FLOAT:
      return dest == TextureFormat::k_32_FLOAT;
    case ColorRenderTargetFormat::k_32_32_FLOAT:
      return dest == TextureFormat::k_32_32_FLOAT;
    default:
      return false;
  }
}

bool SingleSample(CopySampleSelect s) { return uint32_t(s) <= uint32_t(CopySampleSelect::k3); }

uint32_t FirstSample(CopySampleSelect s) {
  if (SingleSample(s)) return uint32_t(s);
  return s == CopySampleSelect::k23 ? 2u : 0u;
}

// Reads sample (column, row) of pixel (x, y) in the hardware's sample space: a 1x view of the
// same tiles (pitch in samples), so the EDRAM model's own MSAA sample numbering is not involved.
class SampleReader {
 public:
  // step: host pixels per pixel coordinate (resolution scaling, ResolveInfo::step_x/y).
  SampleReader(const edram::Surface& s, const edram::Edram& edram, uint32_t step_x = 1,
               uint32_t step_y = 1)
      : surface_(s), edram_(edram), step_x_(step_x), step_y_(step_y) {
    view_ = s;
    view_.msaa = xenos::MsaaSamples::k1X;
    // SurfacePitchTiles counts 80-sample units (doubled at 64bpp), so this pitch in samples
    // gives the view the same tiles per row.
    uint32_t tiles = s.pitch_tiles();
    view_.pitch_pixels = (s.is_64bpp() ? tiles / 2 : tiles) * xenos::kEdramTileWidthSamples;
  }
  uint64_t Load(uint32_t x, uint32_t y, uint32_t sample) const {
    uint32_t sx = x * step_x_ * surface_.samples_x() + ((sample >> 1) & 1u);
    uint32_t sy = y * step_y_ * surface_.samples_y() + (sample & 1u);
    return edram_.Load(view_, sx, sy, 0);
  }

 private:
  edram::Surface surface_, view_;
  const edram::Edram& edram_;
  uint32_t step_x_ = 1, step_y_ = 1;
};

std::array<float, 4> UnpackForResolve(ColorRenderTargetFormat format, uint64_t bits) {
  // k_8_8_8_8_GAMMA: the resolve reads the stored (gamma) bits as unorm (resolve.xesli).
  if (format == ColorRenderTargetFormat::k_8_8_8_8_GAMMA) {
    format = ColorRenderTargetFormat::k_8_8_8_8;
  }
  std::array<float, 4> c = edram::UnpackColor(format, bits);
  // Channels the format does not have read as 0 in the resolve (resolve.xesli unpacks 16_16,
  // 16_16_FLOAT, 32_FLOAT and 32_32_FLOAT with zero blue/alpha).
  switch (format) {
    case ColorRenderTargetFormat::k_16_16:
    case ColorRenderTargetFormat::k_16_16_FLOAT:
    case ColorRenderTargetFormat::k_32_32_FLOAT:
      c[2] = c[3] = 0.0f;
      break;
    case ColorRenderTargetFormat::k_32_FLOAT:
      c[1] = c[2] = c[3] = 0.0f;
      break;
    default:
      break;
  }
  return c;
}

// a + b of two samples' channels (a the earlier in the summation order) with the NaN pinned:
// IEEE 754 leaves open which NaN an add of two NaNs returns and x86 returns its first
// operand's, so a plain `a + b` keeps whichever operand the compiler puts first (gcc 12 puts b
// first at -O2 and a at -O1) and another CPU picks its own default NaN for inf - inf. The
// earlier operand's NaN wins, quieted; inf - inf gives x86's default NaN, as the fsi resolve
// shader computes it.
float AddSampleChannel(float a, float b) {
  const uint32_t ua = std::bit_cast<uint32_t>(a), ub = std::bit_cast<uint32_t>(b);
  if ((ua & 0x7FFFFFFFu) > 0x7F800000u) return std::bit_cast<float>(ua | 0x400000u);
  if ((ub & 0x7FFFFFFFu) > 0x7F800000u) return std::bit_cast<float>(ub | 0x400000u);
  const float sum = a + b;
  const uint32_t us = std::bit_cast<uint32_t>(sum);
  return (us & 0x7FFFFFFFu) > 0x7F800000u ? std::bit_cast<float>(0xFFC00000u) : sum;
}

float Saturate(float v) { return v > 0.0f ? std::min(v, 1.0f) : 0.0f; }  // NaN -> 0

uint32_t Unorm(float v, float max) { return uint32_t(Saturate(v) * max + 0.5f); }

void Put(uint8_t* out, uint32_t offset, uint32_t v, uint32_t bytes) {
  for (uint32_t i = 0; i < bytes; ++i) out[offset + i] = uint8_t(v >> (8 * i));
}

// Byte permutation of a 16-byte block for each Endian128 mode (i -> i ^ mask).
uint32_t EndianXor(xenos::Endian128 e) {
  if (const std::optional<uint32_t> mask = Endian128XorMask(e)) return *mask;
  throw Error("resolve: invalid destination endian " + std::to_string(uint32_t(e)));
}

void SwapRedBlueBits(ColorRenderTargetFormat format, uint64_t& bits) {
  // resolve.xesli XeResolveSwap*RedBlue*: on the raw bits of the formats that have a blue.
  switch (format) {
    case ColorRenderTargetFormat::k_8_8_8_8:
    case ColorRenderTargetFormat::k_8_8_8_8_GAMMA:
      bits = (bits & ~uint64_t(0xFF00FF)) | ((bits & 0xFF) << 16) | ((bits >> 16) & 0xFF);
      break;
    case ColorRenderTargetFormat::k_2_10_10_10:
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT:
    case ColorRenderTargetFormat::k_2_10_10_10_AS_10_10_10_10:
    case ColorRenderTargetFormat::k_2_10_10_10_FLOAT_AS_16_16_16_16:
      bits = (bits & ~uint64_t(0x3FF003FF)) | ((bits & 0x3FF) << 20) | ((bits >> 20) & 0x3FF);
      break;
    case ColorRenderTargetFormat::k_16_16_16_16:
    case ColorRenderTargetFormat::k_16_16_16_16_FLOAT:
      bits = (bits & ~uint64_t(0xFFFF0000FFFFull)) | ((bits & 0xFFFF) << 32) |
             ((bits >> 32) & 0xFFFF);
      break;
    default:
      break;
  }
}

}  // namespace

bool ResolveIsBitwiseCopy(const ResolveInfo& info) {
  if (info.is_depth()) return true;
  return info.dest_exp_bias == 0 && SingleSample(info.sample_select) &&
         BitwiseEquivalent(ColorRenderTargetFormat(info.color_format), info.dest_format);
}

namespace {
// ResolveColorPixel with the surface's reader made once per resolve, not per pixel.
std::array<float, 4> ResolveColorPixelFrom(const ResolveInfo& info, const SampleReader& reader,
                                           uint32_t x, uint32_t y) {
  auto format = ColorRenderTargetFormat(info.color_format);
  uint32_t first = FirstSample(info.sample_select);
  std::array<float, 4> p = UnpackForResolve(format, reader.Load(x, y, first));
  // 2^exp_bias built exactly (resolve.xesli adds the bias to 1.0's exponent bits).
  float factor = std::ldexp(1.0f, info.dest_exp_bias);
  if (!SingleSample(info.sample_select)) {
    // The sample below, then (for 0123) the next column's two (resolve.xesli
    // XeResolveLoad*Colors); the factor halves per step.
    auto add = [&](uint32_t sample) {
      auto q = UnpackForResolve(format, reader.Load(x, y, sample));
      for (int i = 0; i < 4; ++i) p[i] = AddSampleChannel(p[i], q[i]);
    };
    add(first | 1u);
    factor *= 0.5f;
    if (info.sample_select == CopySampleSelect::k0123) {
      add(2);
      add(3);
      factor *= 0.5f;
    }
  }
  for (auto& v : p) v *= factor;
  if (info.dest_swap) {
    if (ResolveDestBytesPerPixel(info.dest_format) == 1) {
      // 8bpp destinations take one channel (resolve.xesli XeResolveLoad8RedColors): with the
      // swap, blue for the formats that have one, the second dword (green) of 32_32_FLOAT, and
      // still red for 16_16, 16_16_FLOAT and 32_FLOAT.
      switch (format) {
        case ColorRenderTargetFormat::k_16_16:
        case ColorRenderTargetFormat::k_16_16_FLOAT:
        case ColorRenderTargetFormat::k_32_FLOAT:
          break;
        case ColorRenderTargetFormat::k_32_32_FLOAT:
          p[0] = p[1];
          break;
        default:
          p[0] = p[2];
          break;
      }
    } else {
      std::swap(p[0], p[2]);
    }
  }
  return p;
}

}  // namespace

std::array<float, 4> ResolveColorPixel(const ResolveInfo& info, const edram::Edram& edram,
                                       uint32_t x, uint32_t y) {
  return ResolveColorPixelFrom(info, SampleReader(info.SourceSurface(), edram, info.step_x, info.step_y),
                               x, y);
}

uint32_t PackResolveDest(TextureFormat format, const std::array<float, 4>& c, uint8_t out[16]) {
  // pixel_formats.xesli XePack*: Direct3D 11 conversion rules.
  auto half = [](float v) { return uint32_t(edram::FloatToHalf(v)); };
  auto bits = [](float v) { return std::bit_cast<uint32_t>(v); };
  switch (format) {
    case TextureFormat::k_8:
    case TextureFormat::k_8_A:
    case TextureFormat::k_8_B:
      out[0] = uint8_t(Unorm(c[0], 255.0f));
      return 1;
    case TextureFormat::k_1_5_5_5:
      Put(out, 0, Unorm(c[0], 31.0f) | Unorm(c[1], 31.0f) << 5 | Unorm(c[2], 31.0f) << 10 |
                      Unorm(c[3], 1.0f) << 15, 2);
      return 2;
    case TextureFormat::k_5_6_5:
      Put(out, 0, Unorm(c[0], 31.0f) | Unorm(c[1], 63.0f) << 5 | Unorm(c[2], 31.0f) << 11, 2);
      return 2;
    case TextureFormat::k_6_5_5:
      Put(out, 0, Unorm(c[0], 31.0f) | Unorm(c[1], 31.0f) << 5 | Unorm(c[2], 63.0f) << 10, 2);
      return 2;
    case TextureFormat::k_8_8:
      Put(out, 0, Unorm(c[0], 255.0f) | Unorm(c[1], 255.0f) << 8, 2);
      return 2;
    case TextureFormat::k_4_4_4_4:
      Put(out, 0, Unorm(c[0], 15.0f) | Unorm(c[1], 15.0f) << 4 | Unorm(c[2], 15.0f) << 8 |
                      Unorm(c[3], 15.0f) << 12, 2);
      return 2;
    case TextureFormat::k_16:
      Put(out, 0, Unorm(c[0], 65535.0f), 2);
      return 2;
    case TextureFormat::k_16_FLOAT:
      Put(out, 0, half(c[0]), 2);
      return 2;
    case TextureFormat::k_8_8_8_8:
    case TextureFormat::k_8_8_8_8_A:
    case TextureFormat::k_8_8_8_8_AS_16_16_16_16:
      Put(out, 0, Unorm(c[0], 255.0f) | Unorm(c[1], 255.0f) << 8 | Unorm(c[2], 255.0f) << 16 |
                      Unorm(c[3], 255.0f) << 24, 4);
      return 4;
    case TextureFormat::k_2_10_10_10:
    case TextureFormat::k_2_10_10_10_AS_16_16_16_16:
      Put(out, 0, Unorm(c[0], 1023.0f) | Unorm(c[1], 1023.0f) << 10 |
                      Unorm(c[2], 1023.0f) << 20 | Unorm(c[3], 3.0f) << 30, 4);
      return 4;
    case TextureFormat::k_10_11_11:
    case TextureFormat::k_10_11_11_AS_16_16_16_16:
      // Red in the low 11 bits, green 11, blue 10 (XePackR11G11B10UNorm).
      Put(out, 0, Unorm(c[0], 2047.0f) | Unorm(c[1], 2047.0f) << 11 |
                      Unorm(c[2], 1023.0f) << 22, 4);
      return 4;
    case TextureFormat::k_11_11_10:
    case TextureFormat::k_11_11_10_AS_16_16_16_16:
      // Red in the low 10 bits, green 11, blue 11 (XePackR10G11B11UNorm).
      Put(out, 0, Unorm(c[0], 1023.0f) | Unorm(c[1], 2047.0f) << 10 |
                      Unorm(c[2], 2047.0f) << 21, 4);
      return 4;
    case TextureFormat::k_16_16:
      Put(out, 0, Unorm(c[0], 65535.0f) | Unorm(c[1], 65535.0f) << 16, 4);
      return 4;
    case TextureFormat::k_16_16_FLOAT:
      Put(out, 0, half(c[0]) | half(c[1]) << 16, 4);
      return 4;
    case TextureFormat::k_32_FLOAT:
      Put(out, 0, bits(c[0]), 4);
      return 4;
    case TextureFormat::k_16_16_16_16:
      Put(out, 0, Unorm(c[0], 65535.0f) | Unorm(c[1], 65535.0f) << 16, 4);
      Put(out, 4, Unorm(c[2], 65535.0f) | Unorm(c[3], 65535.0f) << 16, 4);
      return 8;
    case TextureFormat::k_16_16_16_16_FLOAT:
      Put(out, 0, half(c[0]) | half(c[1]) << 16, 4);
      Put(out, 4, half(c[2]) | half(c[3]) << 16, 4);
      return 8;
    case TextureFormat::k_32_32_FLOAT:
      Put(out, 0, bits(c[0]), 4);
      Put(out, 4, bits(c[1]), 4);
      return 8;
    case TextureFormat::k_32_32_32_32_FLOAT:
      for (uint32_t i = 0; i < 4; ++i) Put(out, 4 * i, bits(c[i]), 4);
      return 16;
    default:
      throw Error("resolve: texture format " +
                  std::string(xenos::TextureFormatName(uint32_t(format))) +
                  " is not a resolve destination");
  }
}

int32_t TiledOffset3D(int32_t x, int32_t y, int32_t z, uint32_t pitch_blocks,
                      uint32_t height_blocks, uint32_t bpb_log2) {
  // XGRAPHICS::TileVolume as reconstructed in Xenia texture_util.cc: 32x32x4-block macro tiles
  // (Z/4 outermost, then Y/16 pairs, then X/32), micro tiles of 8x2 blocks, bank/pipe bits mixed
  // from x bit 3-4, y bit 3 and z bit 2. Arithmetic on uint32 wraps like the int32 original.
  uint32_t pitch = (pitch_blocks + 31u) & ~31u, height = (height_blocks + 31u) & ~31u;
  uint32_t ux = uint32_t(x), uy = uint32_t(y), uz = uint32_t(z);
  uint32_t outer_rows = uint32_t(y >> 4) + uint32_t(z >> 2) * (height >> 4);
  uint32_t macro_index = uint32_t(x >> 5) + outer_rows * (pitch >> 5);
  uint32_t macro = ((macro_index << (bpb_log2 + 6)) & 0xFFFFFFFu) << 1;
  uint32_t micro = (((ux & 7u) + ((uy & 6u) << 2)) << (bpb_log2 + 6)) >> 6;
  uint32_t parity = (uint32_t(y >> 3) + uint32_t(z >> 2)) & 1u;
  uint32_t pipe = parity + (((uint32_t(x >> 3) + (parity << 1)) & 3u) << 1);
  uint32_t inner = ((macro + (micro & ~15u)) << 1) + (micro & 15u) +
                   ((uz & 3u) << (bpb_log2 + 6)) + ((uy & 1u) << 4);
  uint32_t a = (pipe & 1u) << 3;
  a += (inner >> 6) & 7u;
  a <<= 3;
  a += pipe & ~1u;
  a <<= 2;
  a += inner & ~511u;
  a <<= 3;
  a += inner & 63u;
  return int32_t(a);
}

namespace {
// One source row's samples left to right without a division per pixel: the offsets
// SampleReader::Load (Edram::Load through Surface::SampleOffset of the 1x view) gives, with the
// tile column stepped instead of divided out. Only for rows whose samples all lie inside the
// pitch (Prepare says so); others go through SampleReader, which throws at the first bad one.
class RowSampleReader {
 public:
  RowSampleReader(const edram::Surface& s, const edram::Edram& edram, uint32_t step_x,
                  uint32_t step_y)
      : bytes_(edram.bytes().data()) {
    edram::Surface view = s;
    view.msaa = xenos::MsaaSamples::k1X;
    const uint32_t tiles = s.pitch_tiles();
    view.pitch_pixels = (s.is_64bpp() ? tiles / 2 : tiles) * xenos::kEdramTileWidthSamples;
    is_64bpp_ = view.is_64bpp();
    is_depth_ = view.is_depth;
    bytes_per_sample_ = view.bytes_per_sample();
    row_ = xenos::kEdramTileWidthSamples * view.scale_x;
    tile_width_ = is_64bpp_ ? row_ / 2 : row_;
    tile_height_ = xenos::kEdramTileHeightSamples * view.scale_y;
    tile_bytes_ = edram::kTileBytes * view.scale_x * view.scale_y;
    pitch_tiles_ = view.pitch_tiles();
    base_tiles_ = view.base_tiles;
    limit_ = view.pitch_pixels * view.scale_x;
    sx_step_ = step_x * s.samples_x();
    sy_step_ = step_y * s.samples_y();
  }

  // Sets up pixels [x0, x1) of row y, sample `sample`; false when one of them is outside the
  // pitch or the coordinates wrap (the caller then reads pixel by pixel, as before).
  bool Prepare(int32_t x0, int32_t x1, int32_t y, uint32_t sample) {
    if (x0 < 0 || y < 0) return false;
    const uint64_t last = uint64_t(x1 - 1) * sx_step_ + ((sample >> 1) & 1u);
    const uint64_t sy = uint64_t(y) * sy_step_ + (sample & 1u);
    if (last >= limit_ || sy > UINT32_MAX) return false;
    const uint32_t sx = uint32_t(x0) * sx_step_ + ((sample >> 1) & 1u);
    column_ = sx / tile_width_;
    in_x_ = sx % tile_width_;
    row_tiles_ = uint64_t(base_tiles_) + uint64_t(uint32_t(sy) / tile_height_) * pitch_tiles_;
    row_bytes_ = (uint32_t(sy) % tile_height_) * tile_width_;
    return true;
  }
  // The current pixel's bits, then steps to the next pixel of the row.
  uint64_t Next() {
    uint32_t in_x = in_x_;
    if (is_depth_) {  // (in_x + row / 2) % row: in_x < tile width <= row
      in_x += row_ / 2;
      if (in_x >= row_) in_x -= row_;
    }
    const uint32_t tile = uint32_t((row_tiles_ + column_) % xenos::kEdramTileCount);
    const uint8_t* p = bytes_ + size_t(tile) * tile_bytes_ + (row_bytes_ + in_x) * bytes_per_sample_;
    uint64_t v = LoadLE32(p);
    if (is_64bpp_) v |= uint64_t(LoadLE32(p + 4)) << 32;
    in_x_ += sx_step_;
    if (in_x_ >= tile_width_) {  // steps are at most 6 samples, tiles at least 40 wide
      in_x_ -= tile_width_;
      ++column_;
    }
    return v;
  }
  // Whether CopyRow32 applies: one 32-bit sample per pixel column (no MSAA column step, no
  // scale) of a 32bpp surface.
  bool Contiguous() const { return sx_step_ == 1 && !is_64bpp_; }
  // The next n pixels' dwords to `out`, as n calls of Next() would give them: within a tile row
  // the samples are consecutive bytes (for depth, within each half of the row, the halves
  // stored swapped), so the row is copied piece by piece.
  void CopyRow32(uint8_t* out, uint32_t n) {
    while (n) {
      uint32_t stored = in_x_, piece_end = tile_width_;
      if (is_depth_) {
        const uint32_t half = row_ / 2;
        stored = in_x_ < half ? in_x_ + half : in_x_ - half;
        if (in_x_ < half) piece_end = half;
      }
      const uint32_t piece = std::min(n, piece_end - in_x_);
      const uint32_t tile = uint32_t((row_tiles_ + column_) % xenos::kEdramTileCount);
      std::memcpy(out, bytes_ + size_t(tile) * tile_bytes_ + size_t(row_bytes_ + stored) * 4,
                  size_t(piece) * 4);
      out += size_t(piece) * 4;
      n -= piece;
      in_x_ += piece;
      if (in_x_ >= tile_width_) {
        in_x_ -= tile_width_;
        ++column_;
      }
    }
  }

 private:
  const uint8_t* bytes_;
  bool is_64bpp_ = false, is_depth_ = false;
  uint32_t bytes_per_sample_ = 4, row_ = 80, tile_width_ = 80, tile_height_ = 16;
  uint32_t tile_bytes_ = edram::kTileBytes, pitch_tiles_ = 0, base_tiles_ = 0, limit_ = 0;
  uint32_t sx_step_ = 1, sy_step_ = 1;
  uint64_t row_tiles_ = 0;
  uint32_t row_bytes_ = 0, column_ = 0, in_x_ = 0;
};


// One band of up to 32 rows: the packed destination pixels (bpp bytes each, row by row) and the
// guest range they touch, or the error its first bad pixel raised.
struct ResolveBand {
  int32_t y0 = 0, y1 = 0;
  std::vector<uint8_t> pixels;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  std::exception_ptr error;
  // Guest bytes [lo, hi) already laid out by the computing thread (BandFillsItsRange): only the
  // write into guest memory is left. Not a vector: every byte is written, so none is zeroed first.
  std::unique_ptr<uint8_t[]> laid_out;
  size_t laid_capacity = 0;
  bool laid = false;
};

// The destination's pixel layout: `width` pixels a row, `bpp` bytes each, Endian128 as an XOR
// of the byte index within each 16-byte block.
struct BandLayout {
  uint32_t width, bpp, bpp_log2, endian_xor;
};

// Within one 32-row band the tiled 2D offsets of distinct pixels are distinct (the macro tile
// from x >> 5 at the band's y >> 5, the rest a bijection inside it), so when the band's pixel
// bytes add up to its range every byte of [lo, hi) is written: nothing to read back, and the
// band's guest bytes do not depend on what memory held (they can be laid out on any thread).
bool BandFillsItsRange(const ResolveInfo& info, const ResolveBand& band, const BandLayout& l) {
  const uint64_t band_bytes = uint64_t(l.width) * uint32_t(band.y1 - band.y0) * l.bpp;
  return !info.dest_linear && !info.dest_array && band.hi > band.lo &&
         band_bytes == uint64_t(band.hi - band.lo);
}


// The band's pixels at their tiled or linear offsets in `bytes`, guest bytes [lo, ...).
void LayOutBand(const ResolveInfo& info, const DestRow& dest, const ResolveBand& band,
                const BandLayout& l, int64_t lo, uint8_t* const data) {
  const uint32_t bpp = l.bpp, bpp_log2 = l.bpp_log2, endian_xor = l.endian_xor;
  const uint8_t* px = band.pixels.data();
  // Generic: each byte to its Endian128 position in its 16-byte block.
  auto put_bytes = [&](int64_t offset) {
    for (uint32_t b = 0; b < bpp; ++b) {
      const int64_t o = offset + b;
      data[((o & ~int64_t(15)) | ((o & 15) ^ int64_t(endian_xor))) - lo] = px[b];
    }
    px += bpp;
  };
  for (int32_t y = band.y0; y < band.y1; ++y) {
    if (!dest.Runs(info.x0, y)) {
      for (int32_t x = info.x0; x < info.x1; ++x) put_bytes(int64_t(info.dest_base) + dest.Offset(x, y));
      continue;
    }
    if (bpp == 4 && endian_xor < 4 && (info.dest_base & 3) == 0) {
      // The swap stays inside each pixel's aligned dword.
      switch (endian_xor) {
        case 0: px = LayOutRow32<0>(info, dest, y, lo, px, data); break;
        case 1: px = LayOutRow32<1>(info, dest, y, lo, px, data); break;
        case 2: px = LayOutRow32<2>(info, dest, y, lo, px, data); break;
        default: px = LayOutRow32<3>(info, dest, y, lo, px, data); break;
      }
      continue;
    }
    dest.ForEachRun(info.x0, info.x1, y, [&](int32_t xb, int32_t xe, int64_t run_offset) {
      const int64_t first = int64_t(info.dest_base) + run_offset;
      for (int32_t x = xb; x < xe; ++x) put_bytes(first + (int64_t(x - xb) << bpp_log2));
    });
  }
}

// One computed band into guest bytes [lo, hi): read (unless every byte is written), patched with
// the band's pixels, written back. `bytes` is scratch.
void WriteBand(const ResolveInfo& info, const DestRow& dest, const ResolveBand& band,
               const BandLayout& l, int64_t lo, int64_t hi, const GuestMemoryAccess& memory,
               std::vector<uint8_t>& bytes) {
  if (band.laid) {
    memory.write(uint32_t(lo), std::span<const uint8_t>(band.laid_out.get(), size_t(hi - lo)));
    return;
  }
  bytes.resize(size_t(hi - lo));
  if (!BandFillsItsRange(info, band, l)) memory.read(uint32_t(lo), bytes);
  LayOutBand(info, dest, band, l, lo, bytes.data());
  memory.write(uint32_t(lo), bytes);
}

// Computes the bands of `rows` (compute(band) fills one) on up to `threads` threads and hands
// each to write(band) on the calling thread, in band order, so that overlapping destinations end
// as with one thread. Two sets of bands: while the calling thread writes one batch into guest
// memory, the other threads compute the next batch, which the writer then helps to finish.
template <typename Compute, typename Write>
void ComputeAndWriteBands(const std::vector<std::pair<int32_t, int32_t>>& rows, uint32_t threads,
                          Compute&& compute, Write&& write) {
  const size_t workers = std::clamp<size_t>(threads, 1, rows.size());
  const size_t batch = workers * 2;
  std::vector<ResolveBand> sets[2] = {std::vector<ResolveBand>(batch), std::vector<ResolveBand>(batch)};
  auto assign = [&](std::vector<ResolveBand>& set, size_t first) {
    const size_t count = first < rows.size() ? std::min(batch, rows.size() - first) : 0;
    for (size_t i = 0; i < count; ++i) {
      set[i].y0 = rows[first + i].first;
      set[i].y1 = rows[first + i].second;
    }
    return count;
  };
  size_t count = assign(sets[0], 0);
  RunShares(uint32_t(std::min(workers, count)), [&](uint32_t t, uint32_t n) {
    for (size_t i = t; i < count; i += n) compute(sets[0][i]);
  });
  for (size_t first = 0, current = 0; first < rows.size(); first += batch, current ^= 1) {
    std::vector<ResolveBand>& next = sets[current ^ 1];
    const size_t next_count = assign(next, first + batch);
    std::atomic<size_t> claim{0};
    RunShares(uint32_t(std::min(workers, next_count + 1)), [&](uint32_t t, uint32_t) {
      if (t == 0) {
        for (size_t i = 0; i < count; ++i) write(sets[current][i]);
      }
      for (size_t i = claim++; i < next_count; i = claim++) compute(next[i]);
    });
    count = next_count;
  }
}

}  // namespace

ResolveCopyResult ResolveCopy(const ResolveInfo& info, const edram::Edram& edram,
                              const GuestMemoryAccess& memory, uint32_t threads) {
  ResolveCopyResult result;
  if (!info.copy) return result;
  if (!info.unsupported.empty()) throw Error(info.unsupported);
  if (info.empty()) return result;
  const TextureFormat dest_format = info.dest_format_effective();
  const uint32_t bpp = ResolveDestBytesPerPixel(dest_format);
  if (bpp == 0) throw Error("resolve: destination format is not resolvable");
  const uint32_t bpp_log2 = uint32_t(std::countr_zero(bpp));
  const uint32_t endian_xor = bpp == 1 ? 0u : EndianXor(info.dest_endian);
  const edram::Surface surface = info.SourceSurface();
  const SampleReader reader(surface, edram, info.step_x, info.step_y);
  const auto rt_format = ColorRenderTargetFormat(info.color_format);
  result.bitwise = ResolveIsBitwiseCopy(info);
  const uint32_t first_sample = FirstSample(info.sample_select);

  const uint32_t width = uint32_t(info.x1 - info.x0);
  // The EDRAM holds 2048 x 80 x 16 samples; a rectangle with more pixels than that reads the
  // same samples again (wrapping) and only comes from corrupt registers or vertices. Refusing it
  // also bounds the work (the rectangle itself may be 16376 x 16376).
  const uint64_t edram_samples = uint64_t(xenos::kEdramTileCount) *
                                 xenos::kEdramTileWidthSamples * xenos::kEdramTileHeightSamples *
                                 info.scale_x * info.scale_y;
  if (uint64_t(width) * uint32_t(info.y1 - info.y0) > edram_samples) {
    throw Error("resolve rectangle " + std::to_string(width) + "x" +
                std::to_string(info.y1 - info.y0) + " has more pixels than the EDRAM has samples (" +
                std::to_string(edram_samples) + ")");
  }
  const bool swap_bits = !info.is_depth() && info.dest_swap;

  // Bands of 32 rows: one macro-tile row of the tiled layouts, so a band's span is bounded by
  // the pitch (at most 16384 * 32 * 16 bytes = 8 MiB). A band's pixels depend only on the EDRAM,
  // so bands are computed in parallel; they go into guest memory (read, patched, written back)
  // one after another in order, so overlapping destinations end as with one thread.
  std::vector<std::pair<int32_t, int32_t>> rows;
  for (int32_t band_y = info.y0; band_y < info.y1; band_y = (band_y + 32) & ~31) {
    rows.push_back({band_y, std::min(info.y1, (band_y + 32) & ~31)});
  }
  const DestRow dest(info, bpp_log2);
  const BandLayout layout{width, bpp, bpp_log2, endian_xor};
  auto compute = [&](ResolveBand& band) {
    band.lo = INT64_MAX, band.hi = INT64_MIN;
    band.error = nullptr;
    band.laid = false;
    try {  // (the allocation too: on a worker thread an escaping exception would terminate)
      band.pixels.resize(size_t(width) * uint32_t(band.y1 - band.y0) * bpp);
      RowSampleReader row_reader(surface, edram, info.step_x, info.step_y);
      uint8_t* out = band.pixels.data();
      auto pixel = [&](int32_t x, int32_t y, bool fast) {
        if (result.bitwise) {
          uint64_t bits = fast ? row_reader.Next() : reader.Load(uint32_t(x), uint32_t(y), first_sample);
          if (swap_bits) SwapRedBlueBits(rt_format, bits);
          StoreLE32(out, uint32_t(bits));
          if (bpp == 8) StoreLE32(out + 4, uint32_t(bits >> 32));
        } else {
          uint8_t px[16] = {};
          PackResolveDest(dest_format, ResolveColorPixelFrom(info, reader, uint32_t(x), uint32_t(y)), px);
          std::copy(px, px + bpp, out);
        }
        out += bpp;
      };
      for (int32_t y = band.y0; y < band.y1; ++y) {
        const bool fast = result.bitwise && row_reader.Prepare(info.x0, info.x1, y, first_sample);
        if (!dest.Runs(info.x0, y)) {
          for (int32_t x = info.x0; x < info.x1; ++x) {
            pixel(x, y, fast);
            const int64_t offset = int64_t(info.dest_base) + dest.Offset(x, y);
            band.lo = std::min(band.lo, offset & ~int64_t(15));
            band.hi = std::max(band.hi, ((offset + bpp - 1) | 15) + 1);
          }
          continue;
        }
        // The common copy, one dword per pixel: the whole row at once (the band is packed in
        // x order whatever the destination layout); the runs below then give its range only.
        const bool whole_row = fast && bpp == 4 && row_reader.Contiguous();
        if (whole_row) {
          row_reader.CopyRow32(out, width);
          if (swap_bits) {
            for (uint32_t x = 0; x < width; ++x) {
              uint64_t bits = LoadLE32(out + 4 * x);
              SwapRedBlueBits(rt_format, bits);
              StoreLE32(out + 4 * x, uint32_t(bits));
            }
          }
          out += size_t(width) * 4;
        }
        dest.ForEachRun(info.x0, info.x1, y, [&](int32_t xb, int32_t xe, int64_t run_offset) {
          if (!whole_row && fast && bpp == 4) {  // one dword per pixel, straight
            for (int32_t x = xb; x < xe; ++x, out += 4) {
              uint64_t bits = row_reader.Next();
              if (swap_bits) SwapRedBlueBits(rt_format, bits);
              StoreLE32(out, uint32_t(bits));
            }
          } else if (!whole_row) {
            for (int32_t x = xb; x < xe; ++x) pixel(x, y, fast);
          }
          // Offsets rise along a run: its first pixel has the lowest, its last the highest.
          const int64_t first = int64_t(info.dest_base) + run_offset;
          // (A base that is not a multiple of the pixel size can put a pixel's last byte in
          // the next 16-byte block: the range ends after it.)
          const int64_t last = first + (int64_t(xe - xb - 1) << bpp_log2);
          band.lo = std::min(band.lo, first & ~int64_t(15));
          band.hi = std::max(band.hi, ((last + bpp - 1) | 15) + 1);
        });
      }
      // Laid out here, on the computing thread, when no byte of guest memory is needed: the
      // thread writing bands in order then only copies (its work is the resolve's serial part).
      if (BandFillsItsRange(info, band, layout)) {
        const size_t size = size_t(band.hi - band.lo);
        if (band.laid_capacity < size) {
          band.laid_out.reset(new uint8_t[size]);
          band.laid_capacity = size;
        }
        LayOutBand(info, dest, band, layout, band.lo, band.laid_out.get());
        band.laid = true;
      }
    } catch (...) {
      band.error = std::current_exception();
    }
  };

  std::vector<uint8_t> bytes;
  int64_t lowest = INT64_MAX, highest = INT64_MIN;
  ComputeAndWriteBands(rows, threads, compute, [&](const ResolveBand& band) {
    if (band.error) std::rethrow_exception(band.error);
    const int64_t lo = band.lo, hi = band.hi;
    if (lo < 0 || hi > int64_t(xenos::kPhysicalMemorySize)) {
      throw Error("resolve destination 0x" + std::to_string(info.dest_base) + ": rows " +
                  std::to_string(band.y0) + "-" + std::to_string(band.y1 - 1) +
                  " land outside the 512 MiB physical space");
    }
    if (hi - lo > int64_t(64u << 20)) {
      throw Error("resolve: one band of 32 rows spans " + std::to_string(hi - lo) +
                  " bytes of guest memory (corrupt destination pitch?)");
    }
    WriteBand(info, dest, band, layout, lo, hi, memory, bytes);
    lowest = std::min(lowest, lo);
    highest = std::max(highest, hi);
    const uint64_t pixels = uint64_t(width) * uint32_t(band.y1 - band.y0);
    result.pixels += pixels;
    result.bytes_written += pixels * bpp;
  });
  result.dest_start = uint32_t(lowest);
  result.dest_end = uint32_t(highest);
  return result;
}

uint32_t PackResolveColor(uint32_t host_rgba, bool swap_red_blue, int32_t exp_bias) {
  std::array<float, 4> c = UnpackForResolve(ColorRenderTargetFormat::k_8_8_8_8, host_rgba);
  float factor = std::ldexp(1.0f, exp_bias);
  for (auto& v : c) v *= factor;
  if (swap_red_blue) std::swap(c[0], c[2]);
  uint8_t out[16];
  PackResolveDest(TextureFormat::k_8_8_8_8, c, out);
  return LoadLE32(out);
}

}  // namespace xnt::gpu
