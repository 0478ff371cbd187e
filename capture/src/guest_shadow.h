// A sparse copy of the guest memory a trace has described so far, with per-byte validity: the
// importer asks "does memory already hold exactly these bytes?" and the exporter reads indirect
// buffers back out of it. Bounded to 512 MiB of guest address space; pages appear on first write.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "xnt/format/records.h"

namespace xnt::capture {

class GuestShadow {
 public:
  void Write(uint32_t address, std::span<const uint8_t> bytes) {
    for (size_t i = 0; i < bytes.size();) {
      const uint64_t a = uint64_t(address) + i;
      if (a >= format::kGuestPhysicalSize) return;
      Page& page = GetPage(uint32_t(a >> format::kPageShift));
      const uint32_t in_page = uint32_t(a & (format::kPageSize - 1));
      const size_t n = std::min<size_t>(format::kPageSize - in_page, bytes.size() - i);
      std::memcpy(page.bytes.data() + in_page, bytes.data() + i, n);
      for (size_t k = 0; k < n; ++k) page.valid.set(in_page + k);
      i += n;
    }
  }

  // True when every byte of [address, address + out.size()) is known; fills `out`.
  bool Read(uint32_t address, std::span<uint8_t> out) const {
    for (size_t i = 0; i < out.size();) {
      const uint64_t a = uint64_t(address) + i;
      if (a >= format::kGuestPhysicalSize) return false;
      auto it = pages_.find(uint32_t(a >> format::kPageShift));
      if (it == pages_.end()) return false;
      const uint32_t in_page = uint32_t(a & (format::kPageSize - 1));
      const size_t n = std::min<size_t>(format::kPageSize - in_page, out.size() - i);
      for (size_t k = 0; k < n; ++k) {
        if (!it->second->valid.test(in_page + k)) return false;
      }
      std::memcpy(out.data() + i, it->second->bytes.data() + in_page, n);
      i += n;
    }
    return true;
  }

  bool Holds(uint32_t address, std::span<const uint8_t> bytes) const {
    std::vector<uint8_t> current(bytes.size());
    return Read(address, current) && std::memcmp(current.data(), bytes.data(), bytes.size()) == 0;
  }

 private:
  struct Page {
    std::array<uint8_t, format::kPageSize> bytes{};
    std::bitset<format::kPageSize> valid;
  };
  Page& GetPage(uint32_t index) {
    auto& p = pages_[index];
    if (!p) p = std::make_unique<Page>();
    return *p;
  }
  std::unordered_map<uint32_t, std::unique_ptr<Page>> pages_;
};

}  // namespace xnt::capture
