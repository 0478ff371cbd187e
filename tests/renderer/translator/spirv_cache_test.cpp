// The on-disk SPIR-V cache (spirv_cache.h): a second compile of the same text is read back
// word for word without running glslang, a different text or stage is a different entry, and
// damaged entries (truncated, a flipped payload bit, a foreign key, not SPIR-V) are detected,
// ignored and rewritten. No device needed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "test_files.h"
#include "xnt/vk/translator/shader_compiler.h"
#include "xnt/vk/translator/spirv_cache.h"

namespace xnt::vk {
namespace {

namespace fs = std::filesystem;

const char* const kCompute = R"(#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } b;
void main() { b.v[gl_GlobalInvocationID.x] *= 3u; }
)";

struct CacheDir {
  fs::path path = fs::temp_directory_path() / ("xnt_spirv_cache_test_" + std::to_string(::getpid()));
  CacheDir() {
    fs::remove_all(path);
    SetSpirvCacheDirectory(path.string());
  }
  ~CacheDir() {
    SetSpirvCacheDirectory("");
    fs::remove_all(path);
  }
  std::vector<fs::path> Entries() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(path)) out.push_back(e.path());
    return out;
  }
};

using ::xnt::test::ReadFileBytes;
using ::xnt::test::WriteFileBytes;

TEST(SpirvCache, SecondCompileIsAHitWithTheSameWords) {
  CacheDir dir;
  const SpirvCacheStats s0 = GetSpirvCacheStats();
  const std::vector<uint32_t> direct = CompileGlslNow(kCompute, GlslStage::kCompute, "t");
  const std::vector<uint32_t> first = CompileGlsl(kCompute, GlslStage::kCompute, "t");
  const std::vector<uint32_t> second = CompileGlsl(kCompute, GlslStage::kCompute, "t");
  const SpirvCacheStats s1 = GetSpirvCacheStats();
  EXPECT_EQ(first, direct);
  EXPECT_EQ(second, direct);
  EXPECT_EQ(s1.misses - s0.misses, 1u);
  EXPECT_EQ(s1.hits - s0.hits, 1u);
  ASSERT_EQ(dir.Entries().size(), 1u);
  // Header (40 bytes) + the words; the name is the 128-bit key in hex.
  EXPECT_EQ(fs::file_size(dir.Entries()[0]), 40 + direct.size() * 4);
  EXPECT_EQ(dir.Entries()[0].filename().string().size(), 32u + 4u);
  EXPECT_EQ(direct[0], 0x07230203u);  // SPIR-V magic
}

TEST(SpirvCache, OtherTextIsAnotherEntry) {
  CacheDir dir;
  CompileGlsl(kCompute, GlslStage::kCompute, "t");
  std::string other = kCompute;
  other.replace(other.find("3u"), 2, "5u");
  CompileGlsl(other, GlslStage::kCompute, "t");
  EXPECT_EQ(dir.Entries().size(), 2u);
}

TEST(SpirvCache, DamagedEntriesAreIgnoredAndRewritten) {
  CacheDir dir;
  const std::vector<uint32_t> good = CompileGlsl(kCompute, GlslStage::kCompute, "t");
  ASSERT_EQ(dir.Entries().size(), 1u);
  const fs::path entry = dir.Entries()[0];
  const std::vector<uint8_t> bytes = ReadFileBytes(entry);
  std::vector<std::vector<uint8_t>> damaged;
  damaged.push_back(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 30));  // inside the header
  damaged.push_back(std::vector<uint8_t>(bytes.begin(), bytes.end() - 4));     // one word short
  auto flipped = bytes;
  flipped[bytes.size() - 3] ^= 0x10;  // a payload bit: the XXH3-64 no longer matches
  damaged.push_back(flipped);
  auto foreign = bytes;
  foreign[24] ^= 1;  // the stored key is another shader's
  damaged.push_back(foreign);
  auto magic = bytes;
  magic[0] = 'Y';
  damaged.push_back(magic);
  for (size_t i = 0; i < damaged.size(); ++i) {
    WriteFileBytes(entry, damaged[i]);
    const SpirvCacheStats s0 = GetSpirvCacheStats();
    EXPECT_EQ(CompileGlsl(kCompute, GlslStage::kCompute, "t"), good) << "damage " << i;
    const SpirvCacheStats s1 = GetSpirvCacheStats();
    EXPECT_EQ(s1.corrupt - s0.corrupt, 1u) << "damage " << i;
    EXPECT_EQ(s1.hits - s0.hits, 0u) << "damage " << i;
    EXPECT_EQ(ReadFileBytes(entry), bytes) << "damage " << i << ": the entry is rewritten";
  }
}

TEST(SpirvCache, CompileErrorsAreNotStored) {
  CacheDir dir;
  EXPECT_ANY_THROW(CompileGlsl("#version 450\nvoid main() { nope; }\n", GlslStage::kCompute, "bad"));
  EXPECT_FALSE(fs::exists(dir.path) && !fs::is_empty(dir.path));
}

TEST(SpirvCache, UnwritableFolderStillCompiles) {
  SetSpirvCacheDirectory("/proc/xnt_no_such_folder/cache");
  const SpirvCacheStats s0 = GetSpirvCacheStats();
  EXPECT_EQ(CompileGlsl(kCompute, GlslStage::kCompute, "t")[0], 0x07230203u);
  EXPECT_EQ(GetSpirvCacheStats().write_failures - s0.write_failures, 1u);
  SetSpirvCacheDirectory("");
}

}  // namespace
}  // namespace xnt::vk
