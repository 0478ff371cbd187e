// On-disk SPIR-V cache (see spirv_cache.h).
#include "xnt/vk/translator/spirv_cache.h"

#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "xnt/base/atomic_file.h"

#if __has_include(<glslang/build_info.h>)
#include <glslang/build_info.h>
#endif

namespace xnt::vk {

namespace {

constexpr char kMagic[8] = {'X', 'N', 'T', 'S', 'P', 'V', '0', '1'};
constexpr uint32_t kLayoutVersion = 1;
constexpr size_t kHeaderSize = 8 + 4 + 4 + 8 + 16;
constexpr uint32_t kSpirvMagic = 0x07230203u;
// Larger than any shader we emit by far; a bigger word count is a damaged entry.
constexpr uint32_t kMaxWords = 16u << 20;

#ifndef XNT_SHADERC_VERSION
#define XNT_SHADERC_VERSION "unknown"
#endif
#ifdef GLSLANG_VERSION_MAJOR
#define XNT_STR2(x) #x
#define XNT_STR(x) XNT_STR2(x)
constexpr const char* kGlslangVersion =
    XNT_STR(GLSLANG_VERSION_MAJOR) "." XNT_STR(GLSLANG_VERSION_MINOR) "." XNT_STR(
        GLSLANG_VERSION_PATCH) GLSLANG_VERSION_FLAVOR;
#else
constexpr const char* kGlslangVersion = "unknown";
#endif

std::mutex g_mutex;
std::string g_directory;
SpirvCacheStats g_stats;
std::span<const BuiltinSpirv> g_builtin;
SpirvCompileObserver g_observer;

struct Key {
  uint8_t bytes[16];
};

Key MakeKey(std::string_view settings_tag, std::string_view source) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_128bits_reset(state);
  auto add = [&](std::string_view s) {
    // Length-prefixed, so ("ab", "c") and ("a", "bc") differ.
    const uint64_t n = s.size();
    XXH3_128bits_update(state, &n, sizeof(n));
    XXH3_128bits_update(state, s.data(), s.size());
  };
  add("xenotrace spirv cache");
  add(std::to_string(kLayoutVersion));
  add(XNT_SHADERC_VERSION);
  add(kGlslangVersion);
  add(settings_tag);
  add(source);
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, XXH3_128bits_digest(state));
  XXH3_freeState(state);
  Key key;
  std::memcpy(key.bytes, canonical.digest, 16);
  return key;
}

std::string Hex(const Key& key) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : key.bytes) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

enum class Lookup { kMissing, kHit, kCorrupt };

Lookup Load(const std::string& path, const Key& key, std::vector<uint32_t>& words) {
  std::vector<uint8_t> file;
  if (!ReadFileWhole(path, kHeaderSize + uint64_t(kMaxWords) * 4, file)) return Lookup::kMissing;
  if (file.size() < kHeaderSize || std::memcmp(file.data(), kMagic, 8) != 0) return Lookup::kCorrupt;
  uint32_t version, count;
  uint64_t hash;
  std::memcpy(&version, file.data() + 8, 4);
  std::memcpy(&count, file.data() + 12, 4);
  std::memcpy(&hash, file.data() + 16, 8);
  if (version != kLayoutVersion || count == 0 || count > kMaxWords ||
      file.size() != kHeaderSize + size_t(count) * 4 ||
      std::memcmp(file.data() + 24, key.bytes, 16) != 0) {
    return Lookup::kCorrupt;
  }
  const uint8_t* payload = file.data() + kHeaderSize;
  if (XXH3_64bits(payload, size_t(count) * 4) != hash) return Lookup::kCorrupt;
  words.resize(count);
  std::memcpy(words.data(), payload, size_t(count) * 4);
  if (words[0] != kSpirvMagic) return Lookup::kCorrupt;
  return Lookup::kHit;
}

bool Store(const std::string& directory, const std::string& path, const Key& key,
           const std::vector<uint32_t>& words) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) return false;
  std::vector<uint8_t> file(kHeaderSize + words.size() * 4);
  const uint32_t count = uint32_t(words.size());
  const uint64_t hash = XXH3_64bits(words.data(), words.size() * 4);
  std::memcpy(file.data(), kMagic, 8);
  std::memcpy(file.data() + 8, &kLayoutVersion, 4);
  std::memcpy(file.data() + 12, &count, 4);
  std::memcpy(file.data() + 16, &hash, 8);
  std::memcpy(file.data() + 24, key.bytes, 16);
  std::memcpy(file.data() + kHeaderSize, words.data(), words.size() * 4);
  return WriteFileAtomically(path, file.data(), file.size());
}

}  // namespace

void SetSpirvCacheDirectory(std::string directory) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_directory = std::move(directory);
}

std::string SpirvCacheDirectory() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_directory;
}

void SetBuiltinSpirv(std::span<const BuiltinSpirv> table) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_builtin = table;
}

void SetSpirvCompileObserver(SpirvCompileObserver observer) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_observer = std::move(observer);
}

SpirvCacheStats GetSpirvCacheStats() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_stats;
}

namespace {

// The built-in table's words for `key`, or none.
std::span<const uint32_t> FindBuiltin(const Key& key) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const auto less = [](const BuiltinSpirv& e, const Key& k) {
    return std::memcmp(e.key, k.bytes, 16) < 0;
  };
  const auto it = std::lower_bound(g_builtin.begin(), g_builtin.end(), key, less);
  if (it == g_builtin.end() || std::memcmp(it->key, key.bytes, 16) != 0) return {};
  ++g_stats.builtin;
  return {it->words, it->count};
}

// Runs the compile and shows its result to the observer, if any.
std::vector<uint32_t> CompileObserved(const Key& key,
                                      const std::function<std::vector<uint32_t>()>& compile) {
  std::vector<uint32_t> words = compile();
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_observer) g_observer(key.bytes, words);
  return words;
}

}  // namespace

std::vector<uint32_t> CachedSpirv(std::string_view settings_tag, std::string_view source,
                                  const std::function<std::vector<uint32_t>()>& compile) {
  const Key key = MakeKey(settings_tag, source);
  if (const std::span<const uint32_t> built = FindBuiltin(key); !built.empty()) {
    return std::vector<uint32_t>(built.begin(), built.end());
  }
  const std::string directory = SpirvCacheDirectory();
  if (directory.empty()) {
    std::vector<uint32_t> words = CompileObserved(key, compile);
    std::lock_guard<std::mutex> lock(g_mutex);
    ++g_stats.misses;
    return words;
  }
  const std::string path = (std::filesystem::path(directory) / (Hex(key) + ".spv")).string();
  std::vector<uint32_t> words;
  const Lookup found = Load(path, key, words);
  if (found == Lookup::kHit) {
    std::lock_guard<std::mutex> lock(g_mutex);
    ++g_stats.hits;
    return words;
  }
  words = CompileObserved(key, compile);
  const bool stored = Store(directory, path, key, words);
  std::lock_guard<std::mutex> lock(g_mutex);
  ++g_stats.misses;
  if (found == Lookup::kCorrupt) ++g_stats.corrupt;
  if (!stored) ++g_stats.write_failures;
  return words;
}

}  // namespace xnt::vk
