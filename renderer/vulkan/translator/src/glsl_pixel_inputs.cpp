// Interpolator loads with per-interpolator centroid sampling, and PsParamGen (glsl_pixel_inputs.h).
#include "glsl_pixel_inputs.h"

#include <string>

namespace xnt::vk {

namespace {

// The guest coverage of the pixel as a uint `xe_cov`, and where a centroid interpolator is taken:
// `xe_at_centroid` (partly covered) and `xe_centroid_offset` from the pixel centre, the position
// of the lowest covered guest sample (gpu::CentroidSample; positions as rasterizer.cpp
// SamplePositions, in host pixels at any resolution scale). Offsets are multiples of 1/8, which
// Vulkan's minimum 4 bits of subPixelInterpolationOffsetBits represent exactly.
std::string CentroidSelection(const TranslationOptions& options) {
  const bool four = options.ps_msaa_samples >= 4;
  std::string s;
  if (options.fsi_output_merger) {
    s += "uint xe_cov = xe_om_coverage_in();\n";
  } else {
    s += "uint xe_host_cov = uint(gl_SampleMaskIn[0]);\n";
    s += "uint xe_cov = 0u;\n";
    for (uint32_t g = 0; g < (four ? 4u : 2u); ++g) {
      const uint32_t host = (options.ps_host_sample_of_guest >> (4 * g)) & 0xFu;
      s += "xe_cov |= ((xe_host_cov >> " + std::to_string(host) + "u) & 1u) << " +
           std::to_string(g) + "u;\n";
    }
  }
  const std::string all = four ? "15u" : "3u";
  s += "xe_cov &= " + all + ";\n";
  s += "bool xe_at_centroid = xe_cov != 0u && xe_cov != " + all + ";\n";
  s += "int xe_centroid_sample = findLSB(xe_cov);\n";
  if (four) {
    s += "vec2 xe_centroid_offset = xe_centroid_sample == 0 ? vec2(-0.125, -0.375) : "
         "(xe_centroid_sample == 1 ? vec2(0.375, -0.125) : (xe_centroid_sample == 2 ? "
         "vec2(-0.375, 0.125) : vec2(0.125, 0.375)));\n";
  } else {
    s += "vec2 xe_centroid_offset = xe_centroid_sample == 0 ? vec2(-0.25) : vec2(0.25);\n";
  }
  return s;
}

// PsParamGen (gpu::PsParamGen, gpu::ParamGenPosition): the position in guest pixels, signs set by
// flipping the bit so that pixel 0 can carry them (-0.0).
std::string ParamGen(uint32_t reg, bool point_coord_input) {
  const std::string coord = point_coord_input ? "xe_point_coord" : "gl_PointCoord";
  return "{\n"
         "  vec2 xe_pg_scale = xe_resolution_scale();\n"
         "  vec2 xe_pg_pos = max((floor(gl_FragCoord.xy) + 0.5) / xe_pg_scale - 0.5, vec2(0.0));\n"
         "  bool xe_pg_point = (xe_system.flags & kXeSysFlagPrimitivePoint) != 0u;\n"
         "  bool xe_pg_line = (xe_system.flags & kXeSysFlagPrimitiveLine) != 0u;\n"
         "  bool xe_pg_back = !xe_pg_point && !xe_pg_line && !gl_FrontFacing;\n"
         "  xe_r[" + std::to_string(reg) + "] = vec4(\n"
         "      uintBitsToFloat(floatBitsToUint(xe_pg_pos.x) ^ (xe_pg_back ? 0x80000000u : 0u)),\n"
         "      uintBitsToFloat(floatBitsToUint(xe_pg_pos.y) ^ (xe_pg_point ? 0x80000000u : 0u)),\n"
         "      xe_pg_point ? " + coord + ".x : uintBitsToFloat(xe_pg_line ? 0x80000000u : 0u),\n"
         "      xe_pg_point ? " + coord + ".y : 0.0);\n"
         "}\n";
}

}  // namespace

std::string GlslPixelInputs(const TranslationOptions& options, uint32_t count,
                            uint32_t register_count) {
  std::string s;
  const uint32_t centroid = options.ps_centroid_mask & ((1u << count) - 1u);
  if (centroid && options.ps_msaa_samples > 1) s += CentroidSelection(options);
  for (uint32_t i = 0; i < count; ++i) {
    const std::string in = "xe_interpolators[" + std::to_string(i) + "]";
    const std::string r = "xe_r[" + std::to_string(i) + "] = ";
    if (options.ps_msaa_samples > 1 && ((centroid >> i) & 1u)) {
      s += r + "xe_at_centroid ? interpolateAtOffset(" + in + ", xe_centroid_offset) : " + in +
           ";\n";
    } else {
      s += r + in + ";\n";
    }
  }
  if (options.ps_param_gen_register >= 0 &&
      uint32_t(options.ps_param_gen_register) < register_count) {
    s += ParamGen(uint32_t(options.ps_param_gen_register), options.ps_point_coord_input);
  }
  return s;
}

}  // namespace xnt::vk
