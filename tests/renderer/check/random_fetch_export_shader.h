// Random valid shaders that fetch and export, as assembler text, for translate --check: vertex
// fetches in every format the fetch decoder knows (signed or not, normalised or integer, the
// signed-RF mode, offsets, strides, mini fetches), texture fetches of every dimension with the
// filter / LOD / offset options and the get* / set* ops, ALU work on what they fetched, and the
// exports: oPos, oPts (size, edge flag, vertex kill in z), o#, oC#, oDepth and memexport (eA from
// a stream constant the check is given, one to five eM#). The generator of random_microcode.h
// makes random words, which almost never form a valid eA or a vertex fetch of a real format; this
// one makes valid programs by construction (the assembler encodes them).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "listing_lines.h"
#include "xnt/ucode/interpreter.h"

namespace xnt::vk::test {

struct FetchExportShader {
  std::string text;
  bool pixel = false;
  // Constants the shader's eA reads: c253 = (0, 1, 0, 0), c254 = the stream.
  std::vector<std::pair<uint32_t, ucode::Float4>> constants;
};

inline FetchExportShader RandomFetchExportShader(std::mt19937& g) {
  auto below = [&](uint32_t n) { return uint32_t(g() % n); };
  auto pick = [&](const auto& list) { return list[below(uint32_t(std::size(list)))]; };
  FetchExportShader s;
  s.pixel = below(2) == 0;
  ListingLines line;
  auto reg = [&](uint32_t first, uint32_t count) { return "r" + std::to_string(first + below(count)); };
  static const char* const kSwizzles[] = {"", ".xyzw", ".wzyx", ".xxyy", ".zwxy", ".yyyy", ".xyz1", ".x0y_"};
  static const char* const kSrc[] = {".xy", ".yx", ".zw", ".xz", ".wy"};
  static const char* const kSrc3[] = {".xyz", ".zyx", ".yzw", ".wxy"};
  line("exec");
  // Fetches into r1..r4 from r0 (the vertex index or the first interpolator).
  const uint32_t fetches = 1 + below(4);
  for (uint32_t i = 0; i < fetches; ++i) {
    const std::string dst = "r" + std::to_string(1 + i) + pick(kSwizzles);
    if (!s.pixel && below(3) != 0) {
      static const char* const kFormats[] = {
          "FMT_8_8_8_8", "FMT_2_10_10_10", "FMT_10_11_11", "FMT_11_11_10", "FMT_16_16",
          "FMT_16_16_16_16", "FMT_16_16_FLOAT", "FMT_16_16_16_16_FLOAT", "FMT_32", "FMT_32_32",
          "FMT_32_32_32_32", "FMT_32_FLOAT", "FMT_32_32_FLOAT", "FMT_32_32_32_32_FLOAT",
          "FMT_32_32_32_FLOAT"};
      std::string f = (i > 0 && below(3) == 0 ? "vfetch_mini " : "vfetch_full ") + dst + ", r0.x, vf" +
                      std::to_string(48 + below(48)) + ", DataFormat=" + pick(kFormats);
      if (f.rfind("vfetch_full", 0) == 0) f += ", Stride=" + std::to_string(below(9));
      f += ", Offset=" + std::to_string(below(8));
      if (below(2)) f += ", Signed=true";
      if (below(2)) f += ", NumFormat=integer";
      if (below(4) == 0) f += ", SignedRFMode=true";
      if (below(4) == 0) f += ", ExpAdjust=" + std::to_string(int(below(9)) - 4);
      if (below(4) == 0) f += ", RoundIndex=true";
      line(f);
      continue;
    }
    const std::string tf = "tf" + std::to_string(below(8));
    switch (below(9)) {
      case 0: line("setTexLOD r0.z, " + tf); break;
      case 1: line("getWeights2D " + dst + ", r0" + pick(kSrc) + ", " + tf); break;
      case 2: line("tfetch3D " + dst + ", r0" + pick(kSrc3) + ", " + tf + ", MipFilter=basemap, LODBias=-1.5"); break;
      case 3: line("tfetchCube " + dst + ", r0" + pick(kSrc3) + ", " + tf + ", UseComputedLOD=false, UseRegisterLOD=true"); break;
      case 4: line("tfetch1D " + dst + ", r0.x, " + tf + ", MagFilter=point, MinFilter=linear"); break;
      case 5: line("tfetch2D " + dst + ", r0" + pick(kSrc) + ", " + tf + ", OffsetX=0.5, OffsetY=-1"); break;
      default: line("tfetch2D " + dst + ", r0" + pick(kSrc) + ", " + tf); break;
    }
  }
  // ALU work on the fetched values (exactly rounded ops, so the exports stay comparable).
  static const char* const kOps2[] = {"add", "mul", "max", "min", "seq", "sge", "sgt", "sne", "dp4", "dp3"};
  static const char* const kOps1[] = {"mov", "frc", "floor", "trunc"};
  for (uint32_t i = 0, n = below(5); i < n; ++i) {
    const std::string d = reg(1, 6);
    if (below(2)) {
      line(std::string(pick(kOps2)) + " " + d + ", " + reg(0, 5) + ", " + (below(2) ? reg(0, 5) : "c" + std::to_string(below(16))));
    } else {
      line(std::string(pick(kOps1)) + " " + d + ", " + (below(3) ? "" : "-") + reg(0, 5));
    }
  }
  // Memexport: element index r0.x (the vertex index; an interpolator in a pixel shader, whose
  // random values make many eA invalid, dropped on both sides) into a stream in the check's
  // window. Formats the packer supports, any endian swap, numeric type and red/blue swap.
  if (below(3) != 0) {
    static const uint32_t kStreamFormats[] = {2, 6, 7, 25, 26, 31, 32, 33, 34, 35, 36, 37, 38, 16, 17};
    const uint32_t z = 0x4B000000u | below(6) | (pick(kStreamFormats) << 8) | (below(4) << 16) | (below(2) << 19);
    // In the window's second half, which the check's vertex fetch buffers leave out.
    const uint32_t base_dwords = 0x2000 + below(0x1800), count = 1 + below(2000);
    s.constants.push_back({253, {0.0f, 1.0f, 0.0f, 0.0f}});
    s.constants.push_back({254, {std::bit_cast<float>(0x40000000u | base_dwords), std::bit_cast<float>(0x4B000000u),
                                 std::bit_cast<float>(z), std::bit_cast<float>(0x4B000000u | count)}});
    line("alloc export");
    line("exec");
    line("mad eA, r0.xxxx, c253, c254");
    for (uint32_t k = 0, n = 1 + below(5); k < n; ++k) line("mov eM" + std::to_string(k) + ", " + reg(0, 7));
  }
  if (s.pixel) {
    line("alloc colors");
    line("exece");
    line("mov oC0, " + reg(0, 7));
    if (below(2)) line("mov oC1" + std::string(below(2) ? ".xy" : "") + ", " + reg(0, 7));
    if (below(4) == 0) line("mov oDepth, " + reg(0, 7) + ".w");
  } else {
    line("alloc position");
    line("exec");
    line("mov oPos, " + reg(0, 7));
    if (below(2)) line("mov oPts.xyz, " + reg(0, 7));
    line("alloc interpolators");
    line("exece");
    line("mov o0, " + reg(0, 7));
    if (below(2)) line("mov o" + std::to_string(1 + below(15)) + ", " + reg(0, 7));
  }
  s.text = std::string(s.pixel ? "xps_3_0\n" : "xvs_3_0\n") + line.body;
  return s;
}

}  // namespace xnt::vk::test
