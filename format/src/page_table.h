// Where each stored page is (pages chunk index, slot), keyed by its 128-bit content hash: an
// open-addressing table in one array. The reader looks up every page a memory event spans (a
// 1 MiB vertex upload is 256 lookups); std::unordered_map spent 2 % of a single-threaded read in
// chasing its node lists. Private to format/src.
#pragma once

#include <cstdint>
#include <vector>

#include "xnt/format/records.h"

namespace xnt::format {

struct PageLoc {
  uint32_t chunk = 0, slot = 0;
};

class PageTable {
 public:
  size_t size() const { return size_; }

  void reserve(size_t n) {
    size_t want = 16;
    while (want < n + n / 2 + 1) want *= 2;  // load factor at most 2/3
    if (want > slots_.size()) Rehash(want);
  }

  // Inserts key -> loc unless the key is present; returns whether it inserted.
  bool try_emplace(const PageHash& key, PageLoc loc) {
    if ((size_ + 1) * 3 > slots_.size() * 2) Rehash(slots_.empty() ? 16 : slots_.size() * 2);
    Slot* s = Probe(key);
    if (s->used) return false;
    *s = {key, loc, true};
    ++size_;
    return true;
  }

  // The location of `key`, or null.
  const PageLoc* find(const PageHash& key) const {
    if (slots_.empty()) return nullptr;
    const Slot* s = const_cast<PageTable*>(this)->Probe(key);
    return s->used ? &s->loc : nullptr;
  }
  bool contains(const PageHash& key) const { return find(key) != nullptr; }

 private:
  struct Slot {
    PageHash key;
    PageLoc loc;
    bool used = false;
  };

  // The slot holding `key`, else the empty slot where it would go (the table is never full).
  Slot* Probe(const PageHash& key) {
    const size_t mask = slots_.size() - 1;
    for (size_t i = PageHashHasher()(key) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (!s.used || s.key == key) return &s;
    }
  }

  void Rehash(size_t capacity) {
    std::vector<Slot> old(capacity);
    old.swap(slots_);
    for (const Slot& s : old) {
      if (s.used) *Probe(s.key) = s;
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace xnt::format
