// Memexport (eA / eM#) in the interpreter: element packing against hand-computed words, flush
// order (alloc, serialize, kill, end), bounds (index past the stream's count, address outside
// guest memory, eA without its marker bits), and a randomized check that fuzzed export shaders
// never write outside guest memory and always finish.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <string>

#include "xnt/ucode/assembler.h"
#include "xnt/ucode/interpreter.h"
#include "xnt/ucode/memexport.h"
#include "random_export_shader.h"

namespace xnt::ucode {
namespace {

constexpr uint64_t kGuestBytes = 512ull << 20;

float F(uint32_t bits) { return std::bit_cast<float>(bits); }

// One element per vertex: c2 to the address eA = c0 + vertex index * c1.
const char* const kExportC2 = R"(xvs_3_0
    alloc export
    exece
    mad eA, r0.xxxx, c1, c0
    mov eM0, c2
)";

// A stream constant as xenos.h (xe_gpu_memexport_stream_t) lays it out.
Float4 Stream(uint32_t base_bytes, uint32_t format, uint32_t count, uint32_t endian = 0,
              uint32_t numeric = 0, bool swap = false) {
  return {F(0x40000000u | (base_bytes >> 2)), F(0x4B000000u),
          F(0x4B000000u | endian | (format << 8) | (numeric << 16) | (swap ? 1u << 19 : 0u)),
          F(0x4B000000u | count)};
}

uint32_t Z(uint32_t format, uint32_t endian = 0, uint32_t numeric = 0, bool swap = false) {
  return 0x4B000000u | endian | (format << 8) | (numeric << 16) | (swap ? 1u << 19 : 0u);
}

struct Memory {
  std::map<uint32_t, uint32_t> words;
  uint32_t writes = 0;
  InterpreterCallbacks Callbacks() {
    InterpreterCallbacks cb;
    cb.write_memory = [this](uint32_t address, uint32_t value, uint32_t mask) {
      EXPECT_EQ(address & 3u, 0u);
      if (uint64_t(address) + 4 > kGuestBytes) return false;
      uint32_t& w = words[address];
      w = (w & ~mask) | (value & mask);
      ++writes;
      return true;
    };
    return cb;
  }
};

ShaderResult RunText(const std::string& text, ShaderType type, const InterpreterConstants& k,
                     const InterpreterCallbacks& cb, float vertex_index = 0.0f) {
  const Shader shader = Decode(Assemble(text, nullptr, type), type);
  ShaderInputs in;
  in.vertex_index = vertex_index;
  return Interpreter(shader).Run(k, in, cb);
}

TEST(MemExportPack, FixedFormatsWithSwapsAndEndian) {
  using memexport::Pack;
  // 8_8_8_8 unorm: 1 -> 255, 0.5 -> 127.5 + 0.5 -> 128, 0.25 -> 63.75 + 0.5 -> 64.
  auto e = Pack({1.0f, 0.5f, 0.0f, 0.25f}, Z(6));
  EXPECT_EQ(e.bytes, 4u);
  EXPECT_EQ(e.words[0], 0x400080FFu);
  EXPECT_EQ(Pack({1.0f, 0.5f, 0.0f, 0.25f}, Z(6, 2)).words[0], 0xFF800040u);     // 8in32
  EXPECT_EQ(Pack({1.0f, 0.5f, 0.0f, 0.25f}, Z(6, 0, 0, true)).words[0], 0x40FF8000u);  // R<->B
  // snorm (numeric 1): -1 -> -127 = 0x81, 0.5 -> 63.5 + 0.5 -> 64, NaN -> 0, 2 -> 127.
  EXPECT_EQ(Pack({-1.0f, 0.5f, std::nanf(""), 2.0f}, Z(6, 0, 1)).words[0], 0x7F004081u);
  // uint (numeric 2): 300 clamps to 255, 3.4 -> 3, -5 -> 0, 7.5 -> 8.
  EXPECT_EQ(Pack({300.0f, 3.4f, -5.0f, 7.5f}, Z(6, 0, 2)).words[0], 0x080003FFu);
  // sint (numeric 3): -200 -> -128, -1.5 -> -2, 127.7 -> 127.
  EXPECT_EQ(Pack({-200.0f, -1.5f, 127.7f, 0.0f}, Z(6, 0, 3)).words[0], 0x007FFE80u);
  // 16_16_16_16 unorm in two dwords: 1 -> 0xFFFF, 0.5 -> 32767.5 + 0.5 -> 32768.
  e = Pack({1.0f, 0.5f, 0.0f, 1.0f}, Z(26));
  EXPECT_EQ(e.bytes, 8u);
  EXPECT_EQ(e.words[0], 0x8000FFFFu);
  EXPECT_EQ(e.words[1], 0xFFFF0000u);
  // 8in16 swaps bytes within each halfword.
  e = Pack({1.0f, 0.5f, 0.0f, 1.0f}, Z(26, 1));
  EXPECT_EQ(e.words[0], 0x0080FFFFu);
  EXPECT_EQ(e.words[1], 0xFFFF0000u);
  // 8in64 swaps the two dwords and then the bytes of each.
  e = Pack({1.0f, 0.5f, 0.0f, 1.0f}, Z(26, 4));
  EXPECT_EQ(e.words[0], 0x0000FFFFu);
  EXPECT_EQ(e.words[1], 0xFFFF0080u);
  // 8 / 16-bit formats.
  e = Pack({0.5f, 0, 0, 0}, Z(2));
  EXPECT_EQ(e.bytes, 1u);
  EXPECT_EQ(e.words[0], 0x80u);
  e = Pack({0.25f, 0, 0, 0}, Z(24, 1));  // k_16 8in16: 16383.75 + 0.5 -> 16384 = 0x4000
  EXPECT_EQ(e.bytes, 2u);
  EXPECT_EQ(e.words[0], 0x0040u);
  EXPECT_EQ(Pack({1.0f, 0.0f, 1.0f, 0}, Z(4)).words[0], 0xF81Fu);   // 5_6_5
  EXPECT_EQ(Pack({1.0f, 0.0f, 0.0f, 1.0f}, Z(3)).words[0], 0x801Fu);  // 1_5_5_5
  EXPECT_EQ(Pack({1.0f, 0.0f, 0.0f, 1.0f}, Z(7)).words[0], 0xC00003FFu);  // 2_10_10_10
  EXPECT_EQ(Pack({0, 0, 0, 0}, Z(33)).bytes, 0u);  // k_32: not a memexport format here
}

TEST(MemExportPack, FloatFormatsAndHalfRounding) {
  using memexport::FloatToHalf;
  EXPECT_EQ(FloatToHalf(1.0f), 0x3C00u);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xC000u);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7BFFu);
  EXPECT_EQ(FloatToHalf(65519.0f), 0x7BFFu);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7C00u);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -24)), 0x0001u);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -25)), 0x0000u);          // tie to even: 0
  EXPECT_EQ(FloatToHalf(std::ldexp(1.5f, -25)), 0x0001u);
  EXPECT_EQ(FloatToHalf(std::ldexp(3.0f, -25)), 0x0002u);          // 1.5 ulp ties to 2
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -14)), 0x0400u);
  EXPECT_EQ(FloatToHalf(0.1f), 0x2E66u);
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00u);  // tie to even
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(3.0f, -11)), 0x3C02u);  // tie to even (up)
  EXPECT_EQ(FloatToHalf(std::numeric_limits<float>::quiet_NaN()), 0x7E00u);
  EXPECT_EQ(FloatToHalf(-std::numeric_limits<float>::infinity()), 0xFC00u);
  auto e = memexport::Pack({1.0f, -2.0f, 0.5f, 0.0f}, Z(32));
  EXPECT_EQ(e.words[0], 0xC0003C00u);
  EXPECT_EQ(e.words[1], 0x00003800u);
  e = memexport::Pack({1.0f, 2.0f, 3.0f, 4.0f}, Z(38, 2));
  EXPECT_EQ(e.bytes, 16u);
  EXPECT_EQ(e.words[0], 0x0000803Fu);  // 1.0f = 0x3F800000 byte-swapped
  EXPECT_EQ(e.words[3], 0x00008040u);
}

