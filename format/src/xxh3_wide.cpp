// Picks the XXH3-64 kernel once (xxh3_wide.h).
#include "xxh3_wide.h"

#include <xxhash.h>

extern "C" {
unsigned long long XntXxh3Avx2(const void* data, size_t size);
unsigned long long XntXxh3Avx512(const void* data, size_t size);
}

namespace xnt::format {
namespace {

using Kernel = unsigned long long (*)(const void*, size_t);

unsigned long long Baseline(const void* data, size_t size) { return XXH3_64bits(data, size); }

Kernel Pick() {
#if defined(__x86_64__) && defined(XNT_XXH3_WIDE)
  // libgcc's cpu model also checks that the OS saves the wider registers (XGETBV).
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return XntXxh3Avx512;
  if (__builtin_cpu_supports("avx2")) return XntXxh3Avx2;
#endif
  return Baseline;
}

}  // namespace

uint64_t Xxh3Wide64(const void* data, size_t size) {
  static const Kernel kernel = Pick();
  return kernel(data, size);
}

}  // namespace xnt::format
