// Byte-order helpers. The Xbox 360 CPU is big-endian (PowerPC), so guest memory holds big-endian
// words; Xenotrace runs on little-endian hosts and swaps when it interprets guest data.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace xnt {

static_assert(std::endian::native == std::endian::little, "Xenotrace assumes a little-endian host");

inline uint16_t ByteSwap16(uint16_t v) { return uint16_t((v >> 8) | (v << 8)); }
inline uint32_t ByteSwap32(uint32_t v) { return __builtin_bswap32(v); }
inline uint64_t ByteSwap64(uint64_t v) { return __builtin_bswap64(v); }

inline uint32_t LoadBE32(const void* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return ByteSwap32(v);
}
inline void StoreBE32(void* p, uint32_t v) {
  v = ByteSwap32(v);
  std::memcpy(p, &v, 4);
}
inline uint32_t LoadLE32(const void* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline void StoreLE32(void* p, uint32_t v) { std::memcpy(p, &v, 4); }

}  // namespace xnt
