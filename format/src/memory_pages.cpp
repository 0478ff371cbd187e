// Owned copies of page-span memory events (memory_pages.h), and the copying record stream
// (Reader::ForEachRecord) built on the reader's paged one.
#include "xnt/format/memory_pages.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "xnt/base/error.h"
#include "xnt/format/reader.h"

namespace xnt::format {

void MemoryPages::UsedOutsideCallback() {
  // A programming error in the consumer, not damage in a file: the spans may already point at
  // another chunk's bytes, so going on could replay wrong memory without a word.
  std::fputs("xenotrace: format::MemoryPages used after the reader callback that received it returned\n", stderr);
  std::abort();
}

void MemoryPages::CopyTo(std::span<uint8_t> out) const {
  CheckLive();
  if (out.size() != size_) {
    throw Error("memory event of " + std::to_string(size_) + " bytes copied into a buffer of " +
                std::to_string(out.size()));
  }
  size_t at = 0;
  for (const std::span<const uint8_t>& run : runs_) {
    std::memcpy(out.data() + at, run.data(), run.size());
    at += run.size();
  }
}

MemoryEvent MemoryPages::ToEvent() const {
  CheckLive();
  MemoryEvent event;
  event.kind = kind_;
  event.guest_address = guest_address_;
  event.bytes.reserve(size_);
  for (const std::span<const uint8_t>& run : runs_) event.bytes.insert(event.bytes.end(), run.begin(), run.end());
  return event;
}

namespace {

// Rebuilds each memory event in one reused Record: the buffer keeps its capacity from one event
// to the next, so the stream allocates only when an event outgrows the largest one so far.
class CopyingMemoryCallback {
 public:
  explicit CopyingMemoryCallback(const Reader::RecordCallback& callback) : callback_(callback) {}
  bool operator()(const MemoryPages& pages) {
    auto& event = std::get<MemoryEvent>(record_);
    event.kind = pages.kind();
    event.guest_address = pages.guest_address();
    event.bytes.clear();
    event.bytes.reserve(pages.size());
    pages.ForEachSpan([&](uint32_t, std::span<const uint8_t> run) {
      event.bytes.insert(event.bytes.end(), run.begin(), run.end());
    });
    return callback_(record_);
  }

 private:
  const Reader::RecordCallback& callback_;
  Record record_{MemoryEvent{}};
};

}  // namespace

void Reader::ForEachRecord(const RecordCallback& callback, uint64_t first_frame,
                           std::optional<uint64_t> last_frame) {
  CopyingMemoryCallback copy(callback);
  ForEachRecordPaged(callback, std::ref(copy), first_frame, last_frame);
}

void Reader::ForEachStateRecordBefore(const RecordCallback& callback, uint64_t frame) {
  CopyingMemoryCallback copy(callback);
  ForEachStateRecordBeforePaged(callback, std::ref(copy), frame);
}

}  // namespace xnt::format
