// Pm4Builder: authors Xenos PM4 command streams in C++ — the packets an Xbox 360 title's Direct3D
// runtime puts in the ring buffer — as host-order dwords ready for a format::Submission.
//
// Low level: one method per packet type and per type-3 opcode of Xenia's command processor
// (payload layouts from Xenia command_processor.cc
// ExecutePacketType3_*). High level (d3d_*): the register sequences D3D issues for render targets,
// viewports, draws, resolves, swaps and shader uploads, modelled on the one-frame traces in
// traces Xenia itself recorded (which program the GPU the way the D3D runtime does).
//
// Every method appends to the stream and returns *this. Arguments a packet cannot encode (counts
// of 0 or above 0x4000, register indices out of range) throw xnt::Error: a builder bug must not
// become a silently different stream.
#pragma once

#include <cstdint>
#include <array>
#include <initializer_list>
#include <span>
#include <vector>

#include "xnt/xenos/enums.h"
#include "xnt/xenos/pm4.h"
#include "xnt/xenos/registers.h"

namespace xnt::capture {

class Pm4Builder {
 public:
  const std::vector<uint32_t>& dwords() const { return dwords_; }
  std::vector<uint32_t> Take() { return std::move(dwords_); }
  size_t size() const { return dwords_.size(); }
  void Clear() { dwords_.clear(); }

  // Sets the predicate bit (bit 0) on the type-3 packets that follow: they then execute only when
  // (bin_select & bin_mask) != 0 (Xenia ExecutePacketType3).
  Pm4Builder& SetPredicate(bool predicated) {
    predicated_ = predicated;
    return *this;
  }

  Pm4Builder& Raw(uint32_t dword);
  Pm4Builder& Raw(std::span<const uint32_t> dwords);

  // ---- Type 0 / 1 / 2 ---------------------------------------------------------------------------
  Pm4Builder& WriteRegister(uint32_t reg, uint32_t value);
  Pm4Builder& WriteRegister(xenos::Reg reg, uint32_t value) {
    return WriteRegister(xenos::RegIndex(reg), value);
  }
  // One type-0 run to consecutive registers (split into several packets above 0x4000 values).
  Pm4Builder& WriteRegisters(uint32_t first, std::span<const uint32_t> values);
  Pm4Builder& WriteRegisters(xenos::Reg first, std::initializer_list<uint32_t> values) {
    return WriteRegisters(xenos::RegIndex(first), std::span<const uint32_t>(values));
  }
  // Type 0 with the one-register flag (bit 15): every value goes to `reg` (e.g. a LUT port).
  Pm4Builder& WriteRegisterOne(uint32_t reg, std::span<const uint32_t> values);
  // Type 1: two registers below 0x800 in one three-dword packet.
  Pm4Builder& WriteRegisterPair(uint32_t reg_a, uint32_t value_a, uint32_t reg_b,
                                uint32_t value_b);
  // Type 2 filler dwords.
  Pm4Builder& Filler(uint32_t count = 1);

  // ---- Type 3 -----------------------------------------------------------------------------------
  // Any opcode with any payload (1..0x4000 dwords).
  Pm4Builder& Type3(xenos::Opcode opcode, std::span<const uint32_t> payload);
  Pm4Builder& Type3(xenos::Opcode opcode, std::initializer_list<uint32_t> payload) {
    return Type3(opcode, std::span<const uint32_t>(payload));
  }

  Pm4Builder& Nop(uint32_t payload_dwords = 1);
  // REG_RMW: info dword = register (bits 12:0, so below 0x2000) | `info_flags` (bits 31/30, the AND/OR-with-register
  // selectors of Xenia's command_processor.cc ExecutePacketType3_REG_RMW), then the AND mask and the OR mask.
  Pm4Builder& RegRmw(uint32_t reg, uint32_t and_mask, uint32_t or_mask, uint32_t info_flags = 0);

  // DRAW_INDX with auto-generated indices 0..count-1.
  Pm4Builder& DrawIndxAuto(xenos::PrimitiveType prim, uint32_t count, uint32_t viz_query = 0);
  // DRAW_INDX reading `count` indices from guest memory (VGT_DMA_BASE / VGT_DMA_SIZE).
  Pm4Builder& DrawIndxDma(xenos::PrimitiveType prim, uint32_t count, uint32_t index_address,
                          xenos::IndexFormat format, xenos::Endian endian,
                          uint32_t viz_query = 0);
  // DRAW_INDX with the indices in the packet (source select "immediate"; 16-bit indices packed two
  // per dword, low half first).
  Pm4Builder& DrawIndxImmediate(xenos::PrimitiveType prim, std::span<const uint16_t> indices,
                                uint32_t viz_query = 0);
  // DRAW_INDX_2 (no viz-query token) with auto indices or immediate 16-bit indices.
  Pm4Builder& DrawIndx2Auto(xenos::PrimitiveType prim, uint32_t count);
  Pm4Builder& DrawIndx2Immediate(xenos::PrimitiveType prim, std::span<const uint16_t> indices);
  // VGT_DRAW_INITIATOR value: prim 5:0, source 7:6, major mode 9:8, index size 11,
  // not_eop 12, num_indices 31:16.
  static uint32_t DrawInitiator(xenos::PrimitiveType prim, xenos::SourceSelect source,
                                uint32_t count, xenos::IndexFormat format = xenos::IndexFormat::kInt16);

