// A memory event as the reader holds it, without copying its bytes: the guest range and the
// stored 4 KiB pages that cover it, as spans into the decoded Pages chunks. A trace stores each
// distinct guest page once and names it from every event that covers it (docs/format.md), so a
// reader that rebuilt each event as one contiguous buffer copied about twice the trace's raw
// bytes; a consumer that keeps guest memory in pages of its own (replay's GuestMemory) copies
// each span straight into place instead (docs/speed.md, "Trace reading").
//
// Lifetime: a MemoryPages exists only during the reader callback it is passed to. The spans point
// into chunk buffers the reader holds for that call and reuses or frees afterwards, so neither
// the object nor any span taken from it may be kept: copy the bytes (CopyTo, ToEvent) to keep
// them. The object cannot be copied or moved, and every accessor checks that a callback is
// running: a pointer to it kept past the callback aborts when used outside any callback (used
// inside the next event's callback it would read that event, as the reader reuses the object).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "xnt/format/records.h"

namespace xnt::format {

class MemoryPages {
 public:
  MemoryPages() = default;
  MemoryPages(const MemoryPages&) = delete;
  MemoryPages& operator=(const MemoryPages&) = delete;

  MemoryEventKind kind() const {
    CheckLive();
    return kind_;
  }
  uint32_t guest_address() const {
    CheckLive();
    return guest_address_;
  }
  // Bytes in the event (at most 512 MiB: the reader checks that before delivering it).
  uint32_t size() const {
    CheckLive();
    return size_;
  }

  // Calls fn(uint32_t guest_address, std::span<const uint8_t> bytes) for the event's bytes in
  // ascending address order. The spans tile [guest_address(), guest_address() + size()) exactly;
  // each is a run of pages stored back to back in one decoded chunk (an upload of fresh pages is
  // usually one span; a page shared with earlier events starts a new one). None for size() == 0.
  template <typename Fn>
  void ForEachSpan(Fn&& fn) const {
    CheckLive();
    uint64_t address = guest_address_;
    for (const std::span<const uint8_t>& run : runs_) {
      fn(uint32_t(address), run);
      address += run.size();
    }
  }
  // Copies the bytes to `out`, which must hold exactly size() bytes (else xnt::Error).
  void CopyTo(std::span<uint8_t> out) const;
  // An owned copy, for a consumer that keeps the event.
  MemoryEvent ToEvent() const;

 private:
  friend struct MemoryPagesFill;  // the reader fills and retires it (format/src/reader.cpp)
  void CheckLive() const {
    if (!live_) UsedOutsideCallback();
  }
  [[noreturn]] static void UsedOutsideCallback();

  MemoryEventKind kind_ = MemoryEventKind::kGpuRead;
  uint32_t guest_address_ = 0;
  uint32_t size_ = 0;
  std::span<const std::span<const uint8_t>> runs_;
  bool live_ = false;
};

}  // namespace xnt::format