class MemExportRun : public ::testing::Test {
 protected:
  void SetUp() override { k_.float_constants[1] = {0.0f, 1.0f, 0.0f, 0.0f}; }
  InterpreterConstants k_;
  Memory mem_;
};

TEST_F(MemExportRun, VertexExportsGoToIndexPlusKAndPastTheCountAreDropped) {
  // k_32_32_32_32_FLOAT at 0x1000, 3 elements; vertex 1 writes elements 1 and 2; eM2 (index 3)
  // is past the count and dropped.
  k_.float_constants[0] = Stream(0x1000, 38, 3);
  k_.float_constants[2] = {1.0f, 2.0f, 3.0f, 4.0f};
  k_.float_constants[3] = {5.0f, 6.0f, 7.0f, 8.0f};
  const std::string text = R"(xvs_3_0
    alloc export
    exec
    mad eA, r0.xxxx, c1, c0
    mov eM0, c2
    mov eM1, c3
    mov eM2, c3
    alloc position
    exece
    mov oPos, c2
)";
  ShaderResult r = RunText(text, ShaderType::kVertex, k_, mem_.Callbacks(), 1.0f);
  EXPECT_TRUE(r.memexport);
  EXPECT_EQ(r.memexport_elements, 2u);
  EXPECT_EQ(r.memexport_dropped_index, 1u);
  EXPECT_EQ(mem_.words.at(0x1010), std::bit_cast<uint32_t>(1.0f));
  EXPECT_EQ(mem_.words.at(0x101C), std::bit_cast<uint32_t>(4.0f));
  EXPECT_EQ(mem_.words.at(0x1020), std::bit_cast<uint32_t>(5.0f));
  EXPECT_EQ(mem_.words.count(0x1030), 0u);
  EXPECT_EQ(mem_.writes, 8u);
  // Index 3 is past the count: nothing at all.
  Memory other;
  r = RunText(text, ShaderType::kVertex, k_, other.Callbacks(), 3.0f);
  EXPECT_EQ(r.memexport_elements, 0u);
  EXPECT_EQ(r.memexport_dropped_index, 3u);
  EXPECT_TRUE(other.words.empty());
}