  Pm4Builder& VizQuery(uint32_t id, bool end);
  Pm4Builder& WaitForIdle(uint32_t value = 0);
  // IM_LOAD: microcode of `size_dwords` at guest `address` (4-byte aligned) into shader slot
  // `start` (dwords).
  Pm4Builder& ImLoad(xenos::ShaderType type, uint32_t address, uint32_t size_dwords,
                     uint32_t start = 0);
  // IM_LOAD_IMMEDIATE: microcode (host-order dwords) inside the packet.
  Pm4Builder& ImLoadImmediate(xenos::ShaderType type, std::span<const uint32_t> microcode,
                              uint32_t start = 0);
  // SET_CONSTANT: `values` to the constant area `type` starting at `index` (dwords within it).
  Pm4Builder& SetConstant(xenos::ConstantType type, uint32_t index,
                          std::span<const uint32_t> values);
  Pm4Builder& SetAluConstants(uint32_t first_vec4, std::span<const float> xyzw);
  Pm4Builder& SetFetchConstant(uint32_t first_dword, std::span<const uint32_t> values) {
    return SetConstant(xenos::ConstantType::kFetch, first_dword, values);
  }
  // SET_CONSTANT2 / SET_SHADER_CONSTANTS: registers by absolute index.
  Pm4Builder& SetConstant2(uint32_t first_register, std::span<const uint32_t> values);
  Pm4Builder& SetShaderConstants(uint32_t first_register, std::span<const uint32_t> values);
  // LOAD_ALU_CONSTANT: `size_dwords` constants from guest memory.
  Pm4Builder& LoadAluConstant(uint32_t address, xenos::ConstantType type, uint32_t index,
                              uint32_t size_dwords);
  Pm4Builder& IndirectBuffer(uint32_t address, uint32_t size_dwords, bool pfd = false);
  Pm4Builder& InvalidateState(uint32_t mask);
  // WAIT_REG_MEM: poll a register (memory = false) or a memory dword until (value & mask) `fn`
  // reference.
  Pm4Builder& WaitRegMem(bool memory, xenos::WaitFunction fn, uint32_t poll_address_or_reg,
                         uint32_t reference, uint32_t mask, uint32_t wait_interval = 0);
  // MEM_WRITE: dwords to guest memory; the low two address bits carry the endian swap.
  Pm4Builder& MemWrite(uint32_t address, std::span<const uint32_t> values,
                       xenos::Endian endian = xenos::Endian::kNone);
  Pm4Builder& RegToMem(uint32_t reg, uint32_t address,
                       xenos::Endian endian = xenos::Endian::kNone);
  // COND_WRITE: if (polled & mask) `fn` reference, write `data` to memory (write_memory) or a
  // register.
  Pm4Builder& CondWrite(bool poll_memory, xenos::WaitFunction fn, uint32_t poll_address_or_reg,
                        uint32_t reference, uint32_t mask, bool write_memory,
                        uint32_t write_address_or_reg, uint32_t data);
  Pm4Builder& EventWrite(xenos::Event event);
  Pm4Builder& EventWriteShd(xenos::Event event, uint32_t address, uint32_t value);
  Pm4Builder& EventWriteExt(xenos::Event event, uint32_t address);
  Pm4Builder& EventWriteZpd(xenos::Event event);
  Pm4Builder& MeInit(std::span<const uint32_t> values);
  Pm4Builder& SetBinMask(uint64_t mask);
  Pm4Builder& SetBinSelect(uint64_t select);
  Pm4Builder& SetBinMaskLo(uint32_t v);
  Pm4Builder& SetBinMaskHi(uint32_t v);
  Pm4Builder& SetBinSelectLo(uint32_t v);
  Pm4Builder& SetBinSelectHi(uint32_t v);
  Pm4Builder& Interrupt(uint32_t cpu_mask);
  Pm4Builder& ContextUpdate(uint32_t value = 0);
  // XE_SWAP as Xenia's VdSwap writes it: "SWAP", front buffer address, width, height, then
  // `padding` zero dwords (VdSwap reserves 63 payload dwords in all).
  Pm4Builder& XeSwap(uint32_t front_buffer_address, uint32_t width, uint32_t height,
                     uint32_t padding = 0);

