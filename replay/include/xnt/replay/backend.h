// The interface between the guest GPU front end and whatever consumes its work: the Vulkan
// renderer, the CPU reference renderer, `dump`, statistics. The command processor calls it once
// per draw, resolve, swap and event; the trace player adds EDRAM snapshots, gamma ramps and memory
// updates.
//
// Lifetime: every reference and pointer inside a *Call struct (register file, shaders, guest
// memory, immediate indices) is valid only for the duration of the call - it points at the live
// state, nothing is copied. A backend that needs state later copies what it needs.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "xnt/format/records.h"
#include "xnt/replay/diagnostics.h"
#include "xnt/xenos/enums.h"
#include "xnt/xenos/pm4.h"
#include "xnt/xenos/registers.h"

namespace xnt::ucode {
struct DecodedShader;
}  // namespace xnt::ucode

namespace xnt::replay {

class GuestMemory;
class RegisterFile;
class DisplayGamma;

// Microcode loaded by IM_LOAD / IM_LOAD_IMMEDIATE.
struct Shader {
  xenos::ShaderType type = xenos::ShaderType::kVertex;
  uint32_t guest_address = 0;    // where the microcode was loaded from (the packet payload for
                                 // IM_LOAD_IMMEDIATE)
  bool immediate = false;        // loaded by IM_LOAD_IMMEDIATE
  uint64_t hash = 0;             // XXH3-64 of the big-endian microcode bytes, as Xenia hashes it
  std::vector<uint32_t> dwords;  // host order
  // The microcode decoded once per hash (ucode/shader_cache.h): every consumer reads this.
  std::shared_ptr<const ucode::DecodedShader> decoded;
  // From its analysis.
  bool analyzed = false;              // false: the microcode did not decode (see analysis_error)
  std::string analysis_error;
  bool uses_memexport = false;        // writes eA / eM#
  uint32_t memexport_data_mask = 0;   // eM0-eM4 written
  std::array<uint64_t, 4> float_constants_read{};  // c0-c255 (relative addressing: all)
};

// Where a draw's indices come from (VGT_DRAW_INITIATOR source_select).
struct IndexBuffer {
  xenos::SourceSelect source = xenos::SourceSelect::kAutoIndex;
  xenos::IndexFormat format = xenos::IndexFormat::kInt16;
  // kDma: VGT_DMA_BASE (aligned down to the index size) and VGT_DMA_SIZE.
  uint32_t guest_address = 0;
  uint32_t size_bytes = 0;  // num_words * index size
  xenos::Endian endian = xenos::Endian::kNone;
  // kImmediate: the packet's remaining payload (VGT_IMMED_DATA words, host order; 16-bit indices
  // are packed two per dword).
  std::span<const uint32_t> immediate;
};

struct DrawCall {
  uint64_t frame = 0;
  uint32_t draw_index = 0;  // counts draws and resolves within the frame, from 0
  TraceOffset offset;       // of the DRAW_INDX / DRAW_INDX_2 packet
  uint32_t packet_address = 0;
  uint32_t opcode = 0;  // xenos::Opcode::kDrawIndx or kDrawIndx2
  xenos::reg::VGT_DRAW_INITIATOR initiator{};
  bool major_mode_explicit = false;
  uint32_t viz_query_condition = 0;  // DRAW_INDX's first payload dword
  xenos::ModeControl edram_mode = xenos::ModeControl::kIgnore;
  IndexBuffer indices;
  const RegisterFile* registers = nullptr;  // the full 0x5003-dword file, constants included
  const Shader* vertex_shader = nullptr;    // nullptr if no IM_LOAD has happened yet
  // The pixel shader that runs: nullptr before any IM_LOAD and in RB_MODECONTROL kDepth mode
  // (a depth-only draw whatever shader is loaded: cp_draw.cpp says why).
  const Shader* pixel_shader = nullptr;
  const GuestMemory* memory = nullptr;
};

// A draw with RB_MODECONTROL edram_mode = copy (6): EDRAM -> memory, optionally clearing.
struct ResolveCall {
  DrawCall draw;
  xenos::reg::RB_COPY_CONTROL copy_control{};
  uint32_t dest_base = 0;  // RB_COPY_DEST_BASE
  xenos::reg::RB_COPY_DEST_PITCH dest_pitch{};
  xenos::reg::RB_COPY_DEST_INFO dest_info{};
  xenos::reg::RB_SURFACE_INFO surface_info{};
  uint32_t depth_clear = 0;     // RB_DEPTH_CLEAR
  uint32_t color_clear = 0;     // RB_COLOR_CLEAR
  uint32_t color_clear_lo = 0;  // RB_COLOR_CLEAR_LO
};

// A draw whose shader exports memory (eA/eM#), once per stream constant it can use: a float
// constant the shader reads whose four dwords have the stream-constant shape (X bits 31:30 = 01,
// Y = 2^23, Z bits 31:20 = 0x4B0, W bits 31:23 = 0x96; xenos.h xe_gpu_memexport_stream_t). Sent
// after the draw's OnDraw. Which eM# lands where is the backend's business (it runs the shader).
struct MemExportCall {
  const DrawCall* draw = nullptr;
  const Shader* shader = nullptr;  // the exporting shader (vertex or pixel)
  uint32_t stream_constant = 0;    // float constant index (c#) holding the stream constant
  xenos::MemExportStreamConstant stream{};
  // Bytes the stream covers: base .. base + index_count * element size (ucode/memexport.h; 0
  // for a format memexport does not implement), clipped to 32 bits.
  uint64_t ByteSize() const;
};

// Every stream constant `shader` (the draw's vertex or pixel shader) reads, as OnMemExport
// reports them (empty when the shader does not export or reads none).
std::vector<MemExportCall> FindMemExportStreams(const DrawCall& draw, const Shader& shader);

// XE_SWAP (Xenia's VdSwap packet).
struct SwapCall {
  uint64_t frame = 0;
  TraceOffset offset;
  uint32_t front_buffer_address = 0;
  uint32_t width = 0, height = 0;
  // The display's gamma ramps at this swap (scan-out applies them: gpu::ApplyDisplayGamma).
  const DisplayGamma* display_gamma = nullptr;
};

enum class EventKind : uint8_t {
  kEventWrite,       // EVENT_WRITE
  kEventWriteShd,    // EVENT_WRITE_SHD: `value` written at `address`
  kEventWriteExt,    // EVENT_WRITE_EXT: screen extents written at `address`
  kEventWriteZpd,    // EVENT_WRITE_ZPD: `address` = RB_SAMPLE_COUNT_ADDR (not written by the CP)
  kVizQueryBegin,    // VIZ_QUERY, `value` = query id
  kVizQueryEnd,
  kInterrupt,        // INTERRUPT, `value` = CPU mask
  kWaitForIdle,
  kInvalidateState,  // `value` = mask
  kContextUpdate,
  kMeInit,
};
const char* EventKindName(EventKind kind);

struct EventCall {
  EventKind kind = EventKind::kEventWrite;
  TraceOffset offset;
  uint32_t initiator = 0;  // VGT_EVENT_INITIATOR value where the packet has one
  uint32_t address = 0;
  uint32_t value = 0;
};

struct FrameEndCall {
  uint64_t frame = 0;
  uint32_t draws = 0;  // draws + resolves in the frame
  format::FrameMarker marker;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual void OnDraw(const DrawCall&) {}
  virtual void OnResolve(const ResolveCall&) {}
  virtual void OnMemExport(const MemExportCall&) {}
  virtual void OnSwap(const SwapCall&) {}
  virtual void OnEvent(const EventCall&) {}
  // The whole 10 MiB EDRAM, native layout.
  virtual void OnEdramSnapshot(std::span<const uint8_t>) {}
  virtual void OnGammaRamp(const format::GammaRamp&) {}
  // Guest memory in [address, address + size) changed (trace data applied, or a CP write).
  virtual void OnMemoryWritten(uint32_t /*address*/, uint32_t /*size*/) {}
  virtual void OnFrameEnd(const FrameEndCall&) {}
};

}  // namespace xnt::replay