TEST_F(MemExportRun, ByteAndHalfwordElementsReadModifyWrite) {
  mem_.words[0x2000] = 0x11223344u;
  k_.float_constants[0] = Stream(0x2000, 2, 8);  // k_8
  k_.float_constants[2] = {1.0f, 0, 0, 0};
  k_.float_constants[3] = {0.0f, 0, 0, 0};
  // Vertex 1: eM0 -> byte 1 (0xFF), eM1 -> byte 2 (0x00).
  RunText(R"(xvs_3_0
    alloc export
    exece
    mad eA, r0.xxxx, c1, c0
    mov eM0, c2
    mov eM1, c3
)", ShaderType::kVertex, k_, mem_.Callbacks(), 1.0f);
  EXPECT_EQ(mem_.words.at(0x2000), 0x1100FF44u);
  // k_16 with 8in16 at halfword 1: 0.5 -> 0x8000 -> swapped 0x0080.
  k_.float_constants[0] = Stream(0x2000, 24, 2, 1);
  k_.float_constants[2] = {0.5f, 0, 0, 0};
  RunText(kExportC2, ShaderType::kVertex, k_, mem_.Callbacks(), 1.0f);
  EXPECT_EQ(mem_.words.at(0x2000), 0x0080FF44u);
}

TEST_F(MemExportRun, InvalidAddressUnsupportedFormatAndOutsideMemory) {
  k_.float_constants[2] = {1.0f, 2.0f, 3.0f, 4.0f};
  const std::string text = kExportC2;
  // X without the 01 marker.
  k_.float_constants[0] = Stream(0x1000, 38, 4);
  k_.float_constants[0][0] = F(0x1000 >> 2);
  ShaderResult r = RunText(text, ShaderType::kVertex, k_, mem_.Callbacks());
  EXPECT_EQ(r.memexport_dropped_invalid, 1u);
  EXPECT_TRUE(mem_.words.empty());
  // k_32 (not a memexport format): dropped and named.
  k_.float_constants[0] = Stream(0x1000, 33, 4);
  r = RunText(text, ShaderType::kVertex, k_, mem_.Callbacks());
  EXPECT_EQ(r.memexport_dropped_invalid, 1u);
  bool named = false;
  for (const auto& n : r.notes) named |= n.find("k_32") != std::string::npos;
  EXPECT_TRUE(named);
  // 0x1FFFFFF8: the element's last two dwords are beyond 512 MiB.
  k_.float_constants[0] = Stream(0x1FFFFFF8u, 38, 4);
  r = RunText(text, ShaderType::kVertex, k_, mem_.Callbacks());
  EXPECT_EQ(r.memexport_elements, 1u);
  EXPECT_EQ(r.memexport_dropped_outside_memory, 2u);
  EXPECT_EQ(mem_.words.size(), 2u);
}

