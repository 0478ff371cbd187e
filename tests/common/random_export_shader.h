// Random memexport shaders for the randomized tests (tests/ucode/memexport_test.cpp on the
// interpreter, tests/renderer/memexport_fuzz_test.cpp on fbo against cpu): 1-3 export blocks,
// each maybe inside a loop over i0, maybe serialized, maybe followed by `alloc export`, each
// writing 1-4 random eM# from adds / muls / max / min of the constants c2..c5, maybe under a
// predicate set from a constant (a pixel shader maybe killing after them). The stream
// constant c0 is a valid one (random format - memexport formats and a few that are not -,
// count, endian, numeric type, red/blue swap, base near the end of guest memory, inside it or
// anywhere in 32 bits), or has the marker bits right and a random start index in Y, or is random bits.
//
// eA is `mad eA, <index>, c1, c0` with c1 = (0, stride, 0, 0): a vertex shader's index is r0.x
// (the vertex index), a pixel shader's c6.x. The eM# values depend on constants only, so every
// invocation of a draw writes the same bytes to the same elements: with a stride of at least 5
// (eM0-eM4) two vertices never share an element, and all pixels of a draw write the same values
// - the result does not depend on the order invocations run in, as a GPU's does not.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "xnt/ucode/interpreter.h"
#include "xnt/xenos/memexport_stream.h"

namespace xnt::test {

enum class ExportStream : uint8_t { kValid, kStartIndex, kRandomBits };

struct RandomExportShader {
  std::string text;                   // assembly for ucode::Assemble
  ucode::InterpreterConstants k;      // c0-c7 and i0 (c7: the vertex shader's position)
  ExportStream stream = ExportStream::kValid;
  uint64_t base = 0, bytes = 0;       // kValid / kStartIndex: the stream's [base, base + bytes)

