// Xenos register indices (dword indices into the 0x5003-entry register file) and decoders for the
// registers people read.
//
// Indices: Xenia src/xenia/gpu/register_table.inc (see register_table.inc here). Bit layouts:
// Xenia src/xenia/gpu/registers.h (the `union ... { struct { ... } }` definitions, newest
// revision with explicit padding fields) and xenos.h
// Each decoder is a plain struct with Decode(uint32_t) and Encode(), built from shifts and masks.
#pragma once

#include <cstdint>

#include "xnt/xenos/enums.h"

namespace xnt::xenos {

enum class Reg : uint32_t {
#define XNT_XENOS_REGISTER(index, name) name = index,
#include "xnt/xenos/register_table.inc"
#undef XNT_XENOS_REGISTER
};

constexpr uint32_t RegIndex(Reg r) { return uint32_t(r); }

// ---- Register file layout -----------------------------------------------------------------------

// Xenia RegisterFile::kRegisterCount.
constexpr uint32_t kRegisterCount = 0x5003;

// 512 float4 ALU constants (SHADER_CONSTANT_000_X .. SHADER_CONSTANT_511_W).
constexpr uint32_t kAluConstantBase = 0x4000;
constexpr uint32_t kAluConstantDwords = 512 * 4;
// 32 six-dword fetch constant groups (SHADER_CONSTANT_FETCH_00_0 .. _31_5).
constexpr uint32_t kFetchConstantBase = 0x4800;
constexpr uint32_t kFetchConstantDwords = 32 * 6;
// 256 boolean constants, 32 per dword (SHADER_CONSTANT_BOOL_000_031 ..).
constexpr uint32_t kBoolConstantBase = 0x4900;
constexpr uint32_t kBoolConstantDwords = 8;
// 32 loop constants (SHADER_CONSTANT_LOOP_00 ..).
constexpr uint32_t kLoopConstantBase = 0x4908;
constexpr uint32_t kLoopConstantDwords = 32;
// SHADER_CONSTANT_FLUSH_FETCH_0..2.
constexpr uint32_t kFlushFetchBase = 0x5000;
constexpr uint32_t kFlushFetchDwords = 3;

constexpr uint32_t AluConstantIndex(uint32_t vec4, uint32_t component) {
  return kAluConstantBase + vec4 * 4 + component;
}
constexpr uint32_t FetchConstantIndex(uint32_t group, uint32_t dword) {
  return kFetchConstantBase + group * 6 + dword;
}
// Vertex fetch constant n (0..95) is dwords 2n, 2n+1 of the fetch area.
constexpr uint32_t VertexFetchConstantIndex(uint32_t n) { return kFetchConstantBase + n * 2; }
constexpr uint32_t BoolConstantIndex(uint32_t bit) { return kBoolConstantBase + bit / 32; }
constexpr uint32_t LoopConstantIndex(uint32_t n) { return kLoopConstantBase + n; }

// Per-render-target register indices (RB_COLOR_INFO has a gap for RB_DEPTH_INFO).
constexpr Reg kColorInfoRegs[4] = {Reg::RB_COLOR_INFO, Reg::RB_COLOR1_INFO, Reg::RB_COLOR2_INFO,
                                   Reg::RB_COLOR3_INFO};
constexpr Reg kBlendControlRegs[4] = {Reg::RB_BLENDCONTROL0, Reg::RB_BLENDCONTROL1,
                                      Reg::RB_BLENDCONTROL2, Reg::RB_BLENDCONTROL3};

// ---- Decoders -----------------------------------------------------------------------------------

// All decoders follow Xenia registers.h field order and widths; "+N" comments are bit offsets.
namespace reg {

struct RB_SURFACE_INFO {
  uint32_t surface_pitch;    // +0, 14 bits, pixels
  MsaaSamples msaa_samples;  // +16, 2 bits
  uint32_t hiz_pitch;        // +18, 14 bits
  static constexpr Reg kReg = Reg::RB_SURFACE_INFO;
  static constexpr RB_SURFACE_INFO Decode(uint32_t v) {
    return {Bits(v, 0, 14), MsaaSamples(Bits(v, 16, 2)), Bits(v, 18, 14)};
  }
  constexpr uint32_t Encode() const {
    return Field(surface_pitch, 0, 14) | Field(uint32_t(msaa_samples), 16, 2) |
           Field(hiz_pitch, 18, 14);
  }
};

// RB_COLOR_INFO and RB_COLOR1/2/3_INFO. The R400 field is 12 bits; the Xenos addresses EDRAM
// with 11 bits of tiles (addressing wraps), so bit 11 is kept apart as Xenia does.
struct RB_COLOR_INFO {
  uint32_t color_base;          // +0, 11 bits, tiles
  uint32_t color_base_bit_11;   // +11
  ColorRenderTargetFormat color_format;  // +16, 4 bits
  int32_t color_exp_bias;       // +20, 6 bits signed
  static constexpr Reg kReg = Reg::RB_COLOR_INFO;
  static constexpr RB_COLOR_INFO Decode(uint32_t v) {
    return {Bits(v, 0, 11), Bits(v, 11, 1), ColorRenderTargetFormat(Bits(v, 16, 4)),
            SignedBits(v, 20, 6)};
  }
  constexpr uint32_t Encode() const {
    return Field(color_base, 0, 11) | Field(color_base_bit_11, 11, 1) |
           Field(uint32_t(color_format), 16, 4) | Field(uint32_t(color_exp_bias), 20, 6);
  }
};

struct RB_DEPTH_INFO {
  uint32_t depth_base;         // +0, 11 bits, tiles
  uint32_t depth_base_bit_11;  // +11
  DepthRenderTargetFormat depth_format;  // +16, 1 bit
  static constexpr Reg kReg = Reg::RB_DEPTH_INFO;
  static constexpr RB_DEPTH_INFO Decode(uint32_t v) {
    return {Bits(v, 0, 11), Bits(v, 11, 1), DepthRenderTargetFormat(Bits(v, 16, 1))};
  }
  constexpr uint32_t Encode() const {
    return Field(depth_base, 0, 11) | Field(depth_base_bit_11, 11, 1) |
           Field(uint32_t(depth_format), 16, 1);
  }
};

// Four bits (R, G, B, A from bit 0 up) per render target.
struct RB_COLOR_MASK {
  uint32_t value;
  static constexpr Reg kReg = Reg::RB_COLOR_MASK;
  static constexpr RB_COLOR_MASK Decode(uint32_t v) { return {v & 0xFFFFu}; }
  constexpr uint32_t Encode() const { return value & 0xFFFFu; }
  constexpr uint32_t rt_mask(uint32_t rt) const { return (value >> (rt * 4)) & 0xFu; }
};

// RB_BLENDCONTROL0..3.
struct RB_BLENDCONTROL {
  BlendFactor color_srcblend;   // +0, 5 bits
  BlendOp color_comb_fcn;       // +5, 3 bits
  BlendFactor color_destblend;  // +8, 5 bits
  BlendFactor alpha_srcblend;   // +16, 5 bits
  BlendOp alpha_comb_fcn;       // +21, 3 bits
  BlendFactor alpha_destblend;  // +24, 5 bits
  static constexpr Reg kReg = Reg::RB_BLENDCONTROL0;
  static constexpr RB_BLENDCONTROL Decode(uint32_t v) {
    return {BlendFactor(Bits(v, 0, 5)),  BlendOp(Bits(v, 5, 3)),  BlendFactor(Bits(v, 8, 5)),
            BlendFactor(Bits(v, 16, 5)), BlendOp(Bits(v, 21, 3)), BlendFactor(Bits(v, 24, 5))};
  }
  constexpr uint32_t Encode() const {
    return Field(uint32_t(color_srcblend), 0, 5) | Field(uint32_t(color_comb_fcn), 5, 3) |
           Field(uint32_t(color_destblend), 8, 5) | Field(uint32_t(alpha_srcblend), 16, 5) |
           Field(uint32_t(alpha_comb_fcn), 21, 3) | Field(uint32_t(alpha_destblend), 24, 5);
  }
};

struct RB_DEPTHCONTROL {
  bool stencil_enable;              // +0
  bool z_enable;                    // +1
  bool z_write_enable;              // +2
  CompareFunction zfunc;            // +4, 3 bits
  bool backface_enable;             // +7
  CompareFunction stencilfunc;      // +8
  StencilOp stencilfail;            // +11
  StencilOp stencilzpass;           // +14
  StencilOp stencilzfail;           // +17
  CompareFunction stencilfunc_bf;   // +20
  StencilOp stencilfail_bf;         // +23
  StencilOp stencilzpass_bf;        // +26
  StencilOp stencilzfail_bf;        // +29
  static constexpr Reg kReg = Reg::RB_DEPTHCONTROL;
  static constexpr RB_DEPTHCONTROL Decode(uint32_t v) {
    return {Bits(v, 0, 1) != 0,
            Bits(v, 1, 1) != 0,
            Bits(v, 2, 1) != 0,
            CompareFunction(Bits(v, 4, 3)),
            Bits(v, 7, 1) != 0,
            CompareFunction(Bits(v, 8, 3)),
            StencilOp(Bits(v, 11, 3)),
            StencilOp(Bits(v, 14, 3)),
            StencilOp(Bits(v, 17, 3)),
            CompareFunction(Bits(v, 20, 3)),
            StencilOp(Bits(v, 23, 3)),
            StencilOp(Bits(v, 26, 3)),
            StencilOp(Bits(v, 29, 3))};
  }
  constexpr uint32_t Encode() const {
    return Field(stencil_enable, 0, 1) | Field(z_enable, 1, 1) | Field(z_write_enable, 2, 1) |
           Field(uint32_t(zfunc), 4, 3) | Field(backface_enable, 7, 1) |
           Field(uint32_t(stencilfunc), 8, 3) | Field(uint32_t(stencilfail), 11, 3) |
           Field(uint32_t(stencilzpass), 14, 3) | Field(uint32_t(stencilzfail), 17, 3) |
           Field(uint32_t(stencilfunc_bf), 20, 3) | Field(uint32_t(stencilfail_bf), 23, 3) |
           Field(uint32_t(stencilzpass_bf), 26, 3) | Field(uint32_t(stencilzfail_bf), 29, 3);
  }
};

// RB_STENCILREFMASK and RB_STENCILREFMASK_BF.
struct RB_STENCILREFMASK {
  uint32_t stencilref;        // +0, 8 bits
  uint32_t stencilmask;       // +8
  uint32_t stencilwritemask;  // +16
  static constexpr Reg kReg = Reg::RB_STENCILREFMASK;
  static constexpr RB_STENCILREFMASK Decode(uint32_t v) {
    return {Bits(v, 0, 8), Bits(v, 8, 8), Bits(v, 16, 8)};
  }
  constexpr uint32_t Encode() const {
    return Field(stencilref, 0, 8) | Field(stencilmask, 8, 8) | Field(stencilwritemask, 16, 8);
  }
};

struct RB_MODECONTROL {
  ModeControl edram_mode;  // +0, 3 bits
  static constexpr Reg kReg = Reg::RB_MODECONTROL;
  static constexpr RB_MODECONTROL Decode(uint32_t v) { return {ModeControl(Bits(v, 0, 3))}; }
  constexpr uint32_t Encode() const { return Field(uint32_t(edram_mode), 0, 3); }
};

struct RB_COLORCONTROL {
  CompareFunction alpha_func;  // +0, 3 bits
  bool alpha_test_enable;      // +3
  bool alpha_to_mask_enable;   // +4
  uint32_t alpha_to_mask_offset[4];  // +24, +26, +28, +30, 2 bits each
  static constexpr Reg kReg = Reg::RB_COLORCONTROL;
  static constexpr RB_COLORCONTROL Decode(uint32_t v) {
    return {CompareFunction(Bits(v, 0, 3)),
            Bits(v, 3, 1) != 0,
            Bits(v, 4, 1) != 0,
            {Bits(v, 24, 2), Bits(v, 26, 2), Bits(v, 28, 2), Bits(v, 30, 2)}};
  }
};

struct RB_COPY_CONTROL {
  uint32_t copy_src_select;             // +0, 3 bits: 0-3 colour RT, 4 depth
  CopySampleSelect copy_sample_select;  // +4, 3 bits
  bool color_clear_enable;              // +8
  bool depth_clear_enable;              // +9
  CopyCommand copy_command;             // +20, 2 bits
  static constexpr Reg kReg = Reg::RB_COPY_CONTROL;
  static constexpr RB_COPY_CONTROL Decode(uint32_t v) {
    return {Bits(v, 0, 3), CopySampleSelect(Bits(v, 4, 3)), Bits(v, 8, 1) != 0,
            Bits(v, 9, 1) != 0, CopyCommand(Bits(v, 20, 2))};
  }
  constexpr uint32_t Encode() const {
    return Field(copy_src_select, 0, 3) | Field(uint32_t(copy_sample_select), 4, 3) |
           Field(color_clear_enable, 8, 1) | Field(depth_clear_enable, 9, 1) |
           Field(uint32_t(copy_command), 20, 2);
  }
};

struct RB_COPY_DEST_PITCH {
  uint32_t copy_dest_pitch;   // +0, 14 bits
  uint32_t copy_dest_height;  // +16, 14 bits
  static constexpr Reg kReg = Reg::RB_COPY_DEST_PITCH;
  static constexpr RB_COPY_DEST_PITCH Decode(uint32_t v) { return {Bits(v, 0, 14), Bits(v, 16, 14)}; }
  constexpr uint32_t Encode() const {
    return Field(copy_dest_pitch, 0, 14) | Field(copy_dest_height, 16, 14);
  }
};

// Bit 3 is "array" (3D/stacked destination), not "linear": resolves always write 32x32-tiled
// memory (Xenia's "Implement memexport" discussion).
struct RB_COPY_DEST_INFO {
  Endian128 copy_dest_endian;            // +0, 3 bits
  bool copy_dest_array;                  // +3
  uint32_t copy_dest_slice;              // +4, 3 bits
  TextureFormat copy_dest_format;        // +7, 6 bits (a ColorFormat)
  SurfaceNumberFormat copy_dest_number;  // +13, 3 bits
  int32_t copy_dest_exp_bias;            // +16, 6 bits signed
  bool copy_dest_swap;                   // +24
  static constexpr Reg kReg = Reg::RB_COPY_DEST_INFO;
  static constexpr RB_COPY_DEST_INFO Decode(uint32_t v) {
    return {Endian128(Bits(v, 0, 3)),           Bits(v, 3, 1) != 0,  Bits(v, 4, 3),
            TextureFormat(Bits(v, 7, 6)),       SurfaceNumberFormat(Bits(v, 13, 3)),
            SignedBits(v, 16, 6),               Bits(v, 24, 1) != 0};
  }
  constexpr uint32_t Encode() const {
    return Field(uint32_t(copy_dest_endian), 0, 3) | Field(copy_dest_array, 3, 1) |
           Field(copy_dest_slice, 4, 3) | Field(uint32_t(copy_dest_format), 7, 6) |
           Field(uint32_t(copy_dest_number), 13, 3) | Field(uint32_t(copy_dest_exp_bias), 16, 6) |
           Field(copy_dest_swap, 24, 1);
  }
};

// RB_DEPTH_CLEAR: depth in bits 31:8, stencil in 7:0 (the D24S8 / D24FS8 packing). RB_COLOR_CLEAR
// (and RB_COLOR_CLEAR_LO for the low half of 64bpp formats) is a raw packed colour.
struct RB_DEPTH_CLEAR {
  uint32_t depth;    // 24 bits
  uint32_t stencil;  // 8 bits
  static constexpr Reg kReg = Reg::RB_DEPTH_CLEAR;
  static constexpr RB_DEPTH_CLEAR Decode(uint32_t v) { return {Bits(v, 8, 24), Bits(v, 0, 8)}; }
  constexpr uint32_t Encode() const { return Field(depth, 8, 24) | Field(stencil, 0, 8); }
};

struct PA_SC_WINDOW_OFFSET {
  int32_t window_x_offset;  // +0, 15 bits signed
  int32_t window_y_offset;  // +16, 15 bits signed
  static constexpr Reg kReg = Reg::PA_SC_WINDOW_OFFSET;
  static constexpr PA_SC_WINDOW_OFFSET Decode(uint32_t v) {
    return {SignedBits(v, 0, 15), SignedBits(v, 16, 15)};
  }
  constexpr uint32_t Encode() const {
    return Field(uint32_t(window_x_offset), 0, 15) | Field(uint32_t(window_y_offset), 16, 15);
  }
};

struct PA_SC_WINDOW_SCISSOR_TL {
  uint32_t tl_x;               // +0, 14 bits
  uint32_t tl_y;               // +16, 14 bits
  bool window_offset_disable;  // +31
  static constexpr Reg kReg = Reg::PA_SC_WINDOW_SCISSOR_TL;
  static constexpr PA_SC_WINDOW_SCISSOR_TL Decode(uint32_t v) {
    return {Bits(v, 0, 14), Bits(v, 16, 14), Bits(v, 31, 1) != 0};
  }
  constexpr uint32_t Encode() const {
    return Field(tl_x, 0, 14) | Field(tl_y, 16, 14) | Field(window_offset_disable, 31, 1);
  }
};

struct PA_SC_WINDOW_SCISSOR_BR {
  uint32_t br_x;  // +0, 14 bits
  uint32_t br_y;  // +16, 14 bits
  static constexpr Reg kReg = Reg::PA_SC_WINDOW_SCISSOR_BR;
  static constexpr PA_SC_WINDOW_SCISSOR_BR Decode(uint32_t v) {
    return {Bits(v, 0, 14), Bits(v, 16, 14)};
  }
  constexpr uint32_t Encode() const { return Field(br_x, 0, 14) | Field(br_y, 16, 14); }
};

struct PA_SC_SCREEN_SCISSOR_TL {
  int32_t tl_x;  // +0, 15 bits signed
  int32_t tl_y;  // +16, 15 bits signed
  static constexpr Reg kReg = Reg::PA_SC_SCREEN_SCISSOR_TL;
  static constexpr PA_SC_SCREEN_SCISSOR_TL Decode(uint32_t v) {
    return {SignedBits(v, 0, 15), SignedBits(v, 16, 15)};
  }
  constexpr uint32_t Encode() const {
    return Field(uint32_t(tl_x), 0, 15) | Field(uint32_t(tl_y), 16, 15);
  }
};

struct PA_SC_SCREEN_SCISSOR_BR {
  int32_t br_x;  // +0, 15 bits signed
  int32_t br_y;  // +16, 15 bits signed
  static constexpr Reg kReg = Reg::PA_SC_SCREEN_SCISSOR_BR;
  static constexpr PA_SC_SCREEN_SCISSOR_BR Decode(uint32_t v) {
    return {SignedBits(v, 0, 15), SignedBits(v, 16, 15)};
  }
  constexpr uint32_t Encode() const {
    return Field(uint32_t(br_x), 0, 15) | Field(uint32_t(br_y), 16, 15);
  }
};

// Clipper control (Xenia xenos registers.h PA_CL_CLIP_CNTL; draw_util.cc GetHostViewportInfo).
// clip_disable: no clipping against the depth range (Xenia clamps depth to the viewport's 0..1
// instead, and Direct3D 9 sets it for screen-space draws such as clears); dx_clip_space_def:
// Direct3D's 0 <= z <= w clip space (1; what D3D titles write: 0x00080000) or OpenGL's
// -w <= z <= w (0). ucp_ena: user clip planes 0..5 (PA_CL_UCP_n_X..W); ucp_cull_only_ena: the
// planes cull whole primitives instead of clipping them; vtx_kill_or: a primitive dies when any
// of its vertices is killed (oPts.z) rather than all (gpu/primitive_clip.h); ps_ucp_mode: how
// the user planes treat point sprites (gpu/primitive_clip.h: by the centre or at the corners of
// the expanded sprite).
struct PA_CL_CLIP_CNTL {
  uint32_t ucp_ena;             // +0, 6 bits
  bool clip_disable;            // +16
  bool boundary_edge_flag_ena;  // +18
  bool dx_clip_space_def;       // +19
  bool dis_clip_err_detect;     // +20
  bool vtx_kill_or;             // +21
  bool ucp_cull_only_ena;       // +17
  uint32_t ps_ucp_mode;         // +14, 2 bits
  static constexpr Reg kReg = Reg::PA_CL_CLIP_CNTL;
  static constexpr PA_CL_CLIP_CNTL Decode(uint32_t v) {
    return {Bits(v, 0, 6),       Bits(v, 16, 1) != 0, Bits(v, 18, 1) != 0,
            Bits(v, 19, 1) != 0, Bits(v, 20, 1) != 0, Bits(v, 21, 1) != 0,
            Bits(v, 17, 1) != 0, Bits(v, 14, 2)};
  }
  constexpr uint32_t Encode() const {
    return Field(ucp_ena, 0, 6) | Field(clip_disable, 16, 1) | Field(ucp_cull_only_ena, 17, 1) |
           Field(boundary_edge_flag_ena, 18, 1) | Field(dx_clip_space_def, 19, 1) |
           Field(dis_clip_err_detect, 20, 1) | Field(vtx_kill_or, 21, 1) |
           Field(ps_ucp_mode, 14, 2);
  }
};

struct PA_CL_VTE_CNTL {
  bool vport_x_scale_ena;   // +0
  bool vport_x_offset_ena;  // +1
  bool vport_y_scale_ena;   // +2
  bool vport_y_offset_ena;  // +3
  bool vport_z_scale_ena;   // +4
  bool vport_z_offset_ena;  // +5
  bool vtx_xy_fmt;          // +8
  bool vtx_z_fmt;           // +9
  bool vtx_w0_fmt;          // +10
  bool perfcounter_ref;     // +11
  static constexpr Reg kReg = Reg::PA_CL_VTE_CNTL;
  static constexpr PA_CL_VTE_CNTL Decode(uint32_t v) {
    return {Bits(v, 0, 1) != 0, Bits(v, 1, 1) != 0, Bits(v, 2, 1) != 0, Bits(v, 3, 1) != 0,
            Bits(v, 4, 1) != 0, Bits(v, 5, 1) != 0, Bits(v, 8, 1) != 0, Bits(v, 9, 1) != 0,
            Bits(v, 10, 1) != 0, Bits(v, 11, 1) != 0};
  }
  constexpr uint32_t Encode() const {
    return Field(vport_x_scale_ena, 0, 1) | Field(vport_x_offset_ena, 1, 1) |
           Field(vport_y_scale_ena, 2, 1) | Field(vport_y_offset_ena, 3, 1) |
           Field(vport_z_scale_ena, 4, 1) | Field(vport_z_offset_ena, 5, 1) |
           Field(vtx_xy_fmt, 8, 1) | Field(vtx_z_fmt, 9, 1) | Field(vtx_w0_fmt, 10, 1) |
           Field(perfcounter_ref, 11, 1);
  }
};

struct PA_SU_SC_MODE_CNTL {
  bool cull_front;                    // +0
  bool cull_back;                     // +1
  bool face;                          // +2: 0 front is CCW, 1 front is CW
  PolygonModeEnable poly_mode;        // +3, 2 bits
  PolygonType polymode_front_ptype;   // +5, 3 bits
  PolygonType polymode_back_ptype;    // +8, 3 bits
  bool poly_offset_front_enable;      // +11
  bool poly_offset_back_enable;       // +12
  bool poly_offset_para_enable;       // +13
  bool msaa_enable;                   // +15
  bool vtx_window_offset_enable;      // +16
  bool provoking_vtx_last;            // +19
  bool persp_corr_dis;                // +20
  bool multi_prim_ib_ena;             // +21
  bool quad_order_enable;             // +23
  bool sc_one_quad_per_clock;         // +24
  static constexpr Reg kReg = Reg::PA_SU_SC_MODE_CNTL;
  static constexpr PA_SU_SC_MODE_CNTL Decode(uint32_t v) {
    return {Bits(v, 0, 1) != 0,  Bits(v, 1, 1) != 0,  Bits(v, 2, 1) != 0,
            PolygonModeEnable(Bits(v, 3, 2)), PolygonType(Bits(v, 5, 3)),
            PolygonType(Bits(v, 8, 3)),       Bits(v, 11, 1) != 0, Bits(v, 12, 1) != 0,
            Bits(v, 13, 1) != 0, Bits(v, 15, 1) != 0, Bits(v, 16, 1) != 0,
            Bits(v, 19, 1) != 0, Bits(v, 20, 1) != 0, Bits(v, 21, 1) != 0,
            Bits(v, 23, 1) != 0, Bits(v, 24, 1) != 0};
  }
  constexpr uint32_t Encode() const {
    return Field(cull_front, 0, 1) | Field(cull_back, 1, 1) | Field(face, 2, 1) |
           Field(uint32_t(poly_mode), 3, 2) | Field(uint32_t(polymode_front_ptype), 5, 3) |
           Field(uint32_t(polymode_back_ptype), 8, 3) | Field(poly_offset_front_enable, 11, 1) |
           Field(poly_offset_back_enable, 12, 1) | Field(poly_offset_para_enable, 13, 1) |
           Field(msaa_enable, 15, 1) | Field(vtx_window_offset_enable, 16, 1) |
           Field(provoking_vtx_last, 19, 1) | Field(persp_corr_dis, 20, 1) |
           Field(multi_prim_ib_ena, 21, 1) | Field(quad_order_enable, 23, 1) |
           Field(sc_one_quad_per_clock, 24, 1);
  }
  constexpr CullMode cull_mode() const {
    return CullMode((cull_front ? 1u : 0u) | (cull_back ? 2u : 0u));
  }
};

struct VGT_DRAW_INITIATOR {
  PrimitiveType prim_type;      // +0, 6 bits
  SourceSelect source_select;   // +6, 2 bits
  MajorMode major_mode;         // +8, 2 bits
  IndexFormat index_size;       // +11
  bool not_eop;                 // +12
  uint32_t num_indices;         // +16, 16 bits
  static constexpr Reg kReg = Reg::VGT_DRAW_INITIATOR;
  static constexpr VGT_DRAW_INITIATOR Decode(uint32_t v) {
    return {PrimitiveType(Bits(v, 0, 6)), SourceSelect(Bits(v, 6, 2)), MajorMode(Bits(v, 8, 2)),
            IndexFormat(Bits(v, 11, 1)),  Bits(v, 12, 1) != 0,         Bits(v, 16, 16)};
  }
  constexpr uint32_t Encode() const {
    return Field(uint32_t(prim_type), 0, 6) | Field(uint32_t(source_select), 6, 2) |
           Field(uint32_t(major_mode), 8, 2) | Field(uint32_t(index_size), 11, 1) |
           Field(not_eop, 12, 1) | Field(num_indices, 16, 16);
  }
};

// VGT_DMA_BASE is a plain byte address; VGT_DMA_SIZE holds the index count and swap mode.
struct VGT_DMA_SIZE {
  uint32_t num_words;  // +0, 24 bits: indices (not bytes)
  Endian swap_mode;    // +30, 2 bits
  static constexpr Reg kReg = Reg::VGT_DMA_SIZE;
  static constexpr VGT_DMA_SIZE Decode(uint32_t v) { return {Bits(v, 0, 24), Endian(Bits(v, 30, 2))}; }
  constexpr uint32_t Encode() const {
    return Field(num_words, 0, 24) | Field(uint32_t(swap_mode), 30, 2);
  }
};

// vs_num_reg / ps_num_reg are 8 bits in the newest Xenia registers.h (a2xx.xml: bit 7 set means
// "0 registers"); the research note's 6 bits is the older reading. Register count =
// (num_reg & 0x80) ? 0 : num_reg + 1.
struct SQ_PROGRAM_CNTL {
  uint32_t vs_num_reg;       // +0, 8 bits
  uint32_t ps_num_reg;       // +8, 8 bits
  bool vs_resource;          // +16
  bool ps_resource;          // +17
  bool param_gen;            // +18
  bool gen_index_pix;        // +19
  uint32_t vs_export_count;  // +20, 4 bits (minus one)
  VertexShaderExportMode vs_export_mode;  // +24, 3 bits
  uint32_t ps_export_mode;   // +27, 4 bits
  bool gen_index_vtx;        // +31
  static constexpr Reg kReg = Reg::SQ_PROGRAM_CNTL;
  static constexpr SQ_PROGRAM_CNTL Decode(uint32_t v) {
    return {Bits(v, 0, 8),        Bits(v, 8, 8),        Bits(v, 16, 1) != 0,
            Bits(v, 17, 1) != 0,  Bits(v, 18, 1) != 0,  Bits(v, 19, 1) != 0,
            Bits(v, 20, 4),       VertexShaderExportMode(Bits(v, 24, 3)),
            Bits(v, 27, 4),       Bits(v, 31, 1) != 0};
  }
  constexpr uint32_t Encode() const {
    return Field(vs_num_reg, 0, 8) | Field(ps_num_reg, 8, 8) | Field(vs_resource, 16, 1) |
           Field(ps_resource, 17, 1) | Field(param_gen, 18, 1) | Field(gen_index_pix, 19, 1) |
           Field(vs_export_count, 20, 4) | Field(uint32_t(vs_export_mode), 24, 3) |
           Field(ps_export_mode, 27, 4) | Field(gen_index_vtx, 31, 1);
  }
};

struct SQ_CONTEXT_MISC {
  bool inst_pred_optimize;       // +0
  bool sc_output_screen_xy;      // +1
  SampleControl sc_sample_cntl;  // +2, 2 bits
  uint32_t param_gen_pos;        // +8, 8 bits: interpolator receiving PsParamGen
  bool perfcounter_ref;          // +16
  bool yeild_optimize;           // +17 (sic, as in the hardware headers)
  bool tx_cache_sel;             // +18
  static constexpr Reg kReg = Reg::SQ_CONTEXT_MISC;
  static constexpr SQ_CONTEXT_MISC Decode(uint32_t v) {
    return {Bits(v, 0, 1) != 0, Bits(v, 1, 1) != 0,  SampleControl(Bits(v, 2, 2)),
            Bits(v, 8, 8),      Bits(v, 16, 1) != 0, Bits(v, 17, 1) != 0,
            Bits(v, 18, 1) != 0};
  }
  constexpr uint32_t Encode() const {
    return Field(inst_pred_optimize, 0, 1) | Field(sc_output_screen_xy, 1, 1) |
           Field(uint32_t(sc_sample_cntl), 2, 2) | Field(param_gen_pos, 8, 8) |
           Field(perfcounter_ref, 16, 1) | Field(yeild_optimize, 17, 1) |
           Field(tx_cache_sel, 18, 1);
  }
};

// Per interpolator (bit i: interpolator i): param_shade selects flat shading; sampling_pattern
// where it is sampled when SQ_CONTEXT_MISC sc_sample_cntl is kCentroidsAndCenters, 0 at the
// centroid of the covered samples and 1 at the pixel centre (Xenia registers.h
// SQ_INTERPOLATOR_CNTL, xenos.h SampleLocation).
struct SQ_INTERPOLATOR_CNTL {
  uint32_t param_shade;       // +0, 16 bits
  uint32_t sampling_pattern;  // +16, 16 bits
  static constexpr Reg kReg = Reg::SQ_INTERPOLATOR_CNTL;
  static constexpr SQ_INTERPOLATOR_CNTL Decode(uint32_t v) { return {Bits(v, 0, 16), Bits(v, 16, 16)}; }
  constexpr uint32_t Encode() const {
    return Field(param_shade, 0, 16) | Field(sampling_pattern, 16, 16);
  }
};

// SQ_VS_CONST / SQ_PS_CONST: the float-constant partition of each shader stage.
struct SQ_CONST_PARTITION {
  uint32_t base;  // +0, 9 bits, vec4 index
  uint32_t size;  // +12, 9 bits, vec4 count minus one
  static constexpr SQ_CONST_PARTITION Decode(uint32_t v) { return {Bits(v, 0, 9), Bits(v, 12, 9)}; }
  constexpr uint32_t Encode() const { return Field(base, 0, 9) | Field(size, 12, 9); }
};

struct VGT_OUTPUT_PATH_CNTL {
  VGTOutputPath path_select;  // +0, 2 bits
  static constexpr Reg kReg = Reg::VGT_OUTPUT_PATH_CNTL;
  static constexpr VGT_OUTPUT_PATH_CNTL Decode(uint32_t v) { return {VGTOutputPath(Bits(v, 0, 2))}; }
};

struct VGT_HOS_CNTL {
  TessellationMode tess_mode;  // +0, 2 bits
  static constexpr Reg kReg = Reg::VGT_HOS_CNTL;
  static constexpr VGT_HOS_CNTL Decode(uint32_t v) { return {TessellationMode(Bits(v, 0, 2))}; }
};

}  // namespace reg
}  // namespace xnt::xenos
