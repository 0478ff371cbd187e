// A small guest memory for renderer tests (sparse 4 KiB pages with write generations), exposed
// through gpu::GuestMemoryAccess like replay::GuestMemory is in the backend.
#pragma once

#include <cstring>
#include <functional>
#include <map>
#include <span>
#include <vector>

#include "xnt/base/byte_order.h"
#include "xnt/base/error.h"
#include "xnt/gpu/guest_access.h"

namespace xnt::vk::test {

class FakeGuest {
 public:
  void Write(uint32_t address, std::span<const uint8_t> bytes) {
    if (uint64_t(address) + bytes.size() > (512ull << 20)) throw Error("fake guest: out of range");
    ++generation_;
    for (size_t i = 0; i < bytes.size();) {
      uint32_t a = address + uint32_t(i);
      auto& page = Page(a >> 12);
      size_t n = std::min<size_t>(bytes.size() - i, 4096 - (a & 4095));
      std::memcpy(page.data() + (a & 4095), bytes.data() + i, n);
      generations_[a >> 12] = generation_;
      i += n;
    }
    if (on_write) on_write(address, bytes.size());
  }
  // Called after every write (the backend's OnMemoryWritten equivalent).
  std::function<void(uint32_t, size_t)> on_write;
  void Read(uint32_t address, std::span<uint8_t> out) const {
    if (uint64_t(address) + out.size() > (512ull << 20)) throw Error("fake guest: out of range");
    for (size_t i = 0; i < out.size(); ++i) {
      uint32_t a = address + uint32_t(i);
      auto it = pages_.find(a >> 12);
      out[i] = it == pages_.end() ? 0 : it->second[a & 4095];
    }
  }
  void WriteBE32(uint32_t address, uint32_t value) {
    uint8_t b[4];
    StoreBE32(b, value);
    Write(address, b);
  }
  void WriteBEFloats(uint32_t address, std::initializer_list<float> values) {
    uint32_t a = address;
    for (float f : values) {
      uint32_t u;
      std::memcpy(&u, &f, 4);
      WriteBE32(a, u);
      a += 4;
    }
  }
  gpu::GuestMemoryAccess Access() {
    gpu::GuestMemoryAccess m;
    m.pages.generation = [this] { return generation_; };
    m.pages.page_generation = [this](uint32_t p) { return generations_[p]; };
    m.pages.page_data = [this](uint32_t p) -> const uint8_t* {
      auto it = pages_.find(p);
      return it == pages_.end() ? nullptr : it->second.data();
    };
    m.read = [this](uint32_t a, std::span<uint8_t> out) { Read(a, out); };
    m.write = [this](uint32_t a, std::span<const uint8_t> in) { Write(a, in); };
    return m;
  }

 private:
  std::vector<uint8_t>& Page(uint32_t index) {
    auto& p = pages_[index];
    if (p.empty()) p.resize(4096);
    return p;
  }
  std::map<uint32_t, std::vector<uint8_t>> pages_;
  // Per page, like replay::GuestMemory (the mirror scans all of them when anything changed).
  std::vector<uint64_t> generations_ = std::vector<uint64_t>((512ull << 20) >> 12, 0);
  uint64_t generation_ = 0;
};

}  // namespace xnt::vk::test
