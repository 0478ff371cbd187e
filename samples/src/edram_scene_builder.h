// The EDRAM scenarios' scene builder (edram_scenarios.cpp, edram_exact_formats.cpp): flat and
// textured rectangles with z, resolves (clears, copies, presents) and swaps recorded with the PM4
// builder, and the helpers that paint the expected frames. Coordinates follow flat_scene.h's rule
// (edges at k+0.75 or k-0.25) so coverage is exact under either pixel-centre convention.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "flat_scene.h"
#include "sample_entry.h"
#include "sample_shaders.h"
#include "texture_scene.h"
#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/capture/pm4_builder.h"
#include "xnt/samples/samples.h"
#include "xnt/ucode/assembler.h"
#include "xnt/xenos/registers.h"

namespace xnt::samples::edram_scene {

using capture::Pm4Builder;
using capture::RenderTargetSetup;
using xenos::ColorRenderTargetFormat;
using xenos::CompareFunction;
using xenos::DepthRenderTargetFormat;
using xenos::Reg;
using xenos::TextureFormat;
// Tests that build their own scenes from this builder name it with the builder's other parts.
using samples::kPositionZVertexShader;

inline constexpr uint32_t kRing = 0x00080000;
inline constexpr uint32_t kVertexBase = 0x00010000;  // 128 bytes per rectangle
inline constexpr uint32_t kResolveRects = 0x00070000;
inline constexpr uint32_t kScratch = 0x00300000;
inline constexpr uint32_t kFrontA = 0x00200000;
inline constexpr uint32_t kFrontB = 0x00280000;
inline constexpr uint32_t kTexture = 0x00400000;

using Rgba = std::array<float, 4>;

// A colour given as 8-bit codes, so that every unorm conversion (host and expected) is exact.
inline constexpr Rgba C8(uint32_t r, uint32_t g, uint32_t b, uint32_t a = 255) {
  return {float(r) / 255.0f, float(g) / 255.0f, float(b) / 255.0f, float(a) / 255.0f};
}

struct Rect {
  float x0, y0, x1, y1;  // pixels, edges at k+0.75 / k-0.25
  float z = 0.0f;
  Rgba color{};
  bool Covers(uint32_t x, uint32_t y) const {
    float cx = float(x) + 0.5f, cy = float(y) + 0.5f;
    return cx > x0 && cx < x1 && cy > y0 && cy < y1;
  }
};

struct ResolveOpts {
  uint32_t width = 0, height = 0;
  uint32_t source = 0;  // 0 colour target 0, 4 depth
  uint32_t sample_select = 0;
  uint32_t dest = kScratch, dest_pitch = 0, dest_height = 0;
  TextureFormat format = TextureFormat::k_8_8_8_8;
  xenos::Endian128 endian = xenos::Endian128::k8in32;
  bool clear_color = false, clear_depth = false;
  uint32_t clear_color_value = 0, clear_depth_value = 0;
  uint32_t clear_color_lo = 0;  // RB_COLOR_CLEAR_LO (64bpp targets: the low dword)
  int32_t exp_bias = 0;
  bool swap = false;
};

// Records one scene: everything the GPU reads goes into one memory event before the ring.
class SceneBuilder {
 public:
  SceneBuilder() {
    capture::D3dDeviceDefaults(b_);
    FlatShaders();
    b_.WriteRegister(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kColorDepth));
    vertices_.resize(0x10000);
    rects_.resize(0x1000);
  }
  void Target(const RenderTargetSetup& rt, uint32_t width, uint32_t height) {
    rt_ = rt;
    width_ = width;
    height_ = height;
    capture::D3dSetRenderTarget(b_, rt);
    capture::D3dSetViewport(b_, 0, 0, float(width), float(height));
  }
  // A k_8_8_8_8 colour target at tile 0 and a kD24S8 depth target at `depth_base_tiles`, one
  // sample, `width` pixels of pitch, both cleared by a resolve (RB_COLOR_CLEAR / RB_DEPTH_CLEAR).
  void ColorDepthTarget(uint32_t width, uint32_t height, uint32_t depth_base_tiles,
                        uint32_t clear_color, uint32_t clear_depth) {
    RenderTargetSetup rt;
    rt.surface_pitch = width;
    rt.color_base_tiles = 0;
    rt.depth = true;
    rt.depth_base_tiles = depth_base_tiles;
    Target(rt, width, height);
    Resolve(ResolveOpts{.width = width, .height = height, .clear_color = true, .clear_depth = true,
                        .clear_color_value = clear_color, .clear_depth_value = clear_depth});
  }
  void Depth(bool test, bool write, CompareFunction func) {
    xenos::reg::RB_DEPTHCONTROL d{};
    d.z_enable = test;
    d.z_write_enable = write;
    d.zfunc = func;
    b_.WriteRegister(Reg::RB_DEPTHCONTROL, d.Encode());
  }
  void ColorMask(uint32_t mask) { b_.WriteRegister(Reg::RB_COLOR_MASK, mask); }
  // RB_COLORCONTROL: the alpha test's function (kAlways turns it off, as D3dDeviceDefaults).
  void AlphaTest(CompareFunction func) {
    b_.WriteRegister(Reg::RB_COLORCONTROL,
                     uint32_t(func) | (func != CompareFunction::kAlways ? 8u : 0u));
  }
  // PA_CL_CLIP_CNTL for the following draws (0x00080000: clipping on, Direct3D clip space).
  void ClipControl(uint32_t value) { b_.WriteRegister(Reg::PA_CL_CLIP_CNTL, value); }
  // PA_SU_POINT_SIZE: the constant width and height of point lists, in pixels (even numbers of
  // 1/8: the register holds half-sizes in 12.4 fixed point).
  void PointSize(float width, float height) {
    b_.WriteRegister(Reg::PA_SU_POINT_SIZE,
                     uint32_t(width * 8.0f) << 16 | uint32_t(height * 8.0f));
  }
  // PA_CL_VPORT_ZSCALE / ZOFFSET for the following draws (a resolve sets 1 / 0 again).
  void DepthRange(float scale, float offset) {
    b_.WriteRegisters(Reg::PA_CL_VPORT_ZSCALE,
                      {std::bit_cast<uint32_t>(scale), std::bit_cast<uint32_t>(offset)});
  }
  // PA_CL_UCP_n_X..W: user clip plane n (clip space; PA_CL_CLIP_CNTL ucp_ena enables it).
  void UserClipPlane(uint32_t n, const std::array<float, 4>& plane) {
    b_.WriteRegisters(xenos::Reg(uint32_t(Reg::PA_CL_UCP_0_X) + 4 * n),
                      {std::bit_cast<uint32_t>(plane[0]), std::bit_cast<uint32_t>(plane[1]),
                       std::bit_cast<uint32_t>(plane[2]), std::bit_cast<uint32_t>(plane[3])});
  }
  // VGT_MAX_VTX_INDX, VGT_MIN_VTX_INDX and VGT_INDX_OFFSET (consecutive registers) for the
  // following draws; (0, 0, 0xFFFFFF) is what Direct3D writes.
  void VertexIndexRange(uint32_t offset, uint32_t min_index, uint32_t max_index) {
    b_.WriteRegisters(Reg::VGT_MAX_VTX_INDX, {max_index, min_index, offset});
  }
  // RB_MODECONTROL for the following draws (a resolve sets kColorDepth again).
  void Mode(xenos::ModeControl mode) { b_.WriteRegister(Reg::RB_MODECONTROL, uint32_t(mode)); }
  // PA_SC_WINDOW_SCISSOR_TL/BR (window offset disabled), pixels [x0, x1) x [y0, y1).
  void Scissor(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1) {
    b_.WriteRegisters(Reg::PA_SC_WINDOW_SCISSOR_TL,
                      {0x80000000u | (y0 << 16) | x0, (y1 << 16) | x1});
  }
  // The pixel shader of the following flat draws (XDK listing; c0 is the draw's colour) until
  // FlatPixelShader() with no listing (textured draws in between do not reset it).
  void FlatPixelShader(const std::string& listing = {}) {
    flat_ps_ = listing;
    FlatShaders();
  }
  // The same for the vertex shader (kPositionZVertexShader's vertex format: three floats, the
  // pixel positions' clip-space x, y and z) until FlatVertexShader() with no listing.
  void FlatVertexShader(const std::string& listing = {}) {
    flat_vs_ = listing;
    FlatShaders();
  }
  // PA_SU_VTX_CNTL pix_center: 0 is Direct3D's half-pixel offset (pixel centres on integers, so
  // every position moves by +0.5 pixel), 1 none; the round mode field stays 2.
  void HalfPixelOffset(bool on) { b_.WriteRegister(Reg::PA_SU_VTX_CNTL, on ? 4u : 5u); }
  void Blend(xenos::BlendFactor src, xenos::BlendFactor dst) {
    xenos::reg::RB_BLENDCONTROL c{src, xenos::BlendOp::kAdd, dst, xenos::BlendFactor::kOne,
                                  xenos::BlendOp::kAdd, xenos::BlendFactor::kZero};
    b_.WriteRegister(Reg::RB_BLENDCONTROL0, c.Encode());
  }
  // Guest memory the trace holds before its first frame besides the builder's own vertices
  // (a scene's own vertex buffers and textures), written with them.
  void Memory(uint32_t address, std::vector<uint8_t> bytes) {
    memory_.push_back({address, std::move(bytes)});
  }
  // A draw the scene records itself, with its own shaders, constants and fetch constants; the
  // next flat or textured draw binds the builder's shaders again.
  void Record(const std::function<void(Pm4Builder&)>& record) {
    record(b_);
    own_shaders_ = true;
  }
  void Draw(const Rect& r) {
    DrawFlat({{{r.x0, r.y0, r.z}, {r.x1, r.y0, r.z}, {r.x0, r.y1, r.z}, {r.x1, r.y1, r.z}}},
             r.color, xenos::PrimitiveType::kTriangleStrip);
  }
  // One triangle, its vertices in pixels with z (w = 1), in the given order.
  void DrawTriangle(const std::array<std::array<float, 3>, 3>& v, const Rgba& color) {
    DrawFlat({v[0], v[1], v[2]}, color, xenos::PrimitiveType::kTriangleList);
  }
  // Vertices in pixels with z (w = 1), drawn flat in `color` as one auto-indexed `prim` of
  // `count` vertices (0: all of them; fewer leaves the rest in the buffer for an index offset).
  void DrawFlat(const std::vector<std::array<float, 3>>& pixels, const Rgba& color,
                xenos::PrimitiveType prim, uint32_t count = 0) {
    if (rect_count_ * 128 + 128 > vertices_.size() || pixels.size() > 10) {
      throw Error("scenario: too many rectangles");
    }
    if (textured_ || own_shaders_) FlatShaders();
    const uint32_t address = kVertexBase + rect_count_ * 128;
    for (size_t i = 0; i < pixels.size(); ++i) {
      const float clip[3] = {pixels[i][0] / (float(width_) / 2) - 1.0f,
                             1.0f - pixels[i][1] / (float(height_) / 2), pixels[i][2]};
      for (size_t k = 0; k < 3; ++k) {
        StoreBE32(vertices_.data() + rect_count_ * 128 + (i * 3 + k) * 4,
                  std::bit_cast<uint32_t>(clip[k]));
      }
    }
    ++rect_count_;
    b_.SetAluConstants(256, color);
    capture::D3dSetVertexFetch(b_, 95, address, uint32_t(pixels.size() * 3));
    b_.DrawIndx2Auto(prim, count ? count : uint32_t(pixels.size()));
  }
  // Pixels [x, x + w) x [y, y + h) point-sample texels [0, w) x [0, h) of the texture in
  // `fetch` (texture_scene.h's shaders: edges at k + 0.75, coordinates 0..w/tw across them).
  // `pixel_shader` (XDK listing; coordinate in r0) replaces the plain fetch; `edge` is how far
  // before each pixel boundary the edges sit (0.1 keeps them off host pixel centres at every
  // resolution scale, which 0.25 hits at 2x).
  void DrawTextured(uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint32_t tw, uint32_t th,
                    const std::array<uint32_t, 6>& fetch, const std::string& pixel_shader = {},
                    float edge = 0.25f) {
    if (rect_count_ * 128 + 128 > vertices_.size()) throw Error("scenario: too many rectangles");
    if (!textured_ || own_shaders_ || pixel_shader != textured_ps_) {
      static const auto vs = ucode::AssembleShader(kTexturedVertexShader);
      static const auto ps = ucode::AssembleShader(TexturedPixelShader(TexturedQuadFetch::k2D));
      const auto custom = pixel_shader.empty() ? ps : ucode::AssembleShader(pixel_shader);
      capture::D3dSetShaders(b_, capture::ShaderPair{vs.microcode, custom.microcode, 3,
                                                     pixel_shader.empty() ? 2u : 5u, 1});
      textured_ = true;
      own_shaders_ = false;
      textured_ps_ = pixel_shader;
    }
    const float x0 = float(x) - edge, x1 = float(x + w) - edge;
    const float y0 = float(y) - edge, y1 = float(y + h) - edge;
    const float u1 = float(w) / float(tw), v1 = float(h) / float(th);
    const float corners[4][4] = {{x0, y0, 0, 0}, {x1, y0, u1, 0}, {x0, y1, 0, v1}, {x1, y1, u1, v1}};
    uint32_t address = kVertexBase + rect_count_ * 128;
    for (int i = 0; i < 4; ++i) {
      const float v[5] = {corners[i][0] / (float(width_) / 2) - 1.0f,
                          1.0f - corners[i][1] / (float(height_) / 2), corners[i][2],
                          corners[i][3], 0.0f};
      for (int k = 0; k < 5; ++k) {
        StoreBE32(vertices_.data() + rect_count_ * 128 + (i * 5 + k) * 4,
                  std::bit_cast<uint32_t>(v[k]));
      }
    }
    ++rect_count_;
    b_.SetFetchConstant(0, fetch);
    capture::D3dSetVertexFetch(b_, 95, address, 20);
    b_.DrawIndx2Auto(xenos::PrimitiveType::kTriangleStrip, 4);
  }
  void Resolve(const ResolveOpts& o) {
    if (resolve_count_ * 32 + 32 > rects_.size()) throw Error("scenario: too many resolves");
    uint32_t vertex_address = kResolveRects + resolve_count_ * 32;
    auto v = capture::ResolveRectangleVertices(o.width, o.height);
    std::copy(v.begin(), v.end(), rects_.begin() + resolve_count_ * 32);
    ++resolve_count_;
    capture::D3dSetRenderTarget(b_, rt_);
    xenos::reg::RB_COPY_CONTROL control{o.source, xenos::CopySampleSelect(o.sample_select),
                                        o.clear_color, o.clear_depth, xenos::CopyCommand::kRaw};
    xenos::reg::RB_COPY_DEST_PITCH pitch{o.dest_pitch ? o.dest_pitch : (o.width + 31) & ~31u,
                                         o.dest_height ? o.dest_height : o.height};
    xenos::reg::RB_COPY_DEST_INFO info{o.endian, false, 0, o.format,
                                       xenos::SurfaceNumberFormat::kUnsignedRepeatingFraction,
                                       o.exp_bias, o.swap};
    b_.WriteRegisters(Reg::RB_COPY_CONTROL,
                      {control.Encode(), o.dest, pitch.Encode(), info.Encode()});
    if (o.clear_depth) b_.WriteRegister(Reg::RB_DEPTH_CLEAR, o.clear_depth_value);
    if (o.clear_color) {
      b_.WriteRegisters(Reg::RB_COLOR_CLEAR, {o.clear_color_value, o.clear_color_lo});
    }
    b_.WriteRegisters(Reg::PA_SC_WINDOW_SCISSOR_TL, {0x80000000u, 0x1FFF1FFFu});
    capture::D3dSetVertexFetch(b_, 0, vertex_address, 6);
    b_.WriteRegister(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kCopy));
    b_.DrawIndxAuto(xenos::PrimitiveType::kRectangleList, 3);
    b_.WriteRegister(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kColorDepth));
    // The draws' scissor again (the resolve opened it).
    capture::D3dSetViewport(b_, 0, 0, float(width_), float(height_));
  }
  // Resolves colour target 0 [0, w) x [0, h) to `front` and swaps it.
  void Present(uint32_t front, uint32_t width, uint32_t height) {
    ResolveOpts o;
    o.width = width;
    o.height = height;
    o.dest = front;
    Resolve(o);
    Swap(front, width, height);
  }
  void Swap(uint32_t front, uint32_t width, uint32_t height) {
    capture::D3dSwap(b_, front, width, height);
    // Each frame's PM4 is its own submission followed by its marker, as a capture records it
    // (an .xtr frame boundary then sits after the swap that ends it).
    std::vector<uint32_t> dwords = b_.Take();
    uint32_t address = kRing + ring_dwords_ * 4;
    ring_dwords_ += uint32_t(dwords.size());
    frames_.push_back({format::Submission{format::SubmissionKind::kRingBuffer, address,
                                          std::move(dwords)},
                       {0, front, width, height, uint32_t(TextureFormat::k_8_8_8_8)}});
  }
  void Write(format::Writer& w) {
    w.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kVertexBase,
                                std::vector<uint8_t>(vertices_.begin(),
                                                     vertices_.begin() + rect_count_ * 128)});
    w.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, kResolveRects,
                                std::vector<uint8_t>(rects_.begin(),
                                                     rects_.begin() + resolve_count_ * 32)});
    for (const auto& m : memory_) {
      w.Write(format::MemoryEvent{format::MemoryEventKind::kGpuRead, m.address, m.bytes});
    }
    for (const auto& f : frames_) {
      w.Write(f.submission);
      w.Write(f.marker);
    }
    std::vector<uint32_t> rest = b_.Take();
    if (!rest.empty()) {
      w.Write(format::Submission{format::SubmissionKind::kRingBuffer, kRing + ring_dwords_ * 4,
                                 std::move(rest)});
    }
  }

 private:
  void FlatShaders() {
    static const auto default_vs = ucode::AssembleShader(kPositionZVertexShader);
    static const auto ps = ucode::AssembleShader(kConstantColorPixelShader);
    const auto vs = flat_vs_.empty() ? default_vs : ucode::AssembleShader(flat_vs_);
    if (flat_ps_.empty()) {
      capture::D3dSetShaders(b_, capture::ShaderPair{vs.microcode, ps.microcode, 2, 1, 1});
    } else {
      const auto custom = ucode::AssembleShader(flat_ps_);
      capture::D3dSetShaders(b_, capture::ShaderPair{vs.microcode, custom.microcode, 2, 2, 1});
    }
    textured_ = false;
    own_shaders_ = false;
  }

  Pm4Builder b_;
  bool textured_ = false;
  bool own_shaders_ = false;  // Record() bound shaders of the scene's own
  std::string textured_ps_;
  std::string flat_ps_;  // FlatPixelShader's listing, "" for kConstantColorPixelShader
  std::string flat_vs_;  // FlatVertexShader's listing, "" for kPositionZVertexShader
  RenderTargetSetup rt_;
  uint32_t width_ = 0, height_ = 0, rect_count_ = 0, resolve_count_ = 0;
  std::vector<uint8_t> vertices_, rects_;
  struct FrameRecords {
    format::Submission submission;
    format::FrameMarker marker;
  };
  std::vector<FrameRecords> frames_;
  struct ExtraMemory {
    uint32_t address;
    std::vector<uint8_t> bytes;
  };
  std::vector<ExtraMemory> memory_;
  uint32_t ring_dwords_ = 0;
};