TEST_F(MemExportRun, FlushedAtAllocSerializeAndBeforeAKillButNotAfterIt) {
  k_.float_constants[0] = Stream(0x3000, 38, 16);
  k_.float_constants[2] = {1.0f, 1.0f, 1.0f, 1.0f};
  k_.float_constants[3] = {2.0f, 2.0f, 2.0f, 2.0f};
  k_.float_constants[4] = {1.0f, 0.0f, 0.0f, 0.0f};
  // eM0 is flushed at the second alloc export, which then resets eA: the eM0 written after it
  // without a new eA is dropped (invalid eA). The kill flushes eM1 = c3 and stops the rest.
  ShaderResult r = RunText(R"(xps_3_0
    alloc export
    exec
    mad eA, r0.xxxx, c1, c0
    mov eM0, c2
    alloc export
    exec
    mov eM0, c3
    alloc export
    exec
    mad eA, r0.xxxx, c1, c0
    mov eM1, c3
    kills_eq r1.x, c1.x
    mov eM2, c3
    alloc colors
    exece
    mov oC0, c2
)", ShaderType::kPixel, k_, mem_.Callbacks());
  EXPECT_TRUE(r.killed);
  EXPECT_EQ(r.memexport_elements, 2u);
  EXPECT_EQ(r.memexport_dropped_invalid, 1u);
  EXPECT_EQ(mem_.words.at(0x3000), std::bit_cast<uint32_t>(1.0f));  // eM0 of the first export
  EXPECT_EQ(mem_.words.at(0x3010), std::bit_cast<uint32_t>(2.0f));  // eM1 before the kill
  EXPECT_EQ(mem_.words.count(0x3020), 0u);
  // A serialized instruction flushes eM0 = c2; writing eM0 again after it exports again to the
  // same element (eA kept), so memory ends with c3.
  Memory m2;
  r = RunText(R"(xvs_3_0
    alloc export
    exec Serialize=0x4
    mad eA, r0.xxxx, c1, c0
    mov eM0, c2
    mov eM0, c3
)", ShaderType::kVertex, k_, m2.Callbacks());
  EXPECT_EQ(r.memexport_elements, 2u);
  EXPECT_EQ(m2.words.at(0x3000), std::bit_cast<uint32_t>(2.0f));
  EXPECT_EQ(m2.writes, 8u);
  // Predicated-off eM writes are not exports.
  Memory m3;
  r = RunText(R"(xvs_3_0
    alloc export
    exec
    setp_eq r5.x, c1.x
    mad eA, r0.xxxx, c1, c0
    (!p0) mov eM0, c2
    (p0) mov eM1, c3
)", ShaderType::kVertex, k_, m3.Callbacks());
  EXPECT_EQ(r.memexport_elements, 1u);
  EXPECT_EQ(m3.words.count(0x3000), 0u);
  EXPECT_EQ(m3.words.at(0x3010), std::bit_cast<uint32_t>(2.0f));
}

// Random export shaders (tests/common/random_export_shader.h): random eA (valid stream
// constants near the top of memory or anywhere, a random start index, random bits), formats,
// counts, loops. Every write stays inside guest memory and every run ends.
TEST(MemExportFuzz, RandomExportShadersStayInsideGuestMemoryAndFinish) {
  std::mt19937 rng(1234);
  uint64_t elements = 0, outside = 0;
  ::xnt::test::RandomExportOptions options;
  options.start_index = true;
  for (int iter = 0; iter < 300; ++iter) {
    const ::xnt::test::RandomExportShader s = ::xnt::test::MakeRandomExportShader(rng, options);
    Shader shader;
    try {
      shader = Decode(Assemble(s.text, nullptr, ShaderType::kVertex), ShaderType::kVertex);
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what() << "\n" << s.text;
      continue;
    }
    std::map<uint32_t, uint32_t> memory;
    InterpreterCallbacks cb;
    cb.write_memory = [&](uint32_t address, uint32_t value, uint32_t mask) {
      if (uint64_t(address) + 4 > kGuestBytes) return false;
      memory[address] = (memory[address] & ~mask) | (value & mask);
      return true;
    };
    ShaderInputs in;
    in.vertex_index = float(rng() % 80);
    const ShaderResult r = Interpreter(shader).Run(s.k, in, cb);
    EXPECT_FALSE(r.step_limit_hit);
    elements += r.memexport_elements;
    outside += r.memexport_dropped_outside_memory;
    for (const auto& [address, value] : memory) {
      EXPECT_LT(uint64_t(address) + 4, kGuestBytes + 1);
      // Only a stream built as one writes, and only inside it.
      EXPECT_TRUE(s.Covers(address)) << std::hex << address << "\n" << s.text;
    }
  }
  // The generator reached both kinds of outcome.
  EXPECT_GT(elements, 50u);
  EXPECT_GT(outside, 0u);
}

}  // namespace
}  // namespace xnt::ucode
