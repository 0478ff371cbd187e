// XXH3-64 of chunk payloads with the widest vector unit the CPU has. The distro's libxxhash is
// built for baseline x86-64 (SSE2: 14.9 GB/s on 1 MiB in cache on the 2-core machine); XXH3 is
// defined on 64-byte stripes, so its AVX2 and AVX-512 kernels give the same hash (xxhash's own
// xxh_x86dispatch.c relies on this) at 36 and 52 GB/s there. Private to format/src.
#pragma once

#include <cstddef>
#include <cstdint>

namespace xnt::format {

// Same value as XXH3_64bits(data, size) on every CPU.
uint64_t Xxh3Wide64(const void* data, size_t size);

}  // namespace xnt::format
