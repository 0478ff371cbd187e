// Memexport (eA / eM0-eM4): how one export sequence becomes guest-memory writes. Shared by the
// CPU interpreter (interpreter.cpp executes it) and the tests; the Vulkan translator emits the
// same rules in GLSL (renderer/vulkan/translator/src/glsl_memexport.cpp), and the two are held
// bit-identical by the memexport samples.
//
// Facts (Xenia src/xenia/gpu/spirv_shader_translator_memexport.cc ExportToMemory and
// EndianSwap128Uint4, xenos.h xe_gpu_memexport_stream_t, Xenia's "Implement memexport" discussion; the code is ours):
//  - eA is written by `mad eA, rN, (0, 1, 0, 0), cStream`: X = base address in dwords with bits
//    31:30 = 01, Y = 2^23 + element index (index in the 23 mantissa bits), Z = the stream
//    format (Endian128 in bits 2:0, ColorFormat in 13:8, numeric type in 18:16 — bit 16 signed,
//    bit 17 integer —, red/blue swap in bit 19, 0x4B0 in 31:20), W = 2^23 + element count.
//    An export whose eA does not have X bits 31:30 = 01 and exponent 0x96 (2^23) in Y, Z and W is
//    dropped (the hardware's validity check on the index, Xenia checks all four).
//  - eM# k goes to element index + k; elements with index + k >= count are dropped.
//  - The element address is (X << 2) + index * element bytes (the shift drops X's marker bits).
//  - Packing: red/blue swapped first (Z bit 19); NaN -> 0 for fixed-point formats; normalised
//    values clamped to [0, 1] / [-1, 1] and scaled; then +-0.5 and truncation (Direct3D rules).
//    Integer (non-normalised) values are clamped to the component's range here (Xenia leaves the
//    out-of-range conversion undefined). 16-bit floats are IEEE halves rounded to nearest even
//    (Xenia uses packHalf2x16, whose rounding GLSL leaves open; both of ours are exact).
//  - The packed element (as 1-4 little-endian host dwords, the way guest bytes load) is swapped
//    by Endian128 over 128 bits: 8in64 / 8in128 first reorder the dwords, then 8in32 in each;
//    1-3 are the 32-bit swaps. 8- and 16-bit elements then take their low 8/16 bits into the
//    byte/halfword of the containing dword (read-modify-write; atomics on the GPU).
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace xnt::ucode::memexport {

using Float4 = std::array<float, 4>;

// Bytes per element of a stream ColorFormat (1, 2, 4, 8, 16), or 0 when memexport does not
// support the format (the export is dropped and reported by name).
uint32_t ElementBytes(uint32_t color_format);

// True when eA (as raw dwords) has the marker bits of a valid export address.
inline bool AddressValid(const uint32_t ea[4]) {
  return (ea[0] >> 30) == 1u && (ea[1] >> 23) == 0x96u && (ea[2] >> 23) == 0x96u &&
         (ea[3] >> 23) == 0x96u;
}

// One packed element: its dwords after the endian swap (unused dwords 0).
struct Element {
  std::array<uint32_t, 4> words{};
  uint32_t bytes = 0;  // 0: unsupported format
};

// Packs eM value `value` by stream format dword `z` (eA.z).
Element Pack(const Float4& value, uint32_t z);

// IEEE binary16 from binary32, round to nearest even, overflow to infinity, NaN -> quiet NaN
// with the sign kept (0x7E00 | sign).
uint32_t FloatToHalf(float f);

// 128-bit endian swap of a packed element (Endian128: 0 none, 1 8in16, 2 8in32, 3 16in32,
// 4 8in64, 5 8in128; 6 and 7 are treated as none).
std::array<uint32_t, 4> EndianSwap128(std::array<uint32_t, 4> words, uint32_t endian);

// A human name for notes ("k_8_8_8_8").
std::string FormatName(uint32_t color_format);

}  // namespace xnt::ucode::memexport
