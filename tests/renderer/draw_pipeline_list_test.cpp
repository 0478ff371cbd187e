// The draw-pipeline list's file (draw_pipeline_list.h), without a device: what is encoded decodes
// to the same list; every single-byte change and every truncation is refused; lists whose hash
// is right but whose contents no replay writes (an index past the module table, words without
// the SPIR-V magic number, handle bytes, enums out of range, bytes after the last entry, counts
// past the limits) are refused too.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <vector>

#include "xnt/vk/draw_pipeline_list.h"

namespace xnt::vk {
namespace {

constexpr size_t kHeader = 32;  // magic, version, key size, payload size, payload hash

std::vector<uint32_t> Spirv(uint32_t words, uint32_t seed) {
  std::vector<uint32_t> w(words);
  w[0] = 0x07230203u;
  for (uint32_t i = 1; i < words; ++i) w[i] = seed * 131u + i;
  return w;
}

DrawPipelineList SampleList() {
  DrawPipelineList list;
  list.modules = {Spirv(5, 1), Spirv(9, 2), Spirv(3, 3)};
  StoredDrawPipeline a;
  a.vertex_shader = 0;
  a.pixel_shader = 1;
  a.key.topology = 2;
  a.key.samples = 4;
  a.key.color_formats = {37, 0, 0, 0};  // VK_FORMAT_R8G8B8A8_UNORM
  a.key.depth_format = 130;             // VK_FORMAT_D32_SFLOAT_S8_UINT
  a.key.blend[0].colorWriteMask = 0xF;
  a.key.color_output_modes = 0x12345;
  StoredDrawPipeline b;  // a depth-only rectangle list with its geometry shader
  b.vertex_shader = 0;
  b.quad_shader = 2;
  b.key.topology = 3;
  b.key.samples = 1;
  b.key.depth_clamp = 1;
  list.pipelines = {a, b};
  return list;
}

// The encoded list with its payload changed by `edit` and the header's size and hash made to
// match, so only the content checks can refuse it.
std::vector<uint8_t> Rehashed(const DrawPipelineList& list,
                              const std::function<void(std::vector<uint8_t>&)>& edit) {
  std::vector<uint8_t> bytes = EncodeDrawPipelineList(list);
  std::vector<uint8_t> payload(bytes.begin() + kHeader, bytes.end());
  edit(payload);
  bytes.resize(kHeader);
  bytes.insert(bytes.end(), payload.begin(), payload.end());
  const uint64_t size = payload.size(), hash = XXH3_64bits(payload.data(), payload.size());
  std::memcpy(bytes.data() + 16, &size, 8);
  std::memcpy(bytes.data() + 24, &hash, 8);
  return bytes;
}

void Put32(std::vector<uint8_t>& bytes, size_t at, uint32_t v) { std::memcpy(&bytes[at], &v, 4); }

TEST(DrawPipelineList, EncodedListDecodesToItself) {
  const DrawPipelineList list = SampleList();
  const std::vector<uint8_t> bytes = EncodeDrawPipelineList(list);
  // Header, module count, three modules (count + words), pipeline count, two entries.
  EXPECT_EQ(bytes.size(), kHeader + 4 + (4 + 20) + (4 + 36) + (4 + 12) + 4 +
                              2 * (12 + sizeof(PipelineKey)));
  EXPECT_EQ(std::memcmp(bytes.data(), "XNTVKDL1", 8), 0);
  const auto decoded = DecodeDrawPipelineList(bytes);
  ASSERT_TRUE(decoded);
  EXPECT_TRUE(*decoded == list);
  EXPECT_EQ(decoded->pipelines[1].pixel_shader, StoredDrawPipeline::kNoModule);
  EXPECT_EQ(decoded->pipelines[0].key.color_output_modes, 0x12345u);
  // An empty list is a list too.
  const auto empty = DecodeDrawPipelineList(EncodeDrawPipelineList({}));
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->modules.empty() && empty->pipelines.empty());
  // Another list is not equal.
  DrawPipelineList other = list;
  other.pipelines[1].key.depth_clamp = 0;
  EXPECT_FALSE(other == list);
}

TEST(DrawPipelineList, EveryChangedByteAndEveryTruncationIsRefused) {
  const std::vector<uint8_t> bytes = EncodeDrawPipelineList(SampleList());
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t flip : {uint8_t(1), uint8_t(0x80)}) {
      std::vector<uint8_t> changed = bytes;
      changed[i] ^= flip;
      EXPECT_FALSE(DecodeDrawPipelineList(changed)) << "byte " << i << " ^ " << int(flip);
    }
  }
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(DecodeDrawPipelineList({bytes.begin(), bytes.begin() + n})) << n << " bytes";
  }
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  EXPECT_FALSE(DecodeDrawPipelineList(longer));
}

