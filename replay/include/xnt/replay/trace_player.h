// Drives a trace through the guest GPU front end: applies memory events to GuestMemory (except
// kGpuWrite, which only records what the GPU wrote), register snapshots to the register file,
// EDRAM snapshots and gamma ramps to the Backend, executes Submissions on the CommandProcessor,
// and ends a frame at every FrameMarker.
//
// Numbering (shared with `replay` and `dump`): frame N is everything up to and including the N-th
// FrameMarker (0-based); draws are numbered within their frame from 0 (draws and resolves share
// the counter). Records are numbered from 0 in stream order; TraceOffset::record is that number.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "xnt/format/reader.h"
#include "xnt/format/records.h"
#include "xnt/replay/backend.h"
#include "xnt/replay/command_processor.h"
#include "xnt/replay/guest_memory.h"
#include "xnt/replay/register_file.h"

namespace xnt::replay {

class TracePlayer {
 public:
  explicit TracePlayer(Backend& backend, const CommandProcessorOptions& options = {});

  GuestMemory& memory() { return memory_; }
  RegisterFile& registers() { return registers_; }
  CommandProcessor& command_processor() { return cp_; }
  void set_observer(PacketObserver* observer) { cp_.set_observer(observer); }

  // Applies the next record of the stream.
  void Apply(const format::Record& record);
  // Applies the next record when it is a memory event as the reader's pages: the same as a
  // MemoryEvent record with those bytes, each span copied straight into guest memory.
  void Apply(const format::MemoryPages& memory);
  uint64_t records_applied() const { return record_index_; }

  // Plays the trace from its start through the end of frame `last_frame` (nullopt = everything).
  // `before_record`, when given, sees each record (with its index) before it is applied and may
  // return false to stop. Frames before the one of interest must still be played: they build the
  // memory and register state later frames depend on. Throws xnt::Error on file damage. Without a
  // hook memory events are read as page spans (no copy in the reader); a hook sees whole
  // MemoryEvent records, so then the reader copies them (dump's printer is the hook user).
  using RecordHook = std::function<bool(uint64_t index, const format::Record&)>;
  void Play(format::Reader& reader, std::optional<uint64_t> last_frame = std::nullopt,
            const RecordHook& before_record = {});

 private:
  // False for a memory event that is not applied: kGpuWrite (informational) or one leaving the
  // physical range (reported as a diagnostic).
  bool AcceptMemory(format::MemoryEventKind kind, uint32_t guest_address, uint64_t size);

  GuestMemory memory_;
  RegisterFile registers_;
  Backend& backend_;
  CommandProcessor cp_;
  uint64_t record_index_ = 0;
};

}  // namespace xnt::replay
