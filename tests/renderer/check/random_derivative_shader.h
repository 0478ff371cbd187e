// Random valid pixel shaders whose results depend on their quad's derivatives, as assembler text,
// for translate --check over 2x2 quads (TranslateCheckOptions::quads): implicit-LOD texture
// fetches of every dimension (mipmapped textures come from the check's random textures) with
// point / linear / base-map mip filters, magnification and minification filters, anisotropy and
// LOD biases; getCompTexLOD and getGradients; register-LOD and register-gradient fetches after
// setTexLOD / setGradientH / setGradientV; coordinates straight from the interpolant planes or
// scaled and offset by exactly rounded ALU ops first (so the derivatives vary by orders of
// magnitude); sometimes a kill before the fetches (the killed pixels go on as helpers).
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "listing_lines.h"

namespace xnt::vk::test {

inline std::string RandomDerivativeShader(std::mt19937& g) {
  auto below = [&](uint32_t n) { return uint32_t(g() % n); };
  auto pick = [&](const auto& list) { return list[below(uint32_t(std::size(list)))]; };
  ListingLines line;
  static const char* const kSrc2[] = {".xy", ".yx", ".zw", ".xz", ".wy"};
  static const char* const kSrc3[] = {".xyz", ".zyx", ".yzw", ".wxy"};
  static const char* const kFilters[] = {
      "",
      ", MagFilter=point, MinFilter=point, MipFilter=point, AnisoFilter=disabled",
      ", MagFilter=point, MinFilter=linear, MipFilter=linear, AnisoFilter=disabled",
      ", MagFilter=linear, MinFilter=linear, MipFilter=linear, AnisoFilter=disabled",
      ", MagFilter=point, MinFilter=point, MipFilter=basemap, AnisoFilter=disabled",
      ", MipFilter=point, AnisoFilter=max4to1",
      ", MagFilter=point, MinFilter=point, LODBias=1.5",
      ", MagFilter=point, MinFilter=point, LODBias=-2"};
  line("exec");
  // Coordinates: r0-r3 are the quad's planes; r4 a scaled / offset copy (an exactly rounded op
  // keeps the derivatives exact on both sides up to the rounding of the values themselves).
  if (below(2)) {
    static const char* const kScale[] = {"mul r4, r0, c0", "mul r4, r1, c1", "add r4, r2, c2",
                                         "mad r4, r0, c3, r1", "mul r4, r3, r3"};
    line(pick(kScale));
  }
  if (below(6) == 0) line("kill_gt r5, r0.wwww, c4.xxxx");
  const uint32_t fetches = 1 + below(4);
  for (uint32_t i = 0; i < fetches; ++i) {
    const std::string dst = "r" + std::to_string(6 + i);
    const std::string src = "r" + std::to_string(below(5));
    // Its own fetch constant: one dimension and one set of filter overrides per slot.
    const std::string tf = "tf" + std::to_string(i);
    switch (below(12)) {
      case 0: line("getCompTexLOD2D " + dst + ", " + src + pick(kSrc2) + ", " + tf); break;
      case 1: line("getCompTexLOD3D " + dst + ", " + src + pick(kSrc3) + ", " + tf); break;
      case 2: line("getGradients " + dst + ", " + src + pick(kSrc2) + ", " + tf); break;
      case 3: line("tfetch3D " + dst + ", " + src + pick(kSrc3) + ", " + tf + pick(kFilters)); break;
      case 4: line("tfetch1D " + dst + ", " + src + ".x, " + tf + pick(kFilters)); break;
      case 5: line("tfetchCube " + dst + ", " + src + pick(kSrc3) + ", " + tf + pick(kFilters)); break;
      case 6:
        line("setTexLOD " + src + ".z, " + tf);
        line("tfetch2D " + dst + ", " + src + pick(kSrc2) + ", " + tf +
             ", UseComputedLOD=false, UseRegisterLOD=true" + pick(kFilters));
        break;
      case 7:
        line("setGradientH " + src + ".xyz, " + tf);
        line("setGradientV " + src + ".zyx, " + tf);
        line("tfetch2D " + dst + ", " + src + pick(kSrc2) + ", " + tf + ", UseRegisterGradients=true" + pick(kFilters));
        break;
      default: line("tfetch2D " + dst + ", " + src + pick(kSrc2) + ", " + tf + pick(kFilters)); break;
    }
  }
  line("alloc colors");
  line("exec");
  line("mov oC0, r6");
  line("mov oC1, r" + std::to_string(6 + below(fetches)));
  line("exece");
  line("mov oC2, r" + std::to_string(6 + below(fetches)));
  return "xps_3_0\n" + line.body;
}

}  // namespace xnt::vk::test
