// The run-time-picked XXH3-64 kernel (format/src/xxh3_wide.h) must give the library's value for
// every length and alignment: every chunk hash in every .xnt file depends on it.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

#include "xxh3_wide.h"

namespace xnt::format::test {
namespace {

std::vector<uint8_t> Pattern(size_t n) {
  std::vector<uint8_t> v(n);
  uint64_t s = 0x9E3779B97F4A7C15ull;
  for (auto& b : v) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    b = uint8_t(s >> 56);
  }
  return v;
}

TEST(Xxh3Wide, EmptyInputIsTheReferenceValue) {
  // XXH3-64 of no bytes with seed 0 (xxhash's published test vector).
  EXPECT_EQ(Xxh3Wide64(nullptr, 0), 0x2D06800538D394C2ull);
}

TEST(Xxh3Wide, MatchesTheLibraryForEveryShortLengthAndAlignment) {
  // Lengths cross XXH3's internal cases: 0-16, 17-128, 129-240, then stripes of 64 bytes and
  // blocks of 1024 with a partial last stripe.
  const std::vector<uint8_t> bytes = Pattern(4096 + 64);
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t n = 0; n <= 2100; ++n) {
      ASSERT_EQ(Xxh3Wide64(bytes.data() + offset, n), XXH3_64bits(bytes.data() + offset, n))
          << "length " << n << " at offset " << offset;
    }
  }
}

TEST(Xxh3Wide, MatchesTheLibraryOnChunkSizedInputs) {
  // (The buffer holds the longest length: hashing past it was a heap over-read that ASan caught.)
  const size_t lengths[] = {size_t(1) << 20, (size_t(1) << 20) + 4099, size_t(481184), size_t(1052704)};
  const std::vector<uint8_t> bytes = Pattern(*std::max_element(std::begin(lengths), std::end(lengths)));
  for (size_t n : lengths) {
    EXPECT_EQ(Xxh3Wide64(bytes.data(), n), XXH3_64bits(bytes.data(), n)) << "length " << n;
    EXPECT_EQ(Xxh3Wide64(bytes.data() + 3, n - 3), XXH3_64bits(bytes.data() + 3, n - 3)) << "length " << n;
  }
}

}  // namespace
}  // namespace xnt::format::test
