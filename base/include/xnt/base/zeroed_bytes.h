// A fixed-size block of bytes that reads as zeros from the start without being written: calloc
// gives a large block as fresh pages of the mapping it makes (glibc, and the sanitizers'
// allocators, skip the clearing there), so a page costs a fault and a clear only when something
// touches it. A vector of the same size writes every byte at construction; the EDRAM model (10 MiB,
// 90 MiB at a 3x3 resolution scale), of which a frame uses a few tiles, then costs what it uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>
#include <utility>

namespace xnt {

class ZeroedBytes {
 public:
  ZeroedBytes() = default;
  explicit ZeroedBytes(size_t size) : data_(Allocate(size, true)), size_(size) {}
  ZeroedBytes(const ZeroedBytes& other) : data_(Allocate(other.size_, false)), size_(other.size_) {
    if (size_ != 0) std::memcpy(data_, other.data_, size_);
  }
  ZeroedBytes(ZeroedBytes&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  ZeroedBytes& operator=(ZeroedBytes other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  ~ZeroedBytes() { std::free(data_); }

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  std::span<uint8_t> span() { return {data_, size_}; }
  std::span<const uint8_t> span() const { return {data_, size_}; }

 private:
  // The copy is written in full at once, so plain malloc: calloc would clear what memcpy
  // overwrites.
  static uint8_t* Allocate(size_t size, bool zeroed) {
    if (size == 0) return nullptr;
    void* p = zeroed ? std::calloc(size, 1) : std::malloc(size);
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<uint8_t*>(p);
  }

  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace xnt
