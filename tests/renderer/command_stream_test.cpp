// The upload ring of CommandStream starts small and grows only when one allocation is larger
// than it, and only once the ring is idle (after the caller's flush): a driver that pins
// host-visible memory counts the whole ring as resident from the start, so a replay whose
// allocations are small never pays for the largest ring. On lavapipe with validation on: the
// grown ring is another buffer the device reads and writes like the first.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "test_env.h"
#include "xnt/base/error.h"
#include "xnt/vk/command_stream.h"

namespace xnt::vk {
namespace {

constexpr uint64_t kMiB = 1ull << 20;

TEST(CommandStreamRing, GrowsOnlyForALargerAllocationOnceIdle) {
  auto ctx = test::MakeLavapipeContext();
  ASSERT_TRUE(ctx);
  CommandStream stream(*ctx, 1 * kMiB, 8 * kMiB);
  EXPECT_EQ(stream.ring_size(), 1 * kMiB);
  const VkBuffer first = stream.ring_buffer();

  // Small allocations fill the first ring; a full one asks for a flush, it does not grow.
  ASSERT_TRUE(stream.TryAllocate(768 * 1024, 16));
  EXPECT_FALSE(stream.TryAllocate(512 * 1024, 16));
  EXPECT_EQ(stream.ring_size(), 1 * kMiB);

  // Larger than the ring while it is in use: flush first (nothing recorded is lost).
  EXPECT_FALSE(stream.TryAllocate(3 * kMiB, 16));
  EXPECT_EQ(stream.ring_size(), 1 * kMiB);
  stream.Flush();
  const uint64_t epoch = stream.submission_count();
  const uint64_t submitted = stream.submitted();

  // Idle: the ring becomes the next power-of-two multiple that holds it (1 -> 4 MiB).
  auto source = stream.TryAllocate(3 * kMiB, 16);
  ASSERT_TRUE(source);
  EXPECT_EQ(stream.ring_size(), 4 * kMiB);
  EXPECT_EQ(stream.ring_generation(), 1u);
  EXPECT_NE(stream.ring_buffer(), first);
  EXPECT_EQ(source->buffer, stream.ring_buffer());
  EXPECT_EQ(source->offset, 0u);
  // A new epoch for per-submission caches, but no submission was made.
  EXPECT_EQ(stream.submission_count(), epoch + 1);
  EXPECT_EQ(stream.submitted(), submitted);

  // The device copies within the grown ring (its last byte included).
  std::vector<uint8_t> pattern(3 * kMiB);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = uint8_t(i * 131 + (i >> 12));
  std::memcpy(source->data, pattern.data(), pattern.size());
  auto target = stream.TryAllocate(kMiB, 256);  // the rest of the ring, to its last byte
  ASSERT_TRUE(target);
  EXPECT_EQ(target->offset + kMiB, 4 * kMiB);
  const VkBufferCopy region{2 * kMiB + 256, target->offset + 256, kMiB - 256};
  vkCmdCopyBuffer(stream.cmd(), source->buffer, target->buffer, 1, &region);
  stream.Flush();
  EXPECT_EQ(std::memcmp(target->data + 256, pattern.data() + 2 * kMiB + 256, kMiB - 256), 0);
  EXPECT_EQ(stream.submitted(), submitted + 1);

  // Growth stops at the largest ring; past it the allocation is an error naming the size.
  auto whole = stream.TryAllocate(5 * kMiB, 16);
  ASSERT_TRUE(whole);
  EXPECT_EQ(stream.ring_size(), 8 * kMiB);
  EXPECT_EQ(stream.ring_generation(), 2u);
  stream.Flush();
  try {
    stream.TryAllocate(8 * kMiB + 1, 16);
    ADD_FAILURE() << "an allocation past the largest ring was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("8388609 bytes exceeds the 8388608-byte"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(stream.ring_size(), 8 * kMiB);
}

// A stream made with one size keeps it (the tests' and tools' fixed rings).
TEST(CommandStreamRing, FixedRingNeverGrows) {
  auto ctx = test::MakeLavapipeContext();
  ASSERT_TRUE(ctx);
  CommandStream stream(*ctx, 1 * kMiB);
  EXPECT_TRUE(stream.TryAllocate(1 * kMiB, 16));
  stream.Flush();
  EXPECT_THROW(stream.TryAllocate(1 * kMiB + 16, 16), Error);
  EXPECT_EQ(stream.ring_generation(), 0u);
}

}  // namespace
}  // namespace xnt::vk
