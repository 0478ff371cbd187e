// getBCF helpers (glsl_border_fraction.h); the emitter's part is Emitter::EmitBorderFraction.
#include "glsl_border_fraction.h"

#include "glsl_emitter_internal.h"
#include "xnt/ucode/interpreter.h"

namespace xnt::vk {

std::string GlslBorderFractionHelpers() {
  return R"GLSL(
// ---- getBCF (renderer/cpu texture_unit.cpp: FilterTexels, FilterVolume, PickLevels) ----

// Whether texel (x, y) of a level is the border colour under the clamp modes mx, my (a 1D
// texture reads row 0 whatever y).
float xe_bcf_texel(uint mx, uint my, int x, int y, ivec2 size, bool one_d) {
  int ax = xe_exact_address(mx, x, size.x);
  int ay = one_d ? 0 : xe_exact_address(my, y, size.y);
  return ax < 0 || ay < 0 ? 1.0 : 0.0;
}

// FilterTexels of the border indicator on a level of `size` at normalised uv: the point texel
// of the fixed-point coordinate, or the bilinear footprint's two lerps across and one down.
// d0: fetch constant dword 0 (clamp modes).
float xe_bcf_plane(uint d0, vec2 uv, ivec2 size, bool one_d, bool linear) {
  uint mx = (d0 >> 10u) & 7u, my = (d0 >> 13u) & 7u;
  precise float tx = uv.x * float(size.x);
  precise float ty = uv.y * float(size.y);
  if (!linear) return xe_bcf_texel(mx, my, xe_texel_index(tx), xe_texel_index(ty), size, one_d);
  // A 1D footprint's y is 0.5 texel: the first row, weight 0 (FilterTexels' one_d).
  ivec2 i;
  vec2 a;
  xe_exact_footprint(vec2(tx, one_d ? 0.5 : ty), i, a);
  float t00 = xe_bcf_texel(mx, my, i.x, i.y, size, one_d);
  float t10 = xe_bcf_texel(mx, my, i.x + 1, i.y, size, one_d);
  float t01 = xe_bcf_texel(mx, my, i.x, i.y + 1, size, one_d);
  float t11 = xe_bcf_texel(mx, my, i.x + 1, i.y + 1, size, one_d);
  precise float top = t00 + (t10 - t00) * a.x;
  precise float bottom = t01 + (t11 - t01) * a.x;
  precise float r = top + (bottom - top) * a.y;
  return r;
}

// FilterVolume: the slice (its floor when point filtered) or the two slices around w, each on
// the border when clamp_z (dword 0 bits 16..18) puts it there, else the level's plane.
float xe_bcf_volume(uint d0, vec3 uvw, ivec3 size, bool linear) {
  uint mz = (d0 >> 16u) & 7u;
  float plane = xe_bcf_plane(d0, uvw.xy, size.xy, false, linear);
  precise float slice = uvw.z * float(size.z);
  if (!linear) return xe_exact_address(mz, xe_exact_floor(slice), size.z) < 0 ? 1.0 : plane;
  precise float fz = slice - 0.5;
  int z0 = xe_exact_floor(fz);
  precise float az = xe_exact_weight(fz);
  float front = xe_exact_address(mz, z0, size.z) < 0 ? 1.0 : plane;
  float back = xe_exact_address(mz, z0 + 1, size.z) < 0 ? 1.0 : plane;
  precise float r = front + (back - front) * az;
  return r;
}

// PickLevels at a clamped lambda: magnified at <= 0 (level 0, the mag filter), else the min
// filter on the nearest level (ceil(lambda + 0.5) - 1) or on two levels blended by the fraction
// (mip filter linear). Filters are the instruction's unless 3 (the fetch constant's dword 3: mag
// bits 19..20, min 21..22, mip 23..24); only 1 is linear.
void xe_bcf_levels(uint slot, float lambda, uint mag, uint minf, uint mip, int top,
                   out int lo, out int hi, out float t, out bool linear) {
  uint d3 = xe_fetch_dword(slot * 6u + 3u);
  if (mag == 3u) mag = (d3 >> 19u) & 3u;
  if (minf == 3u) minf = (d3 >> 21u) & 3u;
  if (mip == 3u) mip = (d3 >> 23u) & 3u;
  lo = 0;
  hi = 0;
  t = 0.0;
  if (lambda <= 0.0) {
    linear = mag == 1u;
    return;
  }
  linear = minf == 1u;
  if (mip == 1u) {
    float whole = floor(lambda);
    lo = min(int(whole), top);
    hi = min(lo + 1, top);
    precise float fraction = lambda - whole;
    t = fraction;
  } else {
    precise float nearest = ceil(lambda + 0.5) - 1.0;
    lo = min(int(nearest), top);
  }
}
)GLSL";
}

}  // namespace xnt::vk

