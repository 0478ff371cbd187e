#include "xnt/replay/trace_player.h"

#include <type_traits>

#include "cp_format.h"

namespace xnt::replay {

TracePlayer::TracePlayer(Backend& backend, const CommandProcessorOptions& options)
    : backend_(backend), cp_(memory_, registers_, backend, options) {}

void TracePlayer::Apply(const format::Record& record) {
  const uint64_t index = record_index_++;
  cp_.set_record(index);
  std::visit(
      [&](const auto& r) {
        using T = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<T, format::Submission>) {
          cp_.Execute(r.dwords, r.guest_address, index);
        } else if constexpr (std::is_same_v<T, format::MemoryEvent>) {
          if (!AcceptMemory(r.kind, r.guest_address, r.bytes.size())) return;
          memory_.Write(r.guest_address, r.bytes);
          backend_.OnMemoryWritten(r.guest_address, uint32_t(r.bytes.size()));
        } else if constexpr (std::is_same_v<T, format::RegisterSnapshot>) {
          uint64_t end = uint64_t(r.first_register) + r.values.size();
          if (end > RegisterFile::kCount) {
            cp_.Report(Severity::kError, 0,
                       Format("register snapshot 0x%X + %zu values runs past the register file; "
                              "the excess is dropped",
                              r.first_register, r.values.size()));
          }
          for (size_t i = 0; i < r.values.size() && r.first_register + i < RegisterFile::kCount;
               ++i) {
            registers_.Set(uint32_t(r.first_register + i), r.values[i]);
          }
        } else if constexpr (std::is_same_v<T, format::EdramSnapshot>) {
          if (r.bytes.size() != format::kEdramSizeBytes) {
            cp_.Report(Severity::kWarning, 0,
                       Format("EDRAM snapshot has %zu bytes, expected %u", r.bytes.size(),
                              format::kEdramSizeBytes));
          }
          backend_.OnEdramSnapshot(r.bytes);
        } else if constexpr (std::is_same_v<T, format::GammaRamp>) {
          cp_.display_gamma().Load(r);
          backend_.OnGammaRamp(r);
        } else if constexpr (std::is_same_v<T, format::FrameMarker>) {
          cp_.EndFrame(r);
        } else {
          static_assert(std::is_same_v<T, format::Annotation>);
        }
      },
      record);
}

void TracePlayer::Apply(const format::MemoryPages& memory) {
  const uint64_t index = record_index_++;
  cp_.set_record(index);
  if (!AcceptMemory(memory.kind(), memory.guest_address(), memory.size())) return;
  memory.ForEachSpan([&](uint32_t address, std::span<const uint8_t> bytes) { memory_.Write(address, bytes); });
  backend_.OnMemoryWritten(memory.guest_address(), memory.size());
}

bool TracePlayer::AcceptMemory(format::MemoryEventKind kind, uint32_t guest_address, uint64_t size) {
  if (kind == format::MemoryEventKind::kGpuWrite) return false;  // informational only
  if (!GuestMemory::InRange(guest_address, size)) {
    cp_.Report(Severity::kError, guest_address,
               Format("memory event of %llu bytes at 0x%08X leaves the 512 MiB physical range; "
                      "not applied",
                      (unsigned long long)size, guest_address));
    return false;
  }
  return true;
}

void TracePlayer::Play(format::Reader& reader, std::optional<uint64_t> last_frame,
                       const RecordHook& before_record) {
  if (!before_record) {
    reader.ForEachRecordPaged(
        [&](const format::Record& record) {
          Apply(record);
          return true;
        },
        [&](const format::MemoryPages& memory) {
          Apply(memory);
          return true;
        },
        0, last_frame);
    return;
  }
  reader.ForEachRecord(
      [&](const format::Record& record) {
        if (!before_record(record_index_, record)) return false;
        Apply(record);
        return true;
      },
      0, last_frame);
}

}  // namespace xnt::replay
