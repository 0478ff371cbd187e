// Shared memory mirror on lavapipe: pages are uploaded once per generation, land at their guest
// address (across the 128 MiB descriptor range boundaries), and unrecorded bytes read as zero;
// both the sparse and the whole-allocation paths, with validation on. Uploads ahead
// (SyncAhead) run before everything recorded in their submission, and pages a command of the
// submission has read, or any page after CloseAhead, keep their place in the stream.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <vector>

#include "test_env.h"
#include "xnt/vk/command_stream.h"
#include "xnt/vk/shared_memory.h"

namespace xnt::vk {
namespace {

// A tiny guest memory: a few pages with generations.
struct FakeGuest {
  std::map<uint32_t, std::vector<uint8_t>> pages;
  std::map<uint32_t, uint64_t> generations;
  uint64_t generation = 1;
  void Write(uint32_t page, uint8_t seed) {
    auto& p = pages[page];
    p.resize(4096);
    for (size_t i = 0; i < p.size(); ++i) p[i] = uint8_t(seed + i * 7);
    generations[page] = ++generation;
  }
  gpu::GuestPageSource Source() {
    gpu::GuestPageSource s;
    s.generation = [this] { return generation; };
    s.page_generation = [this](uint32_t p) {
      auto it = generations.find(p);
      return it == generations.end() ? uint64_t(0) : it->second;
    };
    s.page_data = [this](uint32_t p) -> const uint8_t* {
      auto it = pages.find(p);
      return it == pages.end() ? nullptr : it->second.data();
    };
    return s;
  }
};

std::vector<uint8_t> ReadBack(CommandStream& stream, const SharedMemory& memory, uint64_t offset,
                              uint64_t size) {
  auto alloc = stream.Allocate(size, 16);
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(stream.cmd(), VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       0, 1, &barrier, 0, nullptr, 0, nullptr);
  VkBufferCopy region{offset, alloc.offset, size};
  vkCmdCopyBuffer(stream.cmd(), memory.buffer(), alloc.buffer, 1, &region);
  stream.Flush();
  return std::vector<uint8_t>(alloc.data, alloc.data + size);
}

void RunMirrorTest(bool force_whole) {
  auto ctx = test::MakeLavapipeContext();
  CommandStream stream(*ctx, 64ull << 20);
  SharedMemory memory(*ctx, stream, force_whole);
  EXPECT_EQ(memory.is_sparse(), !force_whole && ctx->capabilities().sparse_binding);
  FakeGuest guest;
  const uint32_t boundary_page = uint32_t((128ull << 20) / 4096);  // first page of range 1
  guest.Write(boundary_page - 1, 11);
  guest.Write(boundary_page, 22);
  guest.Write(3 * boundary_page + 5, 33);
  auto source = guest.Source();
  EXPECT_EQ(memory.Sync(source), 3u);
  EXPECT_EQ(memory.Sync(source), 0u);  // nothing changed

  auto bytes = ReadBack(stream, memory, uint64_t(boundary_page - 1) * 4096, 3 * 4096);
  for (size_t i = 0; i < 4096; ++i) {
    ASSERT_EQ(bytes[i], uint8_t(11 + i * 7)) << i;
    ASSERT_EQ(bytes[4096 + i], uint8_t(22 + i * 7)) << i;
    ASSERT_EQ(bytes[8192 + i], 0) << "unrecorded page must read as zero, byte " << i;
  }
  // Rewriting one page uploads only that page.
  guest.Write(boundary_page, 99);
  EXPECT_EQ(memory.Sync(source), 1u);
  bytes = ReadBack(stream, memory, uint64_t(boundary_page) * 4096, 4096);
  EXPECT_EQ(bytes[0], 99);
  EXPECT_EQ(bytes[1], uint8_t(99 + 7));
  bytes = ReadBack(stream, memory, uint64_t(3 * boundary_page + 5) * 4096, 16);
  EXPECT_EQ(bytes[3], uint8_t(33 + 21));
  if (memory.is_sparse()) {
    // Only the chunks around the three pages are backed.
    EXPECT_LE(memory.bound_bytes(), 4ull << 20);
  }
  EXPECT_EQ(ctx->validation_message_count(), 0u) << test::ValidationReport(*ctx);
}

// A copy of one mirror page into the ring, recorded in the stream (a reader of the mirror).
CommandStream::Allocation CopyOut(CommandStream& stream, const SharedMemory& memory, uint32_t page) {
  auto alloc = stream.Allocate(4096, 16);
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(stream.cmd(), VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       0, 1, &barrier, 0, nullptr, 0, nullptr);
  VkBufferCopy region{uint64_t(page) * 4096, alloc.offset, 4096};
  vkCmdCopyBuffer(stream.cmd(), memory.buffer(), alloc.buffer, 1, &region);
  return alloc;
}

// A write-tracked mirror over a fake guest, as the renderer drives it: a guest write invalidates
// its page, then Sync / SyncAhead upload it.
struct AheadRig {
  explicit AheadRig(bool force_whole)
      : ctx(test::MakeLavapipeContext()),
        stream(*ctx, 64ull << 20),
        memory(*ctx, stream, force_whole),
        source(guest.Source()) {
    memory.EnableWriteTracking();
  }
  void Write(uint32_t page, uint8_t seed) {
    guest.Write(page, seed);
    memory.Invalidate(page * 4096, 4096);
  }
  std::unique_ptr<VulkanContext> ctx;
  CommandStream stream;
  SharedMemory memory;
  FakeGuest guest;
  gpu::GuestPageSource source;
};

void RunAheadTest(bool force_whole) {
  AheadRig rig(force_whole);
  auto& [ctx, stream, memory, guest, source] = rig;
  auto write = [&](uint32_t page, uint8_t seed) { rig.Write(page, seed); };
  write(100, 1);
  EXPECT_EQ(memory.SyncAhead(source), 0u);  // nothing goes ahead before the first full scan
  EXPECT_EQ(memory.Sync(source), 1u);
  stream.Flush();

  // A page nothing has read goes ahead: even a copy recorded before it sees the new bytes.
  write(200, 5);
  const auto early = CopyOut(stream, memory, 200);
  EXPECT_EQ(memory.SyncAhead(source), 1u);
  EXPECT_FALSE(memory.MayNeedSync(source));
  // A page read in this submission keeps its place: the reader before sees the old bytes, the
  // one after the new.
  write(300, 7);
  EXPECT_EQ(memory.SyncAhead(source), 1u);
  const auto before = CopyOut(stream, memory, 300);
  memory.MarkRead(300 * 4096 + 100, 8);
  write(300, 8);
  write(301, 9);  // its neighbour was not read: it still goes ahead
  EXPECT_EQ(memory.SyncAhead(source), 1u);
  EXPECT_TRUE(memory.MayNeedSync(source));
  EXPECT_EQ(memory.Sync(source), 1u);
  const auto after = CopyOut(stream, memory, 300);
  const auto neighbour = CopyOut(stream, memory, 301);
  // After CloseAhead nothing goes ahead until the submission ends.
  write(400, 11);
  memory.CloseAhead();
  EXPECT_EQ(memory.SyncAhead(source), 0u);
  EXPECT_EQ(memory.Sync(source), 1u);
  stream.Flush();
  for (size_t i = 0; i < 4096; i += 511) {
    ASSERT_EQ(early.data[i], uint8_t(5 + i * 7)) << i;
    ASSERT_EQ(before.data[i], uint8_t(7 + i * 7)) << i;
    ASSERT_EQ(after.data[i], uint8_t(8 + i * 7)) << i;
    ASSERT_EQ(neighbour.data[i], uint8_t(9 + i * 7)) << i;
  }
  write(400, 12);
  EXPECT_EQ(memory.SyncAhead(source), 1u);  // a new submission
  // Consecutive pages through consecutive ring space, one SyncAhead each (a draw each): one
  // merged copy region lands both.
  write(500, 13);
  EXPECT_EQ(memory.SyncAhead(source), 1u);
  write(501, 14);
  EXPECT_EQ(memory.SyncAhead(source), 1u);
  const auto next = CopyOut(stream, memory, 400);
  const auto first = CopyOut(stream, memory, 500);
  const auto second = CopyOut(stream, memory, 501);
  stream.Flush();
  for (size_t i = 0; i < 4096; i += 255) {
    ASSERT_EQ(next.data[i], uint8_t(12 + i * 7)) << i;
    ASSERT_EQ(first.data[i], uint8_t(13 + i * 7)) << i;
    ASSERT_EQ(second.data[i], uint8_t(14 + i * 7)) << i;
  }
  // Fresh pages, one per draw, with the draws' own ring data (constants, indices) allocated
  // between them, as a capture-shaped frame does: the pages still lie back to back in the ring,
  // so their copies are one region, not one per page.
  const uint64_t regions = stream.upload_copy_regions();
  for (uint32_t k = 0; k < 8; ++k) {
    write(600 + k, uint8_t(20 + k));
    EXPECT_EQ(memory.SyncAhead(source), 1u);
    memory.MarkRead((600 + k) * 4096, 24);
    stream.Allocate(256, 256);
  }
  std::vector<CommandStream::Allocation> fresh;
  for (uint32_t k = 0; k < 8; ++k) fresh.push_back(CopyOut(stream, memory, 600 + k));
  stream.Flush();
  EXPECT_EQ(stream.upload_copy_regions() - regions, 1u);
  for (uint32_t k = 0; k < 8; ++k) {
    for (size_t i = 0; i < 4096; i += 255) ASSERT_EQ(fresh[k].data[i], uint8_t(20 + k + i * 7)) << k;
  }
  EXPECT_EQ(ctx->validation_message_count(), 0u) << test::ValidationReport(*ctx);
}

// A sparse chunk first bound for an upload in stream order (its page read earlier in the
// submission) while another page of the same chunk then goes ahead: the chunk's zero fill must
// not land after that upload (it did when the fill was recorded in stream order, and a
// capture-shaped frame's second to sixteenth draws read zeros on a cold replay).
void RunFreshChunkTest(bool force_whole) {
  AheadRig rig(force_whole);
  auto& [ctx, stream, memory, guest, source] = rig;
  auto write = [&](uint32_t page, uint8_t seed) { rig.Write(page, seed); };
  write(100, 1);
  EXPECT_EQ(memory.Sync(source), 1u);  // the first full scan
  stream.Flush();
  const uint32_t chunk_page = 4096;  // 16 MiB: a chunk nothing has bound
  memory.MarkRead(chunk_page * 4096, 24);
  write(chunk_page, 30);
  EXPECT_EQ(memory.SyncAhead(source), 0u);  // read in this submission: stays in stream order
  EXPECT_EQ(memory.Sync(source), 1u);
  write(chunk_page + 1, 31);
  EXPECT_EQ(memory.SyncAhead(source), 1u);
  const auto in_stream = CopyOut(stream, memory, chunk_page);
  const auto ahead = CopyOut(stream, memory, chunk_page + 1);
  const auto untouched = CopyOut(stream, memory, chunk_page + 2);
  stream.Flush();
  for (size_t i = 0; i < 4096; i += 255) {
    ASSERT_EQ(in_stream.data[i], uint8_t(30 + i * 7)) << i;
    ASSERT_EQ(ahead.data[i], uint8_t(31 + i * 7)) << i;
    ASSERT_EQ(untouched.data[i], 0u) << i;
  }
  EXPECT_EQ(ctx->validation_message_count(), 0u) << test::ValidationReport(*ctx);
}

TEST(SharedMemory, SparseMirrorUploadsChangedPages) { RunMirrorTest(false); }
TEST(SharedMemory, SparseChunkFillLandsBeforeUploadsAhead) { RunFreshChunkTest(false); }
TEST(SharedMemory, WholeMirrorUploadsAheadIntoUnreadPagesOfAReadRange) { RunFreshChunkTest(true); }
TEST(SharedMemory, SparseMirrorUploadsAheadOfUnreadPages) { RunAheadTest(false); }
TEST(SharedMemory, WholeMirrorUploadsAheadOfUnreadPages) { RunAheadTest(true); }
TEST(SharedMemory, WholeMirrorUploadsChangedPages) { RunMirrorTest(true); }

}  // namespace
}  // namespace xnt::vk