// ---- Expected images ----------------------------------------------------------------------------

inline Image Fill(uint32_t w, uint32_t h, std::array<uint8_t, 4> c) {
  Image img{w, h, std::vector<uint8_t>(size_t(w) * h * 4)};
  for (size_t i = 0; i < size_t(w) * h; ++i) std::copy(c.begin(), c.end(), img.rgba.begin() + 4 * i);
  return img;
}
inline void Paint(Image& img, const Rect& r, std::array<uint8_t, 4> c) {
  for (uint32_t y = 0; y < img.height; ++y) {
    for (uint32_t x = 0; x < img.width; ++x) {
      if (r.Covers(x, y)) std::copy(c.begin(), c.end(), img.rgba.begin() + 4 * (size_t(y) * img.width + x));
    }
  }
}
// Unorm8 of a float as the packing rules do (saturate, * 255, + 0.5, truncate).
inline uint8_t U8(float v) { return uint8_t(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f); }
inline std::array<uint8_t, 4> U8(const Rgba& c) { return {U8(c[0]), U8(c[1]), U8(c[2]), U8(c[3])}; }
inline uint32_t Packed8888(std::array<uint8_t, 4> c) {
  return uint32_t(c[0]) | uint32_t(c[1]) << 8 | uint32_t(c[2]) << 16 | uint32_t(c[3]) << 24;
}
// A depth dword (depth24 << 8 | stencil) read as k_8_8_8_8: stencil in R, depth bits 7:0 in G,
// 15:8 in B, 23:16 in A -- but the swap shows frames opaque (swap.cpp), so alpha reads 255.
inline std::array<uint8_t, 4> DepthAsColor(uint32_t dword) {
  return {uint8_t(dword), uint8_t(dword >> 8), uint8_t(dword >> 16), 255};
}

inline Sample MakeSample(std::string name, std::string description, std::string expected,
                         std::function<void(SceneBuilder&)> build,
                         std::function<std::vector<Image>()> frames) {
  return DescribedSample(
      std::move(name), std::move(description), std::move(expected),
      [build](format::Writer& w) {
        SceneBuilder b;
        build(b);
        b.Write(w);
      },
      [frames] { return frames().back(); });
}

// The scenarios' usual background.
inline constexpr std::array<uint8_t, 4> kDark = {0x10, 0x18, 0x20, 0xFF};

}  // namespace xnt::samples::edram_scene
