// Sparse page table: one pointer per 4 KiB page (131072 of them, 1 MiB of table) so a lookup is
// an index, and only touched pages cost memory.
#include "xnt/replay/guest_memory.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"

namespace xnt::replay {

namespace {

// Calls fn(page, offset in the page, offset in the bytes, length) for each page's piece of the
// `size` bytes at `address`, in address order.
template <typename Fn>
void ForEachPagePiece(uint32_t address, size_t size, Fn&& fn) {
  uint64_t pos = address;
  size_t done = 0;
  while (done < size) {
    const uint32_t page = uint32_t(pos >> GuestMemory::kPageShift);
    const uint32_t in_page = uint32_t(pos & (GuestMemory::kPageSize - 1));
    const size_t n = std::min<size_t>(GuestMemory::kPageSize - in_page, size - done);
    fn(page, in_page, done, n);
    done += n;
    pos += n;
  }
}

[[noreturn]] void ThrowRange(const char* what, uint64_t address, uint64_t size) {
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "guest memory %s of %llu bytes at 0x%08llX leaves the 512 MiB physical range", what,
                static_cast<unsigned long long>(size), static_cast<unsigned long long>(address));
  throw Error(buf);
}
}  // namespace

GuestMemory::GuestMemory() = default;
GuestMemory::~GuestMemory() = default;

uint8_t* GuestMemory::PageForWrite(uint32_t page_index, bool whole) {
  auto& chunk = chunks_[page_index >> kChunkShift];
  if (!chunk) chunk = std::make_unique<Chunk>();
  const uint32_t slot = page_index & (kChunkPages - 1);
  uint8_t*& page = chunk->pages[slot];
  if (!page) {
    storage_.push_back(whole ? std::make_unique_for_overwrite<uint8_t[]>(kPageSize)
                             : std::make_unique<uint8_t[]>(kPageSize));  // value-initialised: zeros
    page = storage_.back().get();
    ++recorded_pages_;
  }
  chunk->generations[slot] = ++generation_;
  return page;
}

void GuestMemory::Write(uint32_t address, std::span<const uint8_t> bytes) {
  if (!InRange(address, bytes.size())) ThrowRange("write", address, bytes.size());
  ForEachPagePiece(address, bytes.size(), [&](uint32_t page, uint32_t in_page, size_t done, size_t n) {
    std::memcpy(PageForWrite(page, n == kPageSize) + in_page, bytes.data() + done, n);
  });
}

void GuestMemory::Read(uint32_t address, std::span<uint8_t> out) const {
  if (!InRange(address, out.size())) ThrowRange("read", address, out.size());
  ForEachPagePiece(address, out.size(), [&](uint32_t page, uint32_t in_page, size_t done, size_t n) {
    if (const uint8_t* p = Page(page)) {
      std::memcpy(out.data() + done, p + in_page, n);
    } else {
      std::memset(out.data() + done, 0, n);
    }
  });
}

uint32_t GuestMemory::LoadBE32(uint32_t address) const { return ByteSwap32(LoadLE32(address)); }
void GuestMemory::StoreBE32(uint32_t address, uint32_t value) { StoreLE32(address, ByteSwap32(value)); }

uint32_t GuestMemory::LoadLE32(uint32_t address) const {
  uint8_t b[4];
  Read(address, b);
  return xnt::LoadLE32(b);
}

void GuestMemory::StoreLE32(uint32_t address, uint32_t value) {
  uint8_t b[4];
  xnt::StoreLE32(b, value);
  Write(address, b);
}

void GuestMemory::LoadBE32Array(uint32_t address, std::span<uint32_t> out) const {
  uint64_t size = uint64_t(out.size()) * 4;
  if (!InRange(address, size)) ThrowRange("read", address, size);
  Read(address, std::span<uint8_t>(reinterpret_cast<uint8_t*>(out.data()), size_t(size)));
  for (uint32_t& v : out) v = ByteSwap32(v);
}

bool GuestMemory::IsRecorded(uint32_t address, uint64_t size) const {
  if (!InRange(address, size)) return false;
  if (size == 0) return true;
  uint32_t first = address >> kPageShift;
  uint32_t last = uint32_t((uint64_t(address) + size - 1) >> kPageShift);
  for (uint32_t p = first; p <= last; ++p) {
    if (!Page(p)) return false;
  }
  return true;
}

const uint8_t* GuestMemory::PageData(uint32_t page_index) const {
  return page_index < kPageCount ? Page(page_index) : nullptr;
}

void GuestMemory::Clear() {
  for (auto& c : chunks_) c.reset();
  storage_.clear();
  recorded_pages_ = 0;
  ++generation_;
}

}  // namespace xnt::replay
