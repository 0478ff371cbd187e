#include "glsl_alpha_to_mask.h"

#include <algorithm>
#include <string>

namespace xnt::vk {

namespace {

// A sample's threshold before the dither offset lowers it, for n guest samples per pixel (cpu
// OutputMerger::AlphaToMask: the Xenos sibling Adreno 200's measured order, as Xenia records it in
// gpu/registers.h RB_COLORCONTROL; 4x: 3/4, 1/4, 1/2, 1; 2x: 1/2, 1; 1x: 1).
const char* Threshold(uint32_t n, uint32_t sample) {
  static const char* const k4[4] = {"0.75", "0.25", "0.5", "1.0"};
  static const char* const k2[2] = {"0.5", "1.0"};
  if (n == 4) return k4[sample];
  if (n == 2) return k2[sample];
  return "1.0";
}

}  // namespace

std::string GlslAlphaToMask(const TranslationOptions& options) {
  const uint32_t a2m = options.ps_alpha_to_mask;
  if (!(a2m & 0x100u)) return "";
  const uint32_t guest = options.ps_msaa_samples == 4 ? 4 : options.ps_msaa_samples == 2 ? 2 : 1;
  const uint32_t host = std::clamp<uint32_t>((a2m >> 12) & 15u, 1u, 4u);
  std::string s;
  s += "  {\n";
  // The dither offset of the guest pixel's place in its 2x2 quad: a resolution scale's host
  // pixels take their guest pixel's (output_merger.cpp AlphaToMask).
  s += "    uvec2 xe_a2m_g = uvec2(gl_FragCoord.xy) / uvec2(max(xe_resolution_scale(), vec2(1.0)));\n";
  s += "    uint xe_a2m_quad = ((xe_a2m_g.x & 1u) << 1) | (xe_a2m_g.y & 1u);\n";
  s += "    uint xe_a2m_offsets = " + std::to_string(a2m & 0xFFu) + "u;\n";
  s += "    precise float xe_a2m_step = float((xe_a2m_offsets >> (2u * xe_a2m_quad)) & 3u) / " +
       std::to_string(4 * guest) + ".0;\n";
  s += "    float xe_a2m_alpha = xe_o_color[0].a;\n";
  s += "    uint xe_a2m_guest = 0u;\n";
  for (uint32_t g = 0; g < guest; ++g) {
    // alpha >= threshold covers the sample; NaN covers none.
    s += "    { precise float t = " + std::string(Threshold(guest, g)) +
         " - xe_a2m_step; if (xe_a2m_alpha >= t) xe_a2m_guest |= " + std::to_string(1u << g) +
         "u; }\n";
  }
  s += "    uint xe_a2m_host = 0u;\n";
  for (uint32_t h = 0; h < host; ++h) {
    const uint32_t g = std::min((a2m >> (16 + 4 * h)) & 15u, guest - 1);
    s += "    xe_a2m_host |= ((xe_a2m_guest >> " + std::to_string(g) + "u) & 1u) << " +
         std::to_string(h) + "u;\n";
  }
  s += "    gl_SampleMask[0] = int(xe_a2m_host);\n";
  s += "  }\n";
  return s;
}

}  // namespace xnt::vk
