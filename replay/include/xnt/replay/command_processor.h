// The Xenos command processor (CP): walks PM4 packet streams - ring-buffer submissions and the
// indirect buffers they call - applies register writes, and turns type-3 commands into their
// effects: register/constant updates, shader microcode loads, memory writes (fences, MEM_WRITE,
// REG_TO_MEM, COND_WRITE, scratch writeback), draws and resolves for the Backend, swaps, events.
//
// Behaviour follows Xenia's CommandProcessor (src/xenia/gpu/command_processor.cc)
// except where a trace replayer must differ:
//  - WAIT_REG_MEM is evaluated once against the recorded memory / registers and never spins (the
//    trace cannot change while we wait); an unmet condition is a warning.
//  - Everything read from the stream or guest memory is bounds-checked: counts running past the
//    buffer, addresses beyond 512 MiB, recursive or too-deep indirect buffers become Diagnostics
//    naming the trace offset and guest address, and decoding continues where that is safe.
// Not modelled yet: opcodes Xenia also skips (SET_STATE, IM_STORE, LOAD_CONSTANT_CONTEXT,
// DRAW_INDX_BIN, DRAW_INDX_2_BIN, COND_EXEC, SET_SHADER_BASES, SET_BIN_BASE_OFFSET,
// MEM_WRITE_CNTR, WAIT_REG_EQ, WAIT_REG_GTE, EVENT_WRITE_CFL, WAIT_UNTIL_READ,
// WAIT_IB_PFD_COMPLETE) are reported and skipped; EVENT_WRITE_ZPD does not write sample counts.
// The gamma-ramp register ports (DC_LUT_*) and ramp records build the display's ramps
// (display_gamma.h), which every swap hands the backend.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "xnt/replay/backend.h"
#include "xnt/replay/diagnostics.h"
#include "xnt/replay/display_gamma.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"
#include "xnt/ucode/shader_cache.h"

namespace xnt::replay {

// One PM4 packet as the CP met it, for observers such as `dump`.
struct PacketInfo {
  TraceOffset offset;
  uint32_t guest_address = 0;
  uint32_t header = 0;
  xenos::PacketType type = xenos::PacketType::kType0;
  uint32_t opcode = 0;     // type 3 only
  uint32_t count = 0;      // data/payload dwords after the header (0 for type 2 and fillers)
  bool predicated = false;
  bool executed = true;    // false when the predicate (bin select & bin mask) skipped it
  bool filler = false;     // a zero dword, treated as a one-dword no-op
  std::span<const uint32_t> payload;  // valid during the callback
};

class PacketObserver {
 public:
  virtual ~PacketObserver() = default;
  // Called before the packet takes effect.
  virtual void OnPacket(const PacketInfo&) {}
  virtual void OnRegisterWrite(uint32_t /*index*/, uint32_t /*value*/) {}
  // Guest memory the CP itself reads for a packet's effect (IM_LOAD, LOAD_ALU_CONSTANT, a
  // memory poll of WAIT_REG_MEM / COND_WRITE), physical address; not indirect buffers' dwords.
  virtual void OnMemoryRead(uint32_t /*address*/, uint64_t /*size*/) {}
  virtual void OnDiagnostic(const Diagnostic&) {}
};

struct CommandProcessorOptions {
  uint32_t max_indirect_depth = 8;      // nesting of INDIRECT_BUFFER calls
  uint64_t max_packets = 0;             // total packets before giving up; 0 = unlimited
  size_t max_stored_diagnostics = 10000;  // more are counted, not stored
  size_t max_cached_shaders = 4096;
  // Total dwords fetched from guest memory by indirect buffers, IM_LOAD and LOAD_ALU_CONSTANT
  // before giving up; 0 = unlimited. Bounds the work a hostile stream can cause (the fuzzer).
  uint64_t max_fetch_dwords = 0;
};

class CommandProcessor {
 public:
  CommandProcessor(GuestMemory& memory, RegisterFile& registers, Backend& backend,
                   const CommandProcessorOptions& options = {});
  ~CommandProcessor();

  void set_observer(PacketObserver* observer) { observer_ = observer; }

  // Executes one submission: `dwords` in host order, fetched from `guest_address`; `record` is its
  // index in the trace stream (for TraceOffset). Never throws for bad PM4; see diagnostics().
  void Execute(std::span<const uint32_t> dwords, uint32_t guest_address, uint64_t record = 0);

  // Frame bookkeeping: the player calls EndFrame at each FrameMarker.
  void EndFrame(const format::FrameMarker& marker);
  uint64_t frame() const { return frame_; }
  uint32_t draw_in_frame() const { return draw_in_frame_; }

  uint64_t bin_mask() const { return bin_mask_; }
  uint64_t bin_select() const { return bin_select_; }
  uint32_t swap_counter() const { return swap_counter_; }
  const Shader* active_vertex_shader() const { return vertex_shader_.get(); }
  const Shader* active_pixel_shader() const { return pixel_shader_.get(); }
  // Decoded microcode, one entry per distinct shader.
  const ucode::ShaderCache& shader_cache() const { return decoded_; }
  const std::vector<uint32_t>& me_init_data() const { return me_init_; }

