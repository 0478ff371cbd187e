// Packet encodings: Xenia command_processor.cc ExecutePacketType0..3 and the per-opcode handlers,
// D3D register sequences: the one-frame traces
// in traces Xenia itself recorded and played (D3D-style programming).
#include "xnt/capture/pm4_builder.h"

#include <bit>
#include <string>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"

namespace xnt::capture {

namespace {

using xenos::Opcode;
using xenos::Reg;

void CheckCount(size_t count, const char* what) {
  if (count == 0 || count > xenos::kMaxPacketDataDwords) {
    throw Error(std::string(what) + ": " + std::to_string(count) +
                " payload dwords (a packet carries 1.." +
                std::to_string(xenos::kMaxPacketDataDwords) + ")");
  }
}

uint32_t PackIndices16(std::span<const uint16_t> indices, size_t pair) {
  // Our convention for immediate 16-bit indices: the first of each pair in bits 15:0.
  const uint32_t lo = indices[2 * pair];
  const uint32_t hi = 2 * pair + 1 < indices.size() ? indices[2 * pair + 1] : 0u;
  return lo | (hi << 16);
}

}  // namespace

Pm4Builder& Pm4Builder::Raw(uint32_t dword) {
  dwords_.push_back(dword);
  return *this;
}

Pm4Builder& Pm4Builder::Raw(std::span<const uint32_t> dwords) {
  dwords_.insert(dwords_.end(), dwords.begin(), dwords.end());
  return *this;
}

Pm4Builder& Pm4Builder::WriteRegister(uint32_t reg, uint32_t value) {
  const uint32_t v[1] = {value};
  return WriteRegisters(reg, v);
}

Pm4Builder& Pm4Builder::WriteRegisters(uint32_t first, std::span<const uint32_t> values) {
  if (values.empty()) throw Error("WriteRegisters: no values");
  for (size_t done = 0; done < values.size();) {
    const size_t n = std::min<size_t>(values.size() - done, xenos::kMaxPacketDataDwords);
    const uint32_t reg = first + uint32_t(done);
    if (reg + n - 1 > 0x7FFF) {
      throw Error("WriteRegisters: register " + std::to_string(reg + n - 1) +
                  " is beyond type 0's 15-bit index");
    }
    dwords_.push_back(xenos::MakeType0(reg, uint32_t(n)));
    dwords_.insert(dwords_.end(), values.begin() + done, values.begin() + done + n);
    done += n;
  }
  return *this;
}

Pm4Builder& Pm4Builder::WriteRegisterOne(uint32_t reg, std::span<const uint32_t> values) {
  CheckCount(values.size(), "WriteRegisterOne");
  if (reg > 0x7FFF) throw Error("WriteRegisterOne: register index beyond 15 bits");
  dwords_.push_back(xenos::MakeType0(reg, uint32_t(values.size()), true));
  dwords_.insert(dwords_.end(), values.begin(), values.end());
  return *this;
}

Pm4Builder& Pm4Builder::WriteRegisterPair(uint32_t reg_a, uint32_t value_a, uint32_t reg_b,
                                          uint32_t value_b) {
  if (reg_a >= 0x800 || reg_b >= 0x800) {
    throw Error("WriteRegisterPair: type 1 reaches registers below 0x800 only");
  }
  dwords_.push_back(xenos::MakeType1(reg_a, reg_b));
  dwords_.push_back(value_a);
  dwords_.push_back(value_b);
  return *this;
}

Pm4Builder& Pm4Builder::Filler(uint32_t count) {
  dwords_.insert(dwords_.end(), count, xenos::MakeType2());
  return *this;
}

void Pm4Builder::Header3(Opcode opcode, uint32_t count) {
  CheckCount(count, std::string(xenos::OpcodeName(uint32_t(opcode))).c_str());
  dwords_.push_back(xenos::MakeType3(opcode, count, predicated_));
}

Pm4Builder& Pm4Builder::Type3(Opcode opcode, std::span<const uint32_t> payload) {
  Header3(opcode, uint32_t(payload.size()));
  dwords_.insert(dwords_.end(), payload.begin(), payload.end());
  return *this;
}

Pm4Builder& Pm4Builder::Nop(uint32_t payload_dwords) {
  Header3(Opcode::kNop, payload_dwords);
  dwords_.insert(dwords_.end(), payload_dwords, 0u);
  return *this;
}

Pm4Builder& Pm4Builder::RegRmw(uint32_t reg, uint32_t and_mask, uint32_t or_mask,
                               uint32_t info_flags) {
  if (reg > 0x1FFF) throw Error("REG_RMW reaches registers below 0x2000 only (13-bit index)");
  return Type3(Opcode::kRegRmw, {reg | (info_flags & 0xC0000000u), and_mask, or_mask});
}

uint32_t Pm4Builder::DrawInitiator(xenos::PrimitiveType prim, xenos::SourceSelect source,
                                   uint32_t count, xenos::IndexFormat format) {
  if (count > 0xFFFF) throw Error("draw of " + std::to_string(count) + " indices (16-bit field)");
  return xenos::Field(uint32_t(prim), 0, 6) | xenos::Field(uint32_t(source), 6, 2) |
         xenos::Field(uint32_t(format), 11, 1) | xenos::Field(count, 16, 16);
}

Pm4Builder& Pm4Builder::DrawIndxAuto(xenos::PrimitiveType prim, uint32_t count,
                                     uint32_t viz_query) {
  return Type3(Opcode::kDrawIndx,
               {viz_query, DrawInitiator(prim, xenos::SourceSelect::kAutoIndex, count)});
}

Pm4Builder& Pm4Builder::DrawIndxDma(xenos::PrimitiveType prim, uint32_t count,
                                    uint32_t index_address, xenos::IndexFormat format,
                                    xenos::Endian endian, uint32_t viz_query) {
  // VGT_DMA_SIZE: index count in bits 23:0, endian swap in bits 31:30.
  const uint32_t dma_size = (count & 0xFFFFFFu) | (uint32_t(endian) << 30);
  return Type3(Opcode::kDrawIndx,
               {viz_query, DrawInitiator(prim, xenos::SourceSelect::kDma, count, format),
                index_address, dma_size});
}

Pm4Builder& Pm4Builder::DrawIndxImmediate(xenos::PrimitiveType prim,
                                          std::span<const uint16_t> indices,
                                          uint32_t viz_query) {
  std::vector<uint32_t> payload = {
      viz_query,
      DrawInitiator(prim, xenos::SourceSelect::kImmediate, uint32_t(indices.size()))};
  for (size_t i = 0; i < (indices.size() + 1) / 2; ++i) payload.push_back(PackIndices16(indices, i));
  return Type3(Opcode::kDrawIndx, payload);
}

Pm4Builder& Pm4Builder::DrawIndx2Auto(xenos::PrimitiveType prim, uint32_t count) {
  return Type3(Opcode::kDrawIndx2, {DrawInitiator(prim, xenos::SourceSelect::kAutoIndex, count)});
}

Pm4Builder& Pm4Builder::DrawIndx2Immediate(xenos::PrimitiveType prim,
                                           std::span<const uint16_t> indices) {
  std::vector<uint32_t> payload = {
      DrawInitiator(prim, xenos::SourceSelect::kImmediate, uint32_t(indices.size()))};
  for (size_t i = 0; i < (indices.size() + 1) / 2; ++i) payload.push_back(PackIndices16(indices, i));
  return Type3(Opcode::kDrawIndx2, payload);
}

Pm4Builder& Pm4Builder::VizQuery(uint32_t id, bool end) {
  return Type3(Opcode::kVizQuery, {(id & 0x3Fu) | (end ? 0x100u : 0u)});
}

Pm4Builder& Pm4Builder::WaitForIdle(uint32_t value) {
  return Type3(Opcode::kWaitForIdle, {value});
}

Pm4Builder& Pm4Builder::ImLoad(xenos::ShaderType type, uint32_t address, uint32_t size_dwords,
                               uint32_t start) {
  if (address & 3u) throw Error("IM_LOAD: microcode address must be 4-byte aligned");
  return Type3(Opcode::kImLoad, {address | uint32_t(type), (start << 16) | (size_dwords & 0xFFFFu)});
}

Pm4Builder& Pm4Builder::ImLoadImmediate(xenos::ShaderType type,
                                        std::span<const uint32_t> microcode, uint32_t start) {
  if (microcode.empty() || microcode.size() > 0xFFFF) {
    throw Error("IM_LOAD_IMMEDIATE: " + std::to_string(microcode.size()) + " microcode dwords");
  }
  Header3(Opcode::kImLoadImmediate, uint32_t(2 + microcode.size()));
  dwords_.push_back(uint32_t(type));
  dwords_.push_back((start << 16) | uint32_t(microcode.size()));
  dwords_.insert(dwords_.end(), microcode.begin(), microcode.end());
  return *this;
}

Pm4Builder& Pm4Builder::SetConstant(xenos::ConstantType type, uint32_t index,
                                    std::span<const uint32_t> values) {
  if (index > 0x7FF) throw Error("SET_CONSTANT: index beyond 11 bits");
  Header3(Opcode::kSetConstant, uint32_t(1 + values.size()));
  dwords_.push_back((uint32_t(type) << 16) | index);
  dwords_.insert(dwords_.end(), values.begin(), values.end());
  return *this;
}

Pm4Builder& Pm4Builder::SetAluConstants(uint32_t first_vec4, std::span<const float> xyzw) {
  std::vector<uint32_t> bits(xyzw.size());
  for (size_t i = 0; i < xyzw.size(); ++i) bits[i] = std::bit_cast<uint32_t>(xyzw[i]);
  return SetConstant(xenos::ConstantType::kAlu, first_vec4 * 4, bits);
}

Pm4Builder& Pm4Builder::SetConstant2(uint32_t first_register, std::span<const uint32_t> values) {
  Header3(Opcode::kSetConstant2, uint32_t(1 + values.size()));
  dwords_.push_back(first_register & 0xFFFFu);
  dwords_.insert(dwords_.end(), values.begin(), values.end());
  return *this;
}

Pm4Builder& Pm4Builder::SetShaderConstants(uint32_t first_register,
                                           std::span<const uint32_t> values) {
  Header3(Opcode::kSetShaderConstants, uint32_t(1 + values.size()));
  dwords_.push_back(first_register & 0xFFFFu);
  dwords_.insert(dwords_.end(), values.begin(), values.end());
  return *this;
}

Pm4Builder& Pm4Builder::LoadAluConstant(uint32_t address, xenos::ConstantType type,
                                        uint32_t index, uint32_t size_dwords) {
  return Type3(Opcode::kLoadAluConstant, {address & 0x3FFFFFFFu,
                                          (uint32_t(type) << 16) | (index & 0x7FFu),
                                          size_dwords & 0xFFFu});
}

Pm4Builder& Pm4Builder::IndirectBuffer(uint32_t address, uint32_t size_dwords, bool pfd) {
  return Type3(pfd ? Opcode::kIndirectBufferPfd : Opcode::kIndirectBuffer,
               {address, size_dwords & 0xFFFFFu});
}

Pm4Builder& Pm4Builder::InvalidateState(uint32_t mask) {
  return Type3(Opcode::kInvalidateState, {mask});
}

Pm4Builder& Pm4Builder::WaitRegMem(bool memory, xenos::WaitFunction fn,
                                   uint32_t poll_address_or_reg, uint32_t reference,
                                   uint32_t mask, uint32_t wait_interval) {
  const uint32_t info = uint32_t(fn) | (memory ? 0x10u : 0u);
  return Type3(Opcode::kWaitRegMem, {info, poll_address_or_reg, reference, mask, wait_interval});
}

Pm4Builder& Pm4Builder::MemWrite(uint32_t address, std::span<const uint32_t> values,
                                 xenos::Endian endian) {
  Header3(Opcode::kMemWrite, uint32_t(1 + values.size()));
  dwords_.push_back((address & ~3u) | uint32_t(endian));
  dwords_.insert(dwords_.end(), values.begin(), values.end());
  return *this;
}

Pm4Builder& Pm4Builder::RegToMem(uint32_t reg, uint32_t address, xenos::Endian endian) {
  return Type3(Opcode::kRegToMem, {reg, (address & ~3u) | uint32_t(endian)});
}

Pm4Builder& Pm4Builder::CondWrite(bool poll_memory, xenos::WaitFunction fn,
                                  uint32_t poll_address_or_reg, uint32_t reference, uint32_t mask,
                                  bool write_memory, uint32_t write_address_or_reg,
                                  uint32_t data) {
  const uint32_t info = uint32_t(fn) | (poll_memory ? 0x10u : 0u) | (write_memory ? 0x100u : 0u);
  return Type3(Opcode::kCondWrite,
               {info, poll_address_or_reg, reference, mask, write_address_or_reg, data});
}

Pm4Builder& Pm4Builder::EventWrite(xenos::Event event) {
  return Type3(Opcode::kEventWrite, {uint32_t(event)});
}

Pm4Builder& Pm4Builder::EventWriteShd(xenos::Event event, uint32_t address, uint32_t value) {
  return Type3(Opcode::kEventWriteShd, {uint32_t(event), address, value});
}

Pm4Builder& Pm4Builder::EventWriteExt(xenos::Event event, uint32_t address) {
  return Type3(Opcode::kEventWriteExt, {uint32_t(event), address});
}

Pm4Builder& Pm4Builder::EventWriteZpd(xenos::Event event) {
  return Type3(Opcode::kEventWriteZpd, {uint32_t(event)});
}

Pm4Builder& Pm4Builder::MeInit(std::span<const uint32_t> values) {
  return Type3(Opcode::kMeInit, values);
}

Pm4Builder& Pm4Builder::SetBinMask(uint64_t mask) {
  return Type3(Opcode::kSetBinMask, {uint32_t(mask >> 32), uint32_t(mask)});
}

Pm4Builder& Pm4Builder::SetBinSelect(uint64_t select) {
  return Type3(Opcode::kSetBinSelect, {uint32_t(select >> 32), uint32_t(select)});
}

Pm4Builder& Pm4Builder::SetBinMaskLo(uint32_t v) { return Type3(Opcode::kSetBinMaskLo, {v}); }
Pm4Builder& Pm4Builder::SetBinMaskHi(uint32_t v) { return Type3(Opcode::kSetBinMaskHi, {v}); }
Pm4Builder& Pm4Builder::SetBinSelectLo(uint32_t v) { return Type3(Opcode::kSetBinSelectLo, {v}); }
Pm4Builder& Pm4Builder::SetBinSelectHi(uint32_t v) { return Type3(Opcode::kSetBinSelectHi, {v}); }

Pm4Builder& Pm4Builder::Interrupt(uint32_t cpu_mask) {
  return Type3(Opcode::kInterrupt, {cpu_mask & 0x3Fu});
}

Pm4Builder& Pm4Builder::ContextUpdate(uint32_t value) {
  return Type3(Opcode::kContextUpdate, {value});
}

Pm4Builder& Pm4Builder::XeSwap(uint32_t front_buffer_address, uint32_t width, uint32_t height,
                               uint32_t padding) {
  Header3(Opcode::kXeSwap, xenos::kSwapMinPayloadDwords + padding);
  dwords_.push_back(xenos::kSwapSignature);
  dwords_.push_back(front_buffer_address);
  dwords_.push_back(width);
  dwords_.push_back(height);
  dwords_.insert(dwords_.end(), padding, 0u);
  return *this;
}

// ---- D3D sequences -------------------------------------------------------------------------------

void D3dDeviceDefaults(Pm4Builder& b) {
  // Values as the oracle traces (D3D-style device setup) program them.
  b.WriteRegisters(Reg::PA_SC_SCREEN_SCISSOR_TL, {0u, (8192u << 16) | 8192u});
  b.WriteRegister(Reg::PA_SC_WINDOW_OFFSET, 0);
  b.WriteRegisters(Reg::VGT_MAX_VTX_INDX, {0x00FFFFFFu, 0u, 0u, 0xFFFFu});
  b.WriteRegister(Reg::VGT_OUTPUT_PATH_CNTL, 0);
  b.WriteRegister(Reg::VGT_HOS_CNTL, 0);
  b.WriteRegister(Reg::PA_SC_VIZ_QUERY, 0);
  b.WriteRegister(Reg::PA_SU_VTX_CNTL, 4);  // round mode field (bits 2:1) = 2
  // Float-constant partition: 256 vertex-shader then 256 pixel-shader vec4s.
  b.WriteRegisters(Reg::SQ_VS_CONST, {0x000FF000u, 0x000FF100u});
  b.WriteRegister(Reg::PA_SC_AA_MASK, 0xFFFF);
  b.WriteRegister(Reg::RB_DEPTHCONTROL, 0);
  b.WriteRegister(Reg::RB_HIZCONTROL, 0);
  b.WriteRegister(Reg::RB_COLORCONTROL, uint32_t(xenos::CompareFunction::kAlways));
  // ONE * src + ZERO * dst for colour and alpha.
  b.WriteRegister(Reg::RB_BLENDCONTROL0, 0x00010001);
  b.WriteRegister(Reg::RB_COLOR_MASK, 0xF);
  b.WriteRegister(Reg::PA_CL_CLIP_CNTL, 1u << 19);     // dx_clip_space_def
  b.WriteRegister(Reg::PA_CL_VTE_CNTL, 0x43F);         // viewport scale/offset on, vtx_w0_fmt
  b.WriteRegister(Reg::PA_SU_SC_MODE_CNTL, 1u << 19);  // provoking_vtx_last
  b.InvalidateState(0x7FFF);
}

void D3dSetRenderTarget(Pm4Builder& b, const RenderTargetSetup& rt) {
  xenos::reg::RB_SURFACE_INFO surface{rt.surface_pitch, rt.msaa, 0};
  xenos::reg::RB_COLOR_INFO color{rt.color_base_tiles & 0x7FFu, 0, rt.color_format, 0};
  // With no depth buffer D3D points RB_DEPTH_INFO at the last tile (as the oracle traces do).
  xenos::reg::RB_DEPTH_INFO depth{rt.depth ? rt.depth_base_tiles & 0x7FFu : 0x7FFu, 0,
                                  rt.depth_format};
  b.WriteRegister(Reg::RB_SURFACE_INFO, surface.Encode());
  b.WriteRegister(Reg::RB_COLOR_INFO, color.Encode());
  b.WriteRegister(Reg::RB_DEPTH_INFO, depth.Encode());
}

void D3dSetViewport(Pm4Builder& b, float x, float y, float width, float height) {
  const float v[6] = {width / 2, x + width / 2, -height / 2, y + height / 2, 1.0f, 0.0f};
  std::vector<uint32_t> bits(6);
  for (int i = 0; i < 6; ++i) bits[i] = std::bit_cast<uint32_t>(v[i]);
  b.WriteRegisters(xenos::RegIndex(Reg::PA_CL_VPORT_XSCALE), bits);
  const uint32_t x0 = uint32_t(x), y0 = uint32_t(y);
  const uint32_t x1 = uint32_t(x + width), y1 = uint32_t(y + height);
  b.WriteRegisters(Reg::PA_SC_WINDOW_SCISSOR_TL, {0x80000000u | (y0 << 16) | x0, (y1 << 16) | x1});
}

void D3dSetVertexFetch(Pm4Builder& b, uint32_t slot, uint32_t address, uint32_t size_dwords) {
  if (address & 3u) throw Error("vertex buffer address must be 4-byte aligned");
  const xenos::VertexFetchConstant vf{xenos::FetchConstantType::kVertex, address >> 2,
                                      xenos::Endian::k8in32, size_dwords};
  const auto d = vf.Encode();
  b.SetFetchConstant(slot * 2, d);
}

void D3dSetShaders(Pm4Builder& b, const ShaderPair& s) {
  b.ImLoadImmediate(xenos::ShaderType::kVertex, s.vertex_microcode);
  b.ImLoadImmediate(xenos::ShaderType::kPixel, s.pixel_microcode);
  // SQ_PROGRAM_CNTL: register counts and export count are stored minus one;
  // vs_resource (bit 16) set as the XDK compiler's "VsResource=1" shaders need.
  const uint32_t program = xenos::Field(s.vs_registers - 1, 0, 6) |
                           xenos::Field(s.ps_registers - 1, 8, 6) | (1u << 16) |
                           xenos::Field(s.vs_exports - 1, 20, 4);
  b.WriteRegister(Reg::SQ_PROGRAM_CNTL, program);
  b.WriteRegister(Reg::SQ_CONTEXT_MISC, 4);  // sc_sample_cntl = centers only
  b.WriteRegister(Reg::SQ_INTERPOLATOR_CNTL, 0);
}

std::vector<uint8_t> ResolveRectangleVertices(uint32_t width, uint32_t height) {
  const float v[6] = {0.0f, 0.0f, float(width), 0.0f, float(width), float(height)};
  std::vector<uint8_t> bytes(sizeof(v));
  for (int i = 0; i < 6; ++i) StoreBE32(bytes.data() + 4 * i, std::bit_cast<uint32_t>(v[i]));
  return bytes;
}

void D3dResolve(Pm4Builder& b, const RenderTargetSetup& rt, const ResolveSetup& r) {
  if (r.width % xenos::kResolveAlignmentPixels || r.height % xenos::kResolveAlignmentPixels) {
    throw Error("resolve rectangle must be a multiple of 8 pixels (kResolveAlignmentPixels)");
  }
  if (r.dest_address & 0xFFFu) throw Error("resolve destination must be 4 KiB aligned");
  D3dSetRenderTarget(b, rt);
  // RB_COPY_CONTROL: source = colour target 0, clears, copy_command raw (0).
  const uint32_t copy_control = (r.clear_color ? 1u << 8 : 0u) | (r.clear_depth ? 1u << 9 : 0u);
  const uint32_t dest_pitch = xenos::Field(r.dest_pitch, 0, 14) |
                              xenos::Field(r.dest_height, 16, 14);
  const uint32_t dest_info = xenos::Field(uint32_t(r.dest_endian), 0, 3) |
                             xenos::Field(uint32_t(r.dest_format), 7, 6);
  b.WriteRegisters(Reg::RB_COPY_CONTROL, {copy_control, r.dest_address, dest_pitch, dest_info});
  // Clear values only when clearing, as D3D does (the oracle traces' plain copies omit them).
  if (r.clear_depth) b.WriteRegister(Reg::RB_DEPTH_CLEAR, r.clear_depth_value);
  if (r.clear_color) b.WriteRegisters(Reg::RB_COLOR_CLEAR, {r.clear_color_value, 0u});
  // The window scissor opens fully (8191, 8191) for the copy, as in the oracle traces: the
  // rectangle comes from the draw's vertices, not from the scissor.
  b.WriteRegisters(Reg::PA_SC_WINDOW_SCISSOR_TL, {0x80000000u, 0x1FFF1FFFu});
  D3dSetVertexFetch(b, 0, r.vertex_address, 6);
  b.WriteRegister(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kCopy));
  b.DrawIndxAuto(xenos::PrimitiveType::kRectangleList, 3);
  b.WriteRegister(Reg::RB_MODECONTROL, uint32_t(xenos::ModeControl::kColorDepth));
}

