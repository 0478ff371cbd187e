/* XXH3-64 with AVX2 (xxh3_wide.h); compiled with -mavx2, called only where the CPU has it. */
#define XXH_VECTOR XXH_AVX2
#include "xxh3_kernel.inc"

unsigned long long XntXxh3Avx2(const void* data, size_t size) { return XXH3_64bits(data, size); }
