// On-disk cache of GLSL -> SPIR-V compiles (translated guest shaders and host shaders alike).
//
// Parsing GLSL with glslang is most of a short replay's start-up (a few ms per shader, tens of
// shaders per run), and the same text is compiled on every run. An entry is keyed by a 128-bit
// XXH3 of everything that decides the output words: the cache layout version, the compile
// settings tag (stage, target environment, optimisation level), the shaderc and glslang versions
// the program was built with, and the whole GLSL text (so the translator's version is covered:
// any change in what it emits changes the text). The key is also the file name.
//
// An entry is [magic "XNTSPV01"][u32 layout version][u32 word count][u64 XXH3-64 of the words]
// [16-byte key][words]. Anything that does not check out (short file, wrong magic or key, word
// count not matching the size, hash mismatch, no SPIR-V magic number) is counted as corrupt,
// ignored and overwritten by a fresh compile. Entries are written to a temporary name and renamed,
// so concurrent processes never see half an entry. The cache is an optimisation only: a folder
// that cannot be created or written is counted, never an error.
//
// The folder is process-wide state set by the program (the CLI passes $XDG_CACHE_HOME/xenotrace
// unless --no-shader-cache); no library reads the environment. Empty = no cache (the default, so
// tests and library users compile every time unless they ask).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace xnt::vk {

struct SpirvCacheStats {
  uint64_t builtin = 0;         // found in the program's built-in table (SetBuiltinSpirv)
  uint64_t hits = 0;
  uint64_t misses = 0;          // compiled (and stored when a folder is set)
  uint64_t corrupt = 0;         // entries found but rejected
  uint64_t write_failures = 0;  // entries that could not be stored
};

// Sets the cache folder ("" turns the cache off). Thread-safe.
void SetSpirvCacheDirectory(std::string directory);
std::string SpirvCacheDirectory();
SpirvCacheStats GetSpirvCacheStats();

// SPIR-V compiled when the program was built: the host shaders' every variant (the EDRAM
// transfers, post passes, fsi and line geometry shaders, whose GLSL is generated from parameters),
// compiled by the build-time baker (renderer/vulkan/bake) through the same CompileGlsl /
// CompileHostGlsl calls, so an entry's key is the one a run computes for the same text and
// settings. Looked up before the folder (and also when there is no folder): a first run parses no
// GLSL for them. A generator changed without a rebuild of the table only misses (its text has
// another key) and compiles as before. `table` must be sorted by key and outlive its use.
struct BuiltinSpirv {
  uint8_t key[16];
  const uint32_t* words;
  uint32_t count;
};
void SetBuiltinSpirv(std::span<const BuiltinSpirv> table);

// Called with the key and words of every compile CachedSpirv runs (not its hits): the baker
// collects the table with it. nullptr turns it off.
using SpirvCompileObserver = std::function<void(const uint8_t (&key)[16],
                                                const std::vector<uint32_t>& words)>;
void SetSpirvCompileObserver(SpirvCompileObserver observer);

// Returns the cached words for (settings_tag, source) or runs `compile` and stores its result.
// `compile` may throw (a compile error): nothing is stored then. Used by CompileGlsl and the
// host-shader compiler; settings_tag must name every compile setting that changes the output.
std::vector<uint32_t> CachedSpirv(std::string_view settings_tag, std::string_view source,
                                  const std::function<std::vector<uint32_t>()>& compile);

}  // namespace xnt::vk