TEST(DrawPipelineList, ContentsNoReplayWritesAreRefusedWithAValidHash) {
  const DrawPipelineList list = SampleList();
  // The unchanged payload through the same re-hash is accepted (the helper is sound).
  EXPECT_TRUE(DecodeDrawPipelineList(Rehashed(list, [](std::vector<uint8_t>&) {})));
  // Offsets in the payload: module count at 0; modules at 4 (5 words), 28 (9 words), 68 (3
  // words); pipeline count at 84; entries at 88 and 88 + 12 + sizeof(PipelineKey).
  const size_t entry0 = 88, entry1 = entry0 + 12 + sizeof(PipelineKey);
  const size_t key0 = entry0 + 12, key1 = entry1 + 12;
  struct Case {
    const char* what;
    std::function<void(std::vector<uint8_t>&)> edit;
  };
  const Case cases[] = {
      {"vertex index past the table", [&](auto& p) { Put32(p, entry0, 3); }},
      {"no vertex shader", [&](auto& p) { Put32(p, entry0, StoredDrawPipeline::kNoModule); }},
      {"pixel index past the table", [&](auto& p) { Put32(p, entry0 + 4, 7); }},
      {"quad index past the table", [&](auto& p) { Put32(p, entry1 + 8, 3); }},
      {"module without the SPIR-V magic", [&](auto& p) { Put32(p, 32, 0x12345678u); }},
      {"module of no words", [&](auto& p) { Put32(p, 68, 0); }},
      {"module longer than the payload", [&](auto& p) { Put32(p, 68, 1u << 20); }},
      {"module count past the limit", [&](auto& p) { Put32(p, 0, kMaxListedModules + 1); }},
      {"pipeline count past the limit", [&](auto& p) { Put32(p, 84, kMaxListedPipelines + 1); }},
      {"one pipeline more than written", [&](auto& p) { Put32(p, 84, 3); }},
      {"one pipeline less than written", [&](auto& p) { Put32(p, 84, 1); }},
      {"a handle's bytes", [&](auto& p) { p[key0 + offsetof(PipelineKey, vertex_shader)] = 1; }},
      {"a quad handle's bytes", [&](auto& p) { p[key1 + offsetof(PipelineKey, quad_shader)] = 1; }},
      {"topology past the rectangle list", [&](auto& p) { Put32(p, key0 + offsetof(PipelineKey, topology), 4); }},
      {"polygon mode past point", [&](auto& p) { Put32(p, key0 + offsetof(PipelineKey, polygon_mode), 3); }},
      {"three samples", [&](auto& p) { Put32(p, key0 + offsetof(PipelineKey, samples), 3); }},
      {"depth clamp 2", [&](auto& p) { Put32(p, key1 + offsetof(PipelineKey, depth_clamp), 2); }},
      {"a byte after the last entry", [&](auto& p) { p.push_back(0); }},
  };
  for (const Case& c : cases) {
    EXPECT_FALSE(DecodeDrawPipelineList(Rehashed(list, c.edit))) << c.what;
  }
  // Another layout: version and key size are checked before anything else.
  std::vector<uint8_t> bytes = EncodeDrawPipelineList(list);
  Put32(bytes, 8, 2);
  EXPECT_FALSE(DecodeDrawPipelineList(bytes));
  bytes = EncodeDrawPipelineList(list);
  Put32(bytes, 12, uint32_t(sizeof(PipelineKey) + 8));
  EXPECT_FALSE(DecodeDrawPipelineList(bytes));
}

// A folder keeps the most recently used lists: saving prunes it, loading marks a list used; other
// files stay.
TEST(DrawPipelineList, AFolderKeepsTheMostRecentlyUsedLists) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("xnt_draw_lists_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const DrawPipelineList list = SampleList();
  const auto now = fs::file_time_type::clock::now();
  // Five lists, list_0 the oldest; and two files that are not lists.
  for (int i = 0; i < 5; ++i) {
    const fs::path p = dir / ("vk-draws-list_" + std::to_string(i) + "-dev.bin");
    ASSERT_TRUE(SaveDrawPipelineList(p.string(), list));
    fs::last_write_time(p, now - std::chrono::hours(10 - i));
  }
  std::ofstream(dir / "vk-pipelines-dev.bin") << "x";
  std::ofstream(dir / "vk-draws-notes.txt") << "x";
  fs::last_write_time(dir / "vk-pipelines-dev.bin", now - std::chrono::hours(100));
  // Reading list_1 makes it the most recently used.
  ASSERT_TRUE(LoadDrawPipelineList((dir / "vk-draws-list_1-dev.bin").string()));
  PruneDrawPipelineLists(dir.string(), 3);
  auto exists = [&](const char* name) { return fs::exists(dir / name); };
  EXPECT_FALSE(exists("vk-draws-list_0-dev.bin"));
  EXPECT_TRUE(exists("vk-draws-list_1-dev.bin"));
  EXPECT_FALSE(exists("vk-draws-list_2-dev.bin"));
  EXPECT_TRUE(exists("vk-draws-list_3-dev.bin"));
  EXPECT_TRUE(exists("vk-draws-list_4-dev.bin"));
  EXPECT_TRUE(exists("vk-pipelines-dev.bin"));
  EXPECT_TRUE(exists("vk-draws-notes.txt"));
  // Within the bound nothing goes; a missing folder is no error.
  PruneDrawPipelineLists(dir.string(), 3);
  EXPECT_TRUE(exists("vk-draws-list_1-dev.bin") && exists("vk-draws-list_3-dev.bin"));
  PruneDrawPipelineLists((dir / "missing").string(), 0);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace xnt::vk