 private:
  void Header3(xenos::Opcode opcode, uint32_t count);
  std::vector<uint32_t> dwords_;
  bool predicated_ = false;
};

// ---- What D3D does -------------------------------------------------------------------------------

// One colour target (and optionally depth) in EDRAM.
struct RenderTargetSetup {
  uint32_t surface_pitch = 0;  // pixels
  xenos::MsaaSamples msaa = xenos::MsaaSamples::k1X;
  uint32_t color_base_tiles = 0;
  xenos::ColorRenderTargetFormat color_format = xenos::ColorRenderTargetFormat::k_8_8_8_8;
  bool depth = false;
  uint32_t depth_base_tiles = 0;
  xenos::DepthRenderTargetFormat depth_format = xenos::DepthRenderTargetFormat::kD24S8;
};

// A resolve: EDRAM rectangle [0, width) x [0, height) of colour target 0 -> 32x32-tiled memory.
struct ResolveSetup {
  uint32_t width = 0, height = 0;  // pixels, multiples of 8 (kResolveAlignmentPixels)
  uint32_t dest_address = 0;       // 4 KiB aligned guest address
  uint32_t dest_pitch = 0;         // pixels (D3D rounds to 32)
  uint32_t dest_height = 0;        // pixels
  xenos::TextureFormat dest_format = xenos::TextureFormat::k_8_8_8_8;
  xenos::Endian128 dest_endian = xenos::Endian128::k8in32;
  bool clear_color = false;
  uint32_t clear_color_value = 0;  // RB_COLOR_CLEAR, packed as the target format
  bool clear_depth = false;
  uint32_t clear_depth_value = 0;  // RB_DEPTH_CLEAR
  // Where the three rectangle vertices (float2, big-endian) live; the caller records the bytes
  // from ResolveRectangleVertices() there as GPU-read memory.
  uint32_t vertex_address = 0;
};

// Register defaults D3D sets once per device (screen scissor, VGT index limits, AA mask, constant
// partitions, no depth/stencil, no blending, full colour write mask, VTE enables) and an
// INVALIDATE_STATE, as the oracle traces begin.
void D3dDeviceDefaults(Pm4Builder& b);
void D3dSetRenderTarget(Pm4Builder& b, const RenderTargetSetup& rt);
// Viewport as D3D programs it: PA_CL_VPORT_* scale/offset for a [x, x+w) x [y, y+h) viewport with
// depth [0, 1], plus the window scissor.
void D3dSetViewport(Pm4Builder& b, float x, float y, float width, float height);
// Vertex fetch constant `slot` (0..95): `size_dwords` of vertex data at `address`, big-endian
// 32-bit words (k8in32, as D3D vertex buffers are).
void D3dSetVertexFetch(Pm4Builder& b, uint32_t slot, uint32_t address, uint32_t size_dwords);
// Uploads microcode with IM_LOAD_IMMEDIATE and sets SQ_PROGRAM_CNTL / SQ_CONTEXT_MISC /
// SQ_INTERPOLATOR_CNTL for a VS+PS pair with the given register counts and VS export count.
struct ShaderPair {
  std::span<const uint32_t> vertex_microcode;
  std::span<const uint32_t> pixel_microcode;
  uint32_t vs_registers = 1, ps_registers = 1;  // temporaries used (>= 1)
  uint32_t vs_exports = 1;                      // interpolators written (>= 1)
};
void D3dSetShaders(Pm4Builder& b, const ShaderPair& shaders);
// The resolve sequence: RB_COPY_* registers, clear values, window scissor to the rectangle, the
// rectangle's vertex fetch constant, RB_MODECONTROL = copy, a 3-vertex RECTANGLE_LIST auto draw,
// RB_MODECONTROL back to colour+depth. (Xenia draw_util.cc GetResolveInfo takes the rectangle from
// the draw's vertices)
void D3dResolve(Pm4Builder& b, const RenderTargetSetup& rt, const ResolveSetup& resolve);
// The bytes of the resolve rectangle's three vertices (0,0) (w,0) (w,h), float2 big-endian.
std::vector<uint8_t> ResolveRectangleVertices(uint32_t width, uint32_t height);
// The VdSwap pair: texture fetch constant 0 describing the 32x32-tiled front buffer, then XE_SWAP.
void D3dSwap(Pm4Builder& b, uint32_t front_buffer_address, uint32_t width, uint32_t height,
             xenos::TextureFormat format = xenos::TextureFormat::k_8_8_8_8);
// The six texture fetch dwords D3D writes for a 2D tiled texture (also used by D3dSwap).
std::array<uint32_t, 6> TextureFetch2D(uint32_t address, uint32_t width, uint32_t height,
                                       xenos::TextureFormat format, bool tiled = true,
                                       xenos::Endian endian = xenos::Endian::k8in32);

}  // namespace xnt::capture
