// The logical content of a .xnt trace: what a capture recorded, in stream order. These are plain
// C++ values; the FlatBuffers tables of schemas/xnt.fbs and the chunk framing are private to
// format/src. Every consumer (capture, replay, tools) sees only these structs.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace xnt::format {

// Guest memory is stored as 4 KiB pages, content-addressed: each distinct page is stored once.
inline constexpr uint32_t kPageSize = 4096;
inline constexpr uint32_t kPageShift = 12;
// Xenos sees 512 MiB of physical memory.
inline constexpr uint64_t kGuestPhysicalSize = 512ull << 20;
// EDRAM: 2048 tiles x 80x16 samples x 4 bytes.
inline constexpr uint32_t kEdramSizeBytes = 10u << 20;

// 128-bit XXH3 of a page's 4096 bytes. 128 bits so that dedup by hash needs no byte comparison.
struct PageHash {
  uint64_t lo = 0, hi = 0;
  friend bool operator==(const PageHash&, const PageHash&) = default;
};
struct PageHashHasher {
  size_t operator()(const PageHash& h) const { return size_t(h.lo ^ (h.hi * 0x9E3779B97F4A7C15ull)); }
};

struct TraceInfo {
  uint32_t title_id = 0;
  std::string capture_source;     // "xenotrace-builder", "xenia-import", an emulator's name...
  uint64_t creation_time_unix = 0;  // seconds since 1970-01-01 UTC
  uint64_t guest_memory_size = kGuestPhysicalSize;
  // Filled by the writer / read from the file header; ignored when passed to Writer.
  std::string writer_name;
  std::string writer_version;
  uint16_t format_major = 0, format_minor = 0;
};

// A PM4 stream the CP fetched: a ring-buffer segment (read pointer -> write pointer) or an
// indirect buffer. `dwords` are the packet words as the CP interprets them (already swapped from
// guest big-endian to host order).
enum class SubmissionKind : uint8_t { kRingBuffer = 0, kIndirectBuffer = 1 };
struct Submission {
  SubmissionKind kind = SubmissionKind::kRingBuffer;
  uint32_t guest_address = 0;  // physical address of the first dword
  std::vector<uint32_t> dwords;
};

// Which guest bytes hold what, at this point of the stream. Bytes are raw guest memory (big-endian
// data stays big-endian). On disk the range is split into the pages it spans; only
// [guest_address, guest_address + bytes.size()) is meaningful to a replayer.
enum class MemoryEventKind : uint8_t {
  kInitialSnapshot = 0,  // memory as it was when the capture began
  kGpuRead = 1,          // the GPU read this range (textures, vertices, indices, microcode...)
  kCpuWrite = 2,         // the CPU wrote this range between submissions
  kGpuWrite = 3,         // informational: what the GPU wrote (resolve, memexport, fences)
};
struct MemoryEvent {
  MemoryEventKind kind = MemoryEventKind::kGpuRead;
  uint32_t guest_address = 0;
  std::vector<uint8_t> bytes;
};

// Register file values for registers [first_register, first_register + values.size()).
struct RegisterSnapshot {
  uint32_t first_register = 0;
  std::vector<uint32_t> values;
};

// The whole 10 MiB EDRAM in its native layout (80x16-sample tiles, samples row-major).
struct EdramSnapshot {
  std::vector<uint8_t> bytes;  // kEdramSizeBytes
};

// Display gamma ramps (DC_LUT_30_COLOR 256 entries, DC_LUT_PWL_DATA 3x128) as Xenia records them.
struct GammaRamp {
  std::vector<uint32_t> table;  // 256 entries, 10:10:10 packed
  std::vector<uint32_t> pwl;    // 3 x 128 entries (R, G, B), base:delta packed
  uint8_t rw_component = 0;
};

// End of a frame: the front buffer the swap presents.
struct FrameMarker {
  uint32_t frame_index = 0;  // assigned by the writer (0, 1, 2...); ignored on input
  uint32_t front_buffer_address = 0;
  uint32_t width = 0, height = 0;
  uint32_t format = 0;  // Xenos TextureFormat of the front buffer (k_8_8_8_8 = 6)
};

struct Annotation {
  std::string label;
  std::string text;
};

using Record = std::variant<Submission, MemoryEvent, RegisterSnapshot, EdramSnapshot, GammaRamp,
                            FrameMarker, Annotation>;

// Totals the footer carries (also recomputed by scanning when the footer is missing).
struct TraceTotals {
  uint64_t frames = 0;
  uint64_t submissions = 0;
  uint64_t pm4_dwords = 0;
  uint64_t memory_events = 0;
  uint64_t pages_distinct = 0;    // pages stored in the file
  uint64_t pages_referenced = 0;  // page references made by memory events
  uint64_t bytes_raw = 0;         // sum of chunk raw (uncompressed) sizes
  uint64_t bytes_compressed = 0;  // sum of chunk stored payload sizes
};

}  // namespace xnt::format