  uint64_t packets_executed() const { return packets_; }
  // True once max_packets or max_fetch_dwords was reached; further Execute calls do nothing.
  bool stopped() const { return stopped_; }

  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  uint64_t diagnostic_count(Severity s) const { return diagnostic_counts_[size_t(s)]; }
  // Adds a diagnostic at the current trace offset (also used by the trace player).
  void Report(Severity severity, uint32_t guest_address, std::string message);
  void set_record(uint64_t record) { offset_.record = record; }
  // The display's gamma ramps as the stream and the ramp records left them.
  DisplayGamma& display_gamma() { return display_gamma_; }
  const DisplayGamma& display_gamma() const { return display_gamma_; }

 private:
  struct Stream {
    std::span<const uint32_t> dwords;
    uint32_t guest_address;
    uint32_t depth;
  };

  // Returns false when the stream must stop (error in framing).
  void ExecuteStream(const Stream& stream);
  bool ExecuteType3(const Stream& s, uint32_t pos, uint32_t header, std::span<const uint32_t> p);
  uint32_t AddressOf(const Stream& s, uint32_t pos) const { return s.guest_address + pos * 4; }

  void WriteRegister(uint32_t index, uint32_t value);
  void WriteRegisters(uint32_t first, std::span<const uint32_t> values, uint32_t packet_address);

  // Memory effects (cp_memory.cpp).
  bool CheckRange(uint32_t address, uint64_t size, const char* what);
  uint32_t PhysicalAddress(uint32_t address, const char* what);
  void WriteGuestDword(uint32_t address_with_endian, uint32_t value, const char* what);
  bool ReadGuestDword(uint32_t address_with_endian, uint32_t& value, const char* what);
  bool ReadGuestArray(uint32_t address, std::span<uint32_t> out, const char* what);
  bool PollValue(uint32_t wait_info, uint32_t poll, uint32_t& value, const char* what);
  // Counts dwords fetched from memory against max_fetch_dwords; false (and stops) past it.
  bool ChargeFetch(uint64_t dwords, uint32_t address);

  // Type-3 handlers grouped by block.
  void IndirectBuffer(const Stream& s, uint32_t pos, std::span<const uint32_t> p);
  void WaitRegMem(uint32_t packet_address, std::span<const uint32_t> p);
  void CondWrite(std::span<const uint32_t> p);
  void MemWrite(std::span<const uint32_t> p);
  void RegToMem(std::span<const uint32_t> p);
  void RegRmw(std::span<const uint32_t> p);
  void EventWrite(uint32_t opcode, std::span<const uint32_t> p);
  void VizQuery(std::span<const uint32_t> p);
  void SetConstant(uint32_t packet_address, std::span<const uint32_t> p);
  void LoadAluConstant(uint32_t packet_address, std::span<const uint32_t> p);
  void ImLoad(std::span<const uint32_t> p);
  void ImLoadImmediate(uint32_t payload_address, std::span<const uint32_t> p);
  void LoadShader(xenos::ShaderType type, uint32_t address, bool immediate,
                  std::span<const uint32_t> dwords);
  void AnalyzeShader(Shader& shader);
  void ReportMemExports(const DrawCall& draw, const Shader* shader);
  void Draw(uint32_t opcode, uint32_t packet_address, uint32_t viz_query,
            std::span<const uint32_t> p);
  void Swap(std::span<const uint32_t> p);
  void Event(EventKind kind, uint32_t initiator, uint32_t address, uint32_t value);

  GuestMemory& memory_;
  RegisterFile& registers_;
  Backend& backend_;
  CommandProcessorOptions options_;
  PacketObserver* observer_ = nullptr;
  DisplayGamma display_gamma_;

  TraceOffset offset_;
  uint32_t packet_address_ = 0;
  std::vector<uint32_t> ib_stack_;  // guest addresses of the indirect buffers being executed

  uint64_t frame_ = 0;
  uint32_t draw_in_frame_ = 0;
  uint64_t bin_mask_ = ~uint64_t(0);
  uint64_t bin_select_ = ~uint64_t(0);
  uint32_t swap_counter_ = 0;
  std::vector<uint32_t> me_init_;

  using ShaderKey = std::tuple<uint64_t, uint32_t, uint32_t, uint32_t>;
  std::map<ShaderKey, std::shared_ptr<const Shader>> shaders_;
  ucode::ShaderCache decoded_;  // one decode per microcode hash, shared through Shader::decoded
  std::shared_ptr<const Shader> vertex_shader_;
  std::shared_ptr<const Shader> pixel_shader_;

  uint64_t packets_ = 0;
  uint64_t fetched_dwords_ = 0;
  bool stopped_ = false;
  std::vector<Diagnostic> diagnostics_;
  uint64_t diagnostic_counts_[3] = {0, 0, 0};
};

}  // namespace xnt::replay
