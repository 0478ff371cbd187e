// libFuzzer target for the .xnt reader: opens the input as a trace held in memory, streams every
// record (memory events copied, then as page spans), reads the last frame by random access, and
// validates. Any xnt::Error is a correct answer; a crash, hang, sanitizer report or huge
// allocation is a bug. In fuzzing builds the checksums are not enforced (format/src/layout.h) so
// that mutations reach the parsers.
#include <cstddef>
#include <cstdint>

#include "xnt/base/error.h"
#include "xnt/format/reader.h"

namespace {

uint64_t Touch(const xnt::format::Record& r) {
  using namespace xnt::format;
  if (auto* m = std::get_if<MemoryEvent>(&r)) return m->bytes.empty() ? 0 : m->bytes.front() + m->bytes.back();
  if (auto* s = std::get_if<Submission>(&r)) return s->dwords.size();
  if (auto* e = std::get_if<EdramSnapshot>(&r)) return e->bytes.size();
  return 1;
}

// The spans of a memory event must tile its range exactly, in address order; ASan catches a span
// that points outside its decoded chunk when its bytes are read.
uint64_t TouchPages(const xnt::format::MemoryPages& m) {
  uint64_t next = m.guest_address(), total = 0, sum = 0;
  m.ForEachSpan([&](uint32_t address, std::span<const uint8_t> run) {
    if (address != uint32_t(next) || run.empty()) __builtin_trap();
    sum += run.front() + run.back();
    next += run.size();
    total += run.size();
  });
  if (total != m.size()) __builtin_trap();
  return sum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  xnt::format::ReaderOptions options;
  options.threads = 1;
  std::unique_ptr<xnt::format::Reader> reader;
  try {
    reader = xnt::format::Reader::OpenMemory({data, size}, options);
  } catch (const xnt::Error&) {
    return 0;
  }
  volatile uint64_t sink = 0;
  auto cb = [&](const xnt::format::Record& r) {
    sink = sink + Touch(r);
    return true;
  };
  try {
    reader->ForEachRecord(cb);
  } catch (const xnt::Error&) {
  }
  try {
    reader->ForEachRecordPaged(cb, [&](const xnt::format::MemoryPages& m) {
      sink = sink + TouchPages(m);
      return true;
    });
  } catch (const xnt::Error&) {
  }
  const uint64_t frames = reader->frame_count();
  try {
    if (frames > 0) reader->ForEachRecord(cb, frames - 1, frames - 1);
    reader->ForEachStateRecordBefore(cb, frames);
  } catch (const xnt::Error&) {
  }
  try {
    for (size_t i = 0; i < reader->chunks().size(); ++i) sink = sink + reader->ReadChunkRaw(i).size();
  } catch (const xnt::Error&) {
  }
  (void)reader->Validate();
  return 0;
}