std::array<uint32_t, 6> TextureFetch2D(uint32_t address, uint32_t width, uint32_t height,
                                       xenos::TextureFormat format, bool tiled,
                                       xenos::Endian endian) {
  if (address & 0xFFFu) throw Error("texture base address must be 4 KiB aligned");
  // Field layout: Xenia xenos.h xe_gpu_texture_fetch_t. Clamp modes 2 (clamp to last texel), swizzle XYZW (0x688), mip
  // filter 2 and dimension 2D, as D3D's front-buffer fetch constant in the oracle traces.
  const uint32_t pitch_blocks = (width + 31) / 32;
  const uint32_t d0 = uint32_t(xenos::FetchConstantType::kTexture) | xenos::Field(2, 10, 3) |
                      xenos::Field(2, 13, 3) | xenos::Field(2, 16, 3) |
                      xenos::Field(pitch_blocks, 22, 9) | (tiled ? 1u << 31 : 0u);
  const uint32_t d1 = xenos::Field(uint32_t(format), 0, 6) | xenos::Field(uint32_t(endian), 6, 2) |
                      (address & 0xFFFFF000u);
  const uint32_t d2 = xenos::Field(width - 1, 0, 13) | xenos::Field(height - 1, 13, 13);
  const uint32_t d3 = xenos::Field(0x688, 1, 12) | xenos::Field(2, 23, 2);
  const uint32_t d5 = xenos::Field(uint32_t(xenos::DataDimension::k2DOrStacked), 9, 2);
  return {d0, d1, d2, d3, 0u, d5};
}

void D3dSwap(Pm4Builder& b, uint32_t front_buffer_address, uint32_t width, uint32_t height,
             xenos::TextureFormat format) {
  const auto fetch = TextureFetch2D(front_buffer_address, width, height, format);
  b.WriteRegisters(xenos::FetchConstantIndex(0, 0), fetch);
  b.XeSwap(front_buffer_address, width, height);
}

}  // namespace xnt::capture
