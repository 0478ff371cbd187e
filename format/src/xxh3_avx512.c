/* XXH3-64 with AVX-512F (xxh3_wide.h); compiled with -mavx512f, called only where the CPU and OS
 * have it. */
#define XXH_VECTOR XXH_AVX512
#include "xxh3_kernel.inc"

unsigned long long XntXxh3Avx512(const void* data, size_t size) { return XXH3_64bits(data, size); }