  // Whether the stream covers byte `address` (its part past 4 GiB continues at 0).
  bool Covers(uint64_t address) const {
    if (stream == ExportStream::kRandomBits) return false;
    return (address >= base && address < base + bytes) ||
           (address + (uint64_t(1) << 32) >= base && address + (uint64_t(1) << 32) < base + bytes);
  }
};

struct RandomExportOptions {
  bool pixel = false;         // xps_3_0 (eA index c6.x) instead of xvs_3_0 (eA index r0.x)
  uint32_t stride = 1;        // c1.y
  uint64_t guest_bytes = 512ull << 20;
  bool start_index = false;   // also generate kStartIndex streams
};

inline float RandomExportF(uint32_t bits) { return std::bit_cast<float>(bits); }

inline uint32_t RandomExportElementBytes(uint32_t format) {
  switch (format) {
    case 2: return 1;
    case 3: case 4: case 10: case 15: case 24: case 30: return 2;
    case 6: case 7: case 16: case 17: case 25: case 31: case 36: return 4;
    case 26: case 32: case 37: return 8;
    case 38: return 16;
    default: return 0;
  }
}

inline void RandomizeExportConstants(std::mt19937& rng, const RandomExportOptions& o,
                                     RandomExportShader& s);

inline RandomExportShader MakeRandomExportShader(std::mt19937& rng, const RandomExportOptions& o) {
  static const char* const kOps[] = {"add", "add", "mul", "max", "min"};
  RandomExportShader s;
  std::string& text = s.text;
  text = std::string(o.pixel ? "xps_3_0" : "xvs_3_0") + "\n    alloc export\n";
  const std::string index = o.pixel ? "c6.xxxx" : "r0.xxxx";
  const int blocks = 1 + int(rng() % 3);
  for (int b = 0; b < blocks; ++b) {
    const bool loop = rng() % 3 == 0;
    const std::string head = "L" + std::to_string(2 * b + 10), tail = "L" + std::to_string(2 * b + 11);
    if (loop) text += "    loop i0, " + tail + "\n" + head + ":\n";
    text += std::string("    exec") + (rng() % 4 == 0 ? " Serialize=0x2" : "") + "\n";
    // Maybe predicated eM writes: p0 from a comparison of a constant with 0 (every invocation
    // alike), each write then under (p0), (!p0) or none; a predicated-off write exports nothing.
    const bool predicated = rng() % 3 == 0;
    if (predicated) {
      static const char* const kSetps[] = {"setp_eq", "setp_ne", "setp_gt", "setp_ge"};
      text += std::string("    ") + kSetps[rng() % 4] + " r3.x, c" + std::to_string(2 + rng() % 4) +
              ".x\n";
    }
    text += "    mad eA, " + index + ", c1, c0\n";
    const int count = 1 + int(rng() % 4);
    for (int i = 0; i < count; ++i) {
      static const char* const kPredicates[] = {"", "(p0) ", "(!p0) "};
      text += std::string("    ") + (predicated ? kPredicates[rng() % 3] : "") + kOps[rng() % 5] +
              " eM" + std::to_string(rng() % 5) + ", c" + std::to_string(2 + rng() % 4) + ", c" +
              std::to_string(2 + rng() % 4) + "\n";
    }
    // A pixel shader may kill after its exports (a constant comparison: all pixels of a draw
    // alike): the exports before the kill are flushed, nothing after it runs.
    if (o.pixel && rng() % 4 == 0) {
      static const char* const kKills[] = {"kill_gt", "kill_ge", "kill_eq", "kill_ne"};
      text += std::string("    ") + kKills[rng() % 4] + " r3, c" + std::to_string(2 + rng() % 4) +
              ", c" + std::to_string(2 + rng() % 4) + "\n";
    }
    if (loop) text += "    endloop i0, " + head + "\n" + tail + ":\n";
    if (rng() % 2) text += "    alloc export\n";
  }
  if (o.pixel) {
    text += "    alloc colors\n    exece\n    mov oC0, c2\n";
  } else {
    text += "    alloc position\n    exec\n    mov oPos, c7\n    alloc interpolators\n"
            "    exece\n    mov o0, c2\n";
  }
  RandomizeExportConstants(rng, o, s);
  return s;
}

// New constants for the same program (a GPU path reuses its pipeline): c0 (the stream), c2-c5,
// c6.x and i0.
inline void RandomizeExportConstants(std::mt19937& rng, const RandomExportOptions& o,
                                     RandomExportShader& s) {
  static const uint32_t kFormats[] = {2,  3,  4,  6,  7,  10, 15, 16, 17, 24, 25,
                                      26, 30, 31, 32, 36, 37, 38, 33, 0,  63};
  s.k = {};
  s.stream = ExportStream::kValid;
  s.base = s.bytes = 0;
  ucode::InterpreterConstants& k = s.k;
  k.float_constants[1] = {0.0f, float(o.stride), 0.0f, 0.0f};
  for (uint32_t c = 2; c < 6; ++c) {
    for (float& v : k.float_constants[c]) v = std::ldexp(float(int(rng() % 2001) - 1000), -int(rng() % 12));
  }
  k.float_constants[6] = {float(rng() % 16), 0.0f, 0.0f, 0.0f};
  k.float_constants[7] = {0.0f, 0.0f, 0.0f, 1.0f};
  k.loop_constants[0] = (rng() % 40) | ((rng() % 4) << 8) | (1u << 16);
  const uint32_t format = kFormats[rng() % (sizeof(kFormats) / sizeof(kFormats[0]))];
  const uint32_t kind = rng() % 8;
  if (kind < 2) {
    s.stream = ExportStream::kRandomBits;
    for (float& v : k.float_constants[0]) v = RandomExportF(uint32_t(rng()));
    return;
  }
  // Near the end of guest memory (elements cut off there), anywhere inside it, anywhere in 32
  // bits (mostly past it), or just below 4 GiB (element addresses wrap to 0, as 32-bit sums).
  const uint32_t where = rng() % 7;
  const uint32_t base = where < 2   ? uint32_t(o.guest_bytes - 64 + 4 * (rng() % 16))
                        : where < 4 ? uint32_t(rng() % o.guest_bytes) & ~3u
                        : where < 6 ? uint32_t(rng()) & ~3u
                                    : 0u - 64u + 4u * (rng() % 16);
  const uint32_t count = rng() % 64, endian = rng() % 8, numeric = rng() % 8;
  const bool swap = rng() % 2;
  uint32_t start = 0;
  if (o.start_index && kind == 2) {
    s.stream = ExportStream::kStartIndex;
    start = rng() % 16;
  }
  const auto d = xenos::MemExportStreamDwords(base, format, count, endian, numeric, swap, start);
  k.float_constants[0] = {RandomExportF(d[0]), RandomExportF(d[1]), RandomExportF(d[2]),
                          RandomExportF(d[3])};
  s.base = base;
  s.bytes = uint64_t(count) * RandomExportElementBytes(format);
}

}  // namespace xnt::test
