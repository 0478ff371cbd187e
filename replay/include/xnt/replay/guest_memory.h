// Guest physical memory as the GPU sees it: 512 MiB, sparse, in 4 KiB pages that exist only once
// something was written to them. Every access is checked against the physical range; a page that
// was never written reads as zeros and reports itself as unrecorded, so the command processor can
// warn when a trace did not capture what the GPU read.
//
// Each page carries a write generation (bumped on every write that touches it) so caches built
// from guest memory (textures, shaders, vertex data) can tell whether their source changed.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace xnt::replay {

class GuestMemory {
 public:
  static constexpr uint32_t kPageSize = 4096;
  static constexpr uint32_t kPageShift = 12;
  static constexpr uint64_t kSize = 512ull << 20;
  static constexpr uint32_t kPageCount = uint32_t(kSize >> kPageShift);

  GuestMemory();
  ~GuestMemory();
  GuestMemory(const GuestMemory&) = delete;
  GuestMemory& operator=(const GuestMemory&) = delete;

  // True when [address, address + size) lies inside the 512 MiB physical range.
  static constexpr bool InRange(uint64_t address, uint64_t size) {
    return address <= kSize && size <= kSize - address;
  }

  // Both throw xnt::Error (naming the address) when the range leaves physical memory.
  void Write(uint32_t address, std::span<const uint8_t> bytes);
  void Read(uint32_t address, std::span<uint8_t> out) const;

  // Dword helpers. Guest data is big-endian: LoadBE/StoreBE are what the CPU sees; the GPU's
  // endian-swapped accesses are built on these by the command processor. Throw like Read/Write.
  uint32_t LoadBE32(uint32_t address) const;
  void StoreBE32(uint32_t address, uint32_t value);
  uint32_t LoadLE32(uint32_t address) const;
  void StoreLE32(uint32_t address, uint32_t value);
  // `count` big-endian dwords into host order (IB contents, microcode, constants from memory).
  void LoadBE32Array(uint32_t address, std::span<uint32_t> out) const;

  // True when every page of the range has been written at least once (by the trace or by the GPU).
  bool IsRecorded(uint32_t address, uint64_t size) const;
  // Pointer to a page's 4 KiB, or nullptr if it was never written.
  const uint8_t* PageData(uint32_t page_index) const;
  // Bumped on every write touching the page; 0 = never written.
  uint64_t PageGeneration(uint32_t page_index) const {
    const Chunk* c = page_index < kPageCount ? chunks_[page_index >> kChunkShift].get() : nullptr;
    return c ? c->generations[page_index & (kChunkPages - 1)] : 0;
  }
  // Bumped on every write anywhere.
  uint64_t generation() const { return generation_; }
  uint32_t recorded_page_count() const { return recorded_pages_; }

  // Drops every page (back to an empty, all-zero memory).
  void Clear();

 private:
  // The page, allocated on first write: zero-filled unless the caller overwrites all of it
  // (`whole`), as a resolve's bands and page-sized uploads do.
  uint8_t* PageForWrite(uint32_t page_index, bool whole);
  const uint8_t* Page(uint32_t page_index) const {
    const Chunk* c = chunks_[page_index >> kChunkShift].get();
    return c ? c->pages[page_index & (kChunkPages - 1)] : nullptr;
  }

  // Two-level page table: 128 chunks of 1024 pages (4 MiB each), created on first write, so an
  // empty memory costs 1 KiB and a trace touching a few areas a few chunks. The pages themselves
  // are owned by storage_.
  static constexpr uint32_t kChunkShift = 10;
  static constexpr uint32_t kChunkPages = 1u << kChunkShift;
  struct Chunk {
    std::array<uint8_t*, kChunkPages> pages{};
    std::array<uint64_t, kChunkPages> generations{};
  };
  std::array<std::unique_ptr<Chunk>, (kPageCount >> kChunkShift)> chunks_;
  std::vector<std::unique_ptr<uint8_t[]>> storage_;
  uint64_t generation_ = 0;
  uint32_t recorded_pages_ = 0;
};

}  // namespace xnt::replay