namespace xnt::vk::glsl_detail {

void Emitter::EmitBorderFraction(const FetchInstruction& fetch, const std::string& n) {
  const auto dim = fetch.dimension;
  if (dim == ucode::TextureDimension::kCube) {
    // Cube faces clamp to their edges (TextureUnit::TexelAt): never the border colour.
    StoreFetchResult(fetch, "vec4(0.0)");
    return;
  }
  const bool one_d = dim == ucode::TextureDimension::k1D;
  const bool is_3d = dim == ucode::TextureDimension::k3D;
  const std::string tex2d = "xe_textures[" + n + "]", tex3d = "xe_textures_3d[" + n + "]";
  // TextureUnit::PlaneCoordinates and FilterAt: unnormalised coordinates over the guest size,
  // then the offsets (half texels of level 0); a 1D texture's v is 0.5.
  Line("precise vec3 xe_uv = xe_tc;");
  if (one_d) Line("xe_uv.y = 0.5;");
  if (fetch.tx_coord_denorm) {
    Line(one_d ? "xe_uv.x = xe_uv.x / xe_ts.x;" : is_3d ? "xe_uv = xe_uv / xe_ts;" : "xe_uv.xy = xe_uv.xy / xe_ts.xy;");
  }
  const int32_t offsets[3] = {fetch.offset_x, one_d ? 0 : fetch.offset_y, is_3d ? fetch.offset_z : 0};
  for (uint32_t a = 0; a < 3; ++a) {
    if (offsets[a] == 0) continue;
    const std::string c(1, "xyz"[a]);
    Line("xe_uv." + c + " = xe_uv." + c + " + " + FloatLiteral(float(offsets[a]) * 0.5f) + " / xe_ts." + c + ";");
  }
  // Lambda before the clamp (TextureUnit::ExplicitFootprint and Walk, isotropic): the register
  // LOD or none plus both biases, or log2 of the longer texel-space derivative plus them.
  const std::string biases = " + float(bitfieldExtract(int(xe_fetch_dword(" + n +
                             "u * 6u + 4u)), 12, 10)) / 32.0 + " + FloatLiteral(float(fetch.lod_bias) / 16.0f);
  const bool register_gradients = !fetch.use_reg_lod && fetch.use_comp_lod && fetch.use_reg_gradients;
  const bool explicit_lod = ucode::FetchHasExplicitLod(fetch, pixel());
  if (explicit_lod && !register_gradients) {
    Line(std::string("precise float xe_lambda = (") + (fetch.use_reg_lod ? "xe_tex_lod" : "0.0") + biases + ");");
  } else {
    // The quad's derivatives per guest pixel at a resolution scale (xe_derivative_scale).
    Line(register_gradients ? "precise vec3 xe_dx = xe_grad_h;"
                            : "precise vec3 xe_dx = dFdxCoarse(xe_tc) * xe_derivative_scale().x;");
    Line(register_gradients ? "precise vec3 xe_dy = xe_grad_v;"
                            : "precise vec3 xe_dy = dFdyCoarse(xe_tc) * xe_derivative_scale().y;");
    // Derivatives to level-0 texels: xe_lod_texel_scale times the guest size (1 unnormalised); a
    // volume's z counts, a stack's layer does not.
    Line(std::string("precise vec3 xe_rho = vec3(xe_lod_texel_scale(") + n + "u), 1.0) * " +
         (fetch.tx_coord_denorm ? "vec3(1.0)" : "xe_ts") + ";");
    for (const char* d : {"dx", "dy"}) {
      const std::string v = std::string("xe_") + d;
      Line("precise vec3 xe_s" + std::string(d) + " = " + v + " * xe_rho;");
      std::string sum = "xe_s" + std::string(d) + ".x * xe_s" + d + ".x";
      if (!one_d) sum = "(" + sum + ") + xe_s" + d + ".y * xe_s" + d + ".y";
      if (is_3d) sum = "(" + sum + ") + (xe_vol ? xe_s" + std::string(d) + ".z * xe_s" + d + ".z : 0.0)";
      Line("precise float xe_p" + std::string(d + 1) + " = sqrt(" + sum + ");");
    }
    Line("precise float xe_lambda = (log2(max(xe_px, xe_py))" + biases + ");");
  }
  // ClampLambda, then the levels and filter (PickLevels), then FilterAt on each level.
  Line("vec2 xe_range = xe_lod_range(" + n + "u, " + std::to_string(fetch.mip_filter) + "u);");
  Line("xe_lambda = isnan(xe_lambda) ? xe_range.x : clamp(xe_lambda, xe_range.x, xe_range.y);");
  Line("int xe_lo, xe_hi;");
  Line("float xe_t;");
  Line("bool xe_linear;");
  const std::string levels = is_3d ? "(xe_vol ? textureQueryLevels(" + tex3d + ") : textureQueryLevels(" + tex2d + "))"
                                   : "textureQueryLevels(" + tex2d + ")";
  Line("xe_bcf_levels(" + n + "u, xe_lambda, " + std::to_string(fetch.mag_filter) + "u, " +
       std::to_string(fetch.min_filter) + "u, " + std::to_string(fetch.mip_filter) + "u, " + levels +
       " - 1, xe_lo, xe_hi, xe_t, xe_linear);");
  Line("uint xe_d0 = xe_fetch_dword(" + n + "u * 6u);");
  auto level = [&](const char* which) {
    const std::string plane = "xe_bcf_plane(xe_d0, xe_uv.xy, textureSize(" + tex2d + ", " + which + ").xy, " +
                              (one_d ? "true" : "false") + ", xe_linear)";
    if (!is_3d) return plane;
    return "(xe_vol ? xe_bcf_volume(xe_d0, xe_uv, textureSize(" + tex3d + ", " + which + "), xe_linear) : " +
           plane + ")";
  };
  Line("precise float xe_bcf_lo = " + level("xe_lo") + ";");
  Line("precise float xe_bcf_hi = xe_hi == xe_lo ? xe_bcf_lo : " + level("xe_hi") + ";");
  Line("precise float xe_bcf = xe_bcf_lo + (xe_bcf_hi - xe_bcf_lo) * xe_t;");
  StoreFetchResult(fetch, "vec4(xe_bcf, 0.0, 0.0, 0.0)");
}

}  // namespace xnt::vk::glsl_detail
