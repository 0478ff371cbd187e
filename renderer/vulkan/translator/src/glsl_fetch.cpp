// Vertex and texture fetch instructions -> GLSL (the rest of the emitter: glsl_emitter.cpp).
#include "glsl_emitter_internal.h"
#include "glsl_prelude.h"

#include <cmath>

namespace xnt::vk::glsl_detail {

using ucode::FetchInstruction;
using ucode::FetchOp;

// ---- Fetch --------------------------------------------------------------------------------------

void Emitter::StoreFetchResult(const FetchInstruction& fetch, const std::string& value) {
  std::string dest = TempRef(fetch.dst_reg, fetch.dst_rel);
  for (uint32_t c = 0; c < 4; ++c) {
    uint32_t sel = fetch.DestComponent(c);
    if (sel == 7) continue;  // keep
    std::string v;
    if (sel < 4) {
      v = value + "." + kComponents[sel];
    } else if (sel == 5) {
      v = "1.0";
    } else {
      v = "xe_zero()";  // 4 = zero; 6 has no known meaning and is treated as zero
    }
    Line(dest + "." + kComponents[c] + " = " + v + ";");
  }
}

void Emitter::EmitFetch(const FetchInstruction& fetch, uint32_t slot) {
  Line("{  // slot " + std::to_string(slot) + ": fetch op " + std::to_string(int(fetch.opcode)));
  ++indent_;
  if (fetch.is_predicated) {
    Line(std::string("if (xe_p0 == ") + (fetch.predicate_condition ? "true" : "false") + ") {");
    ++indent_;
  }
  if (fetch.IsVertex()) {
    EmitVertexFetch(fetch);
  } else {
    EmitTextureFetch(fetch);
  }
  if (fetch.is_predicated) {
    --indent_;
    Line("}");
  }
  --indent_;
  Line("}");
}

void Emitter::EmitVertexFetch(const FetchInstruction& fetch) {
  if (!fetch.is_mini_fetch) {
    // Address of this vertex's element 0: stride * floor(index [+ 0.5]) + fetch constant base
    // (Xenia shader_interpreter.cc, vertex fetch). Mini fetches reuse the last full fetch's
    // constant and address.
    uint32_t constant = fetch.VertexFetchConstant();
    if (constant >= 96) {
      // const_index_sel 3 with const_index 31 names no fetch constant; wrap like the register
      // file's 96 vertex fetch constants.
      Note("vertex fetch constant " + std::to_string(constant) + " out of range; wrapped");
      constant %= 96;
    }
    reflection_.vertex_fetch_slots[constant / 32] |= 1u << (constant % 32);
    std::string index = TempRef(fetch.src_reg, fetch.src_rel) + "." + kComponents[fetch.src_swizzle & 3];
    Line("xe_vf_slot = " + std::to_string(constant) + "u;");
    Line("xe_vf_base = uint(int(" + std::to_string(fetch.stride) + ") * int(floor(" + index +
         (fetch.is_index_rounded ? " + 0.5" : "") + "))) + (xe_fetch_dword(" +
         std::to_string(constant * 2) + "u) >> 2u);");
  }
  if (fetch.format == 0) {
    Note("vertex fetch with format 0 (patched at run time by the title): returns zeros");
  }
  std::string value = GlslVertexFetchName(fetch.format) + "(xe_vf_slot, xe_vf_base + uint(" +
                      std::to_string(fetch.offset) + "), " +
                      (fetch.is_signed ? "true" : "false") + ", " +
                      (fetch.is_integer ? "false" : "true") + ", " +
                      (fetch.signed_rf_mode ? "true" : "false") + ", " +
                      std::to_string(fetch.exp_adjust) + ")";
  Line("vec4 xe_fetched = " + value + ";");
  StoreFetchResult(fetch, "xe_fetched");
}

// Per-instruction filter overrides, applied by the renderer to the slot's sampler.
void Emitter::RecordTextureFilters(const FetchInstruction& fetch, uint32_t slot) {
  uint32_t filters = (fetch.mag_filter & 3) | ((fetch.min_filter & 3) << 2) |
                     ((fetch.mip_filter & 3) << 4) | ((fetch.aniso_filter & 7) << 6);
  uint32_t& recorded = reflection_.texture_filters[slot];
  if (filters != kTextureFiltersKeep) {
    if (recorded == kTextureFiltersKeep) {
      recorded = filters;
    } else if (recorded != filters) {
      Note("texture slot " + std::to_string(slot) +
           " fetched with different per-instruction filters; the first fetch's are used");
    }
  }
}

// xe_ts: the size in texels (x, y, z) of texture slot `n` as a fetch of dimension `dim` samples
// it, for unnormalised coordinates, offsets and weights. A 3D fetch reads a volume when the fetch
// constant says 3D (xe_vol), else the stacked 2D array (the layer is z scaled by the stack depth).
void Emitter::EmitTextureSize(ucode::TextureDimension dim, const std::string& n) {
  const std::string tex2d = "xe_textures[" + n + "]";
  if (dim == ucode::TextureDimension::k3D) {
    Line("bool xe_vol = xe_texture_dimension(" + n + "u) == 2u;");
    Line("vec3 xe_ts = xe_vol ? vec3(textureSize(xe_textures_3d[" + n + "], 0)) : vec3(vec2(textureSize(" +
         tex2d + ", 0).xy), xe_texture_stack_depth(" + n + "u));");
  } else if (dim == ucode::TextureDimension::kCube) {
    Line("vec3 xe_ts = vec3(vec2(textureSize(xe_textures_cube[" + n + "], 0)), 1.0);");
  } else {
    Line("vec3 xe_ts = vec3(vec2(textureSize(" + tex2d + ", 0).xy), 1.0);");
  }
  // A scaled resolve copy: guest texels for coordinates, offsets and weights (gpu/resolution_scale.h).
  if (dim != ucode::TextureDimension::kCube) Line("xe_ts.xy /= xe_texture_scale(" + n + "u);");
}

// getWeights, getCompTexLOD, getGradients: the arithmetic of ucode/texture_queries.h
// (one definition with the cpu path's interpreter), every step `precise` so that nothing is fused
// or reordered. xe_tc is the source as swizzled, xe_ts the size (EmitTextureSize, already
// emitted).
void Emitter::EmitTextureQuery(const FetchInstruction& fetch) {
  const auto dim = fetch.dimension;
  const uint32_t axes = dim == ucode::TextureDimension::k1D ? 1 : dim == ucode::TextureDimension::k3D ? 3 : 2;
  switch (fetch.opcode) {
    case FetchOp::kGetTextureGradients:
      // Coarse derivatives (one pair per 2x2 quad, as the cpu path's quads give them), laid out
      // (d/dx x, d/dy x, d/dx y, d/dy y).
      // Per guest pixel at a resolution scale (xe_derivative_scale).
      if (pixel()) Line("vec2 xe_ds = xe_derivative_scale();");
      StoreFetchResult(fetch, pixel() ? "vec4(dFdxCoarse(xe_tc.x) * xe_ds.x, dFdyCoarse(xe_tc.x) * xe_ds.y, "
                                        "dFdxCoarse(xe_tc.y) * xe_ds.x, dFdyCoarse(xe_tc.y) * xe_ds.y)"
                                      : std::string("vec4(0.0)"));
      return;
    case FetchOp::kGetTextureWeights: {
      const int32_t offsets[3] = {fetch.offset_x, fetch.offset_y, fetch.offset_z};
      std::string out = "vec4(";
      for (uint32_t a = 0; a < 4; ++a) {
        const std::string c(1, kComponents[a]);
        if (a < axes) {
          Line("precise float xe_w" + c + " = xe_tc." + c + (fetch.tx_coord_denorm ? "" : " * xe_ts." + c) + ";");
          if (offsets[a]) Line("xe_w" + c + " = xe_w" + c + " + " + FloatLiteral(float(offsets[a]) * 0.5f) + ";");
          Line("xe_w" + c + " = xe_w" + c + " - 0.5;");
          // The filter's weight: 0 for an infinite or NaN coordinate (gpu::BilinearWeight),
          // tested on the bits so that no compiler folds it.
          Line("xe_w" + c + " = (floatBitsToUint(xe_w" + c + ") & 0x7F800000u) == 0x7F800000u ? 0.0 : xe_w" + c +
               " - floor(xe_w" + c + ");");
        }
        out += (a < axes ? "xe_w" + c : std::string("0.0")) + (a < 3 ? ", " : ")");
      }
      StoreFetchResult(fetch, out);
      return;
    }
    case FetchOp::kGetTextureComputedLod: {
      if (!pixel()) {
        StoreFetchResult(fetch, "vec4(0.0)");
        return;
      }
      // A volume's z counts; a stacked texture's layer does not (cpu TextureComputedLod).
      // Per guest pixel at a resolution scale, in the texels the level counts
      // (xe_derivative_scale, xe_lod_texel_scale).
      Line("precise vec3 xe_dx = dFdxCoarse(xe_tc) * xe_derivative_scale().x;");
      Line("precise vec3 xe_dy = dFdyCoarse(xe_tc) * xe_derivative_scale().y;");
      if (!fetch.tx_coord_denorm) {
        Line("precise vec3 xe_lod_ts = xe_ts * vec3(xe_lod_texel_scale(" + std::to_string(fetch.const_index & 31) +
             "u), 1.0);");
        Line("xe_dx = xe_dx * xe_lod_ts;");
        Line("xe_dy = xe_dy * xe_lod_ts;");
      }
      for (const char* d : {"dx", "dy"}) {
        const std::string v = std::string("xe_") + d;
        std::string sum = v + ".x * " + v + ".x";
        if (axes >= 2) sum = "(" + sum + ") + " + v + ".y * " + v + ".y";
        if (axes == 3) sum = "(" + sum + ") + (xe_vol ? " + v + ".z * " + v + ".z : 0.0)";
        Line("precise float xe_p" + std::string(d + 1) + " = " + sum + ";");
      }
      StoreFetchResult(fetch, "vec4(log2(max(sqrt(xe_px), sqrt(xe_py))), 0.0, 0.0, 0.0)");
      return;
    }
    default:
      Note("texture fetch op " + std::to_string(int(fetch.opcode)) + " is not known: zeros");
      StoreFetchResult(fetch, "vec4(0.0)");
      return;
  }
}

// A pixel shader's sample at the level its quad's derivatives give. At a resolution scale with
// guest-pixel derivatives the host's own would pick a finer level. Where the factor is the same
// on every axis (square scales) it shifts the level by its log2, which the host takes as a bias
// on its own implicit sample, footprint and anisotropy as at 1x; otherwise the quad's coarse
// derivatives times the scale, in guest texels, go through textureGrad (the bias as 2^bias).
// The conditions are uniform, so the implicit samples keep their derivatives, and at 1x nothing
// changes. `c` is the host coordinate; a 2D array's layer has no derivative.
std::string ImplicitLodSample(const std::string& sampler, const std::string& c, const std::string& n,
                              float bias, bool cube, bool volume) {
  const std::string implicit = "texture(" + sampler + ", " + c + ", " + FloatLiteral(bias) + ")";
  const std::string lod = "xe_host_lod_scale(" + n + "u)";
  const std::string corr = cube ? std::string("1.0") : volume ? "vec3(" + lod + ", 1.0)" : lod;
  const std::string coord = cube || volume ? c : "(" + c + ").xy";
  auto derivative = [&](const char* axis, const char* component) {
    std::string g = std::string("(dFd") + axis + "Coarse(" + coord + ") * (xe_derivative_scale()." +
                    component + " * " + corr + "))";
    if (bias != 0.0f) g = "(" + g + " * " + FloatLiteral(std::exp2(bias)) + ")";
    return g;
  };
  const std::string factor = cube ? std::string("xe_derivative_scale().x")
                                  : "xe_derivative_scale().x * " + lod + ".x";
  const std::string uniform =
      "xe_derivative_scale().x == xe_derivative_scale().y" +
      (cube ? std::string() : " && " + lod + ".x == " + lod + ".y" + (volume ? " && " + lod + ".x == 1.0" : ""));
  const std::string shifted =
      "texture(" + sampler + ", " + c + ", " + FloatLiteral(bias) + " + log2(" + factor + "))";
  return "(xe_derivative_scale() == vec2(1.0) ? " + implicit + " : (" + uniform + ") ? " + shifted +
         " : textureGrad(" + sampler + ", " + c + ", " + derivative("x", "x") + ", " +
         derivative("y", "y") + "))";
}

void Emitter::EmitTextureFetch(const FetchInstruction& fetch) {
  const uint32_t slot = fetch.const_index & 31;
  const std::string n = std::to_string(slot);
  // shader_interface.h: 1D/2D/stacked in xe_textures (2D arrays), cubes in xe_textures_cube,
  // volumes in xe_textures_3d.
  const std::string tex2d = "xe_textures[" + n + "]";
  const std::string cube = "xe_textures_cube[" + n + "]";
  const std::string tex3d = "xe_textures_3d[" + n + "]";
  std::string src = TempRef(fetch.src_reg, fetch.src_rel);
  // Texture source swizzle: 3 x 2 bits, absolute components.
  std::string coord = "vec3(";
  for (uint32_t c = 0; c < 3; ++c) {
    coord += src + "." + kComponents[(fetch.src_swizzle >> (2 * c)) & 3];
    coord += c < 2 ? ", " : ")";
  }
  Line("vec3 xe_tc = " + coord + ";");
  switch (fetch.opcode) {
    case FetchOp::kSetTextureLod:
      Line("xe_tex_lod = xe_tc.x;");
      return;
    case FetchOp::kSetTextureGradientsHorz:
      Line("xe_grad_h = xe_tc;");
      return;
    case FetchOp::kSetTextureGradientsVert:
      Line("xe_grad_v = xe_tc;");
      return;
    default:
      break;
  }
  reflection_.texture_slots |= 1u << slot;
  if (fetch.opcode == FetchOp::kGetTextureBorderColorFrac) {
    // Texel indices and level sizes only: no sampler, so no filters to record.
    EmitTextureSize(fetch.dimension, n);
    EmitBorderFraction(fetch, n);
    return;
  }
  RecordTextureFilters(fetch, slot);
  const auto dim = fetch.dimension;
  const bool is_1d = dim == ucode::TextureDimension::k1D;
  const bool is_3d = dim == ucode::TextureDimension::k3D;
  const bool is_cube = dim == ucode::TextureDimension::kCube;
  const bool sampled = fetch.opcode != FetchOp::kGetTextureBorderColorFrac &&
                       fetch.opcode != FetchOp::kGetTextureComputedLod &&
                       fetch.opcode != FetchOp::kGetTextureGradients &&
                       fetch.opcode != FetchOp::kGetTextureWeights;
  // Which fetches EmitExactTexel covers (a 3D one may read a volume, which it leaves).
  if (sampled && (!pixel() || is_1d || is_3d || is_cube || fetch.use_reg_lod || !fetch.use_comp_lod ||
                  fetch.use_reg_gradients)) {
    reflection_.texture_host_lod_slots |= 1u << slot;
  }
  EmitTextureSize(dim, n);
  std::string uv = is_1d ? "vec3(xe_tc.x, 0.5, 0.0)" : is_3d ? "xe_tc" : "vec3(xe_tc.xy, 0.0)";
  if (is_cube) uv = "xe_tc";
  Line("vec3 xe_uv = " + uv + ";");
  if (fetch.tx_coord_denorm && !is_cube) {
    // Unnormalised coordinates are in texels (Xenos tx_coord_denorm).
    Line(std::string("xe_uv.") + (is_1d ? "x" : is_3d ? "xyz" : "xy") + " /= xe_ts." +
         (is_1d ? "x" : is_3d ? "xyz" : "xy") + ";");
  }
  // The host sampler's coordinate for this dimension: a stack's layer as the texture unit picks
  // it (xe_layer), never the host's rounding of a layer coordinate.
  auto host_coord = [&](bool volume, const std::string& layer) -> std::string {
    if (is_cube) return "xe_cube_direction(xe_uv)";
    if (volume) return "xe_uv";
    if (is_3d) return "vec3(xe_uv.xy, float(" + layer + "))";
    return "vec3(xe_uv.xy, 0.0)";
  };
  if (fetch.opcode != FetchOp::kTextureFetch) {
    EmitTextureQuery(fetch);
    return;
  }
  if (is_3d) EmitStackLayers(fetch);
  if ((fetch.offset_x || fetch.offset_y || fetch.offset_z) && !is_cube) {
    // Offsets are in half texels (tfetch OffsetX/Y/Z).
    Line("xe_uv += vec3(" + std::to_string(fetch.offset_x) + ".0, " +
         std::to_string(fetch.offset_y) + ".0, " + std::to_string(is_3d ? fetch.offset_z : 0) +
         ".0) * 0.5 / xe_ts;");
  }
  const float bias = float(fetch.lod_bias) / 16.0f;
  // Which LOD: the register LOD (UseRegisterLOD), else the register gradients when the LOD is
  // computed (UseRegisterGradients), else the quad's derivatives in a pixel shader, else level 0
  // (UseComputedLOD=false, vertex shaders); the cpu path's TextureUnit::FetchExplicit takes the
  // same order. The host sampler adds the fetch constant's bias (mipLodBias) to all of them.
  const bool register_gradients = !fetch.use_reg_lod && fetch.use_comp_lod && fetch.use_reg_gradients;
  const bool explicit_lod =
      !register_gradients && (fetch.use_reg_lod || !fetch.use_comp_lod || !pixel());
  auto sample = [&](const std::string& sampler, bool volume, const std::string& layer = "xe_layer") {
    std::string c = host_coord(volume, layer);
    if (register_gradients) {
      // Register gradients are in the fetch's coordinate units (texels when unnormalised,
      // normalised by the size as Xenia does); textureGrad has no bias operand, so the
      // instruction's bias scales them by 2^bias.
      const std::string axes = is_1d ? "vec2(xe_grad_#.x, 0.0)"
                               : volume ? "xe_grad_#"
                               : is_cube ? "vec3(xe_grad_#.xy, 0.0)"
                                         : "xe_grad_#.xy";
      const std::string size = volume ? "xe_ts" : is_cube ? "vec3(1.0)" : "xe_ts.xy";
      auto gradient = [&](const char* which) {
        std::string g = axes;
        for (size_t at; (at = g.find('#')) != std::string::npos;) g.replace(at, 1, which);
        if (fetch.tx_coord_denorm && !is_cube) g = "(" + g + " / " + size + ")";
        // In guest texels where the replay counts the level in them (xe_host_lod_scale).
        if (!is_cube) {
          g = "(" + g + " * " + (volume ? "vec3(xe_host_lod_scale(" + n + "u), 1.0)"
                                        : "xe_host_lod_scale(" + n + "u)") + ")";
        }
        if (bias != 0.0f) g = "(" + g + " * " + FloatLiteral(std::exp2(bias)) + ")";
        return g;
      };
      return "textureGrad(" + sampler + ", " + c + ", " + gradient("h") + ", " + gradient("v") + ")";
    }
    if (explicit_lod) {
      return "textureLod(" + sampler + ", " + c + ", " +
             (fetch.use_reg_lod ? std::string("xe_tex_lod") : std::string("0.0")) + " + " +
             FloatLiteral(bias) + ")";
    }
    return ImplicitLodSample(sampler, c, n, bias, is_cube, volume);
  };
  std::string texel;
  if (is_3d) {
    // A stack's two layers are both sampled (the implicit derivatives need uniform control flow)
    // and blended as the cpu path blends them (xe_layer_blend, EmitStackLayers).
    texel = "(xe_vol ? " + sample(tex3d, true) + " : xe_layer_blend(" + sample(tex2d, false) + ", " +
            sample(tex2d, false, "xe_next_layer") + ", xe_layers_linear, xe_layer_t))";
  } else if (is_cube) {
    texel = sample(cube, false);
  } else {
    texel = sample(tex2d, false);
  }
  // The host sample stays unconditional (its implicit derivatives need uniform control flow).
  Line("vec4 xe_texel = " + texel + ";");
  if (is_3d && ((options_.volume_filter_slots >> slot) & 1u)) EmitVolumeFilter(fetch, n, bias);
  EmitExactTexel(fetch, n, bias);
  Line("xe_texel = xe_texture_swizzle(xe_texel, " + n + "u);");
  StoreFetchResult(fetch, "xe_texel");
}

// TextureUnit::FilterAt's layers of a stack for a 3D fetch: z in layers (x the stack depth when
// normalised) plus the instruction's z offset (half layers). The volume filter (the
// instruction's unless 2 or 3: the fetch constant's dword 4 bit 0 vol_mag, bit 1 vol_min) is
// vol_min's where z moves more than a layer a pixel along x or y (the quad's coarse derivatives
// or the register gradients; never with an explicit LOD or in a vertex shader), else vol_mag's.
// Linear: the layers around z - 1/2, each clamped to the stack, weighed by the fraction; point:
// floor(z) clamped; NaN the first layer. Every step exact or `precise`.
void Emitter::EmitStackLayers(const FetchInstruction& fetch) {
  Line(std::string("precise float xe_layer_z = xe_tc.z") + (fetch.tx_coord_denorm ? "" : " * xe_ts.z") +
       (fetch.offset_z ? " + " + FloatLiteral(float(fetch.offset_z) * 0.5f) : "") + ";");
  const bool register_gradients = !fetch.use_reg_lod && fetch.use_comp_lod && fetch.use_reg_gradients;
  const bool computed = pixel() && fetch.use_comp_lod && !fetch.use_reg_lod;
  std::string minified = "false";
  if (computed) {
    const std::string scale = fetch.tx_coord_denorm ? "" : " * xe_ts.z";
    // The quad's derivatives per guest pixel at a resolution scale (xe_derivative_scale).
    Line(std::string("precise float xe_layers_dx = abs(") +
         (register_gradients ? "xe_grad_h.z" : "dFdxCoarse(xe_tc.z) * xe_derivative_scale().x") + ")" + scale + ";");
    Line(std::string("precise float xe_layers_dy = abs(") +
         (register_gradients ? "xe_grad_v.z" : "dFdyCoarse(xe_tc.z) * xe_derivative_scale().y") + ")" + scale + ";");
    minified = "(xe_layers_dx > 1.0 || xe_layers_dy > 1.0)";
  }
  const std::string n = std::to_string(fetch.const_index & 31);
  Line("uint xe_vol_filters = xe_fetch_dword(" + n + "u * 6u + 4u);");
  Line("bool xe_layers_minified = " + minified + ";");
  auto filter = [&](uint32_t instruction, uint32_t bit) {
    return instruction < 2 ? std::string(instruction == 1 ? "true" : "false")
                           : "((xe_vol_filters & " + std::to_string(bit) + "u) != 0u)";
  };
  Line("bool xe_layers_linear = xe_layers_minified ? " + filter(fetch.vol_min_filter, 2) + " : " +
       filter(fetch.vol_mag_filter, 1) + ";");
  Line("precise float xe_layer_f = xe_layers_linear ? xe_layer_z - 0.5 : xe_layer_z;");
  Line("int xe_layer = isnan(xe_layer_f) ? 0 : int(clamp(floor(xe_layer_f), 0.0, xe_ts.z - 1.0));");
  Line("int xe_next_layer = isnan(xe_layer_f) ? 0 : int(clamp(floor(xe_layer_f) + 1.0, 0.0, xe_ts.z - 1.0));");
  // gpu::BilinearWeight: the fraction, 0 for a non-finite z (tested on the bits).
  Line("precise float xe_layer_t = (floatBitsToUint(xe_layer_f) & 0x7F800000u) == 0x7F800000u ? 0.0 : "
       "xe_layer_f - floor(xe_layer_f);");
}

// The texture unit filters a volume's slices with the vol_mag / vol_min filter and x and y with
// mag / min; the host's 3D sampler has one filter for all three. Where they differ at the texture
// unit's level of detail the shader filters the volume itself (xe_volume_sample, which decides
// that at run time from the instruction's filters and the fetch constant). Its level of detail
// is the cpu path's (TextureUnit::Sample / FetchExplicit): the register gradients, else in a
// pixel shader the quad's coarse derivatives per guest pixel, else a register LOD or level 0 plus
// the biases (UseRegisterLOD or not UseComputedLOD), else (a vertex shader's implicit fetch)
// lambda 0.
void Emitter::EmitVolumeFilter(const FetchInstruction& fetch, const std::string& n, float bias) {
  const bool register_gradients = !fetch.use_reg_lod && fetch.use_comp_lod && fetch.use_reg_gradients;
  const bool implicit = fetch.use_comp_lod && !fetch.use_reg_lod && !fetch.use_reg_gradients;
  std::string dx = "vec3(0.0)", dy = "vec3(0.0)";
  uint32_t lod = 1;
  if (register_gradients) {
    dx = "xe_grad_h", dy = "xe_grad_v", lod = 0;
  } else if (implicit && pixel()) {
    // Outside the volume's branch: derivatives need the quad's lanes together.
    Line("vec3 xe_vol_dx = dFdxCoarse(xe_tc) * xe_derivative_scale().x;");
    Line("vec3 xe_vol_dy = dFdyCoarse(xe_tc) * xe_derivative_scale().y;");
    dx = "xe_vol_dx", dy = "xe_vol_dy", lod = 0;
  } else if (implicit) {
    lod = 2;
  }
  const std::string filters = "uvec4(" + std::to_string(fetch.mag_filter & 3) + "u, " +
                              std::to_string(fetch.min_filter & 3) + "u, " +
                              std::to_string(fetch.vol_mag_filter & 3) + "u, " +
                              std::to_string(fetch.vol_min_filter & 3) + "u)";
  Line("if (xe_vol) xe_volume_sample(xe_textures_3d[" + n + "], " + n + "u, xe_uv, " + dx + ", " + dy + ", " +
       (fetch.tx_coord_denorm ? "true" : "false") + ", " + std::to_string(lod) + "u, " +
       (fetch.use_reg_lod ? "xe_tex_lod" : "0.0") + ", " + FloatLiteral(bias) + ", " + filters + ", " +
       std::to_string(fetch.mip_filter & 3) + "u, " + std::to_string(fetch.aniso_filter & 7) + "u, xe_texel);");
}

void Emitter::EmitExactTexel(const FetchInstruction& fetch, const std::string& n, float bias) {
  const auto dim = fetch.dimension;
  if (!pixel() || dim == ucode::TextureDimension::kCube) return;
  const bool is_3d = dim == ucode::TextureDimension::k3D;
  const bool is_1d = dim == ucode::TextureDimension::k1D;
  // A 1D texture is one row of the 2D array: the texture unit reads it at v = 0.5 whatever the
  // instruction's y offset (TextureUnit FilterAt), fetch constant dimension 0.
  const std::string uv = is_1d ? "vec2(xe_uv.x, 0.5)" : "xe_uv.xy";
  const std::string dimension = is_1d ? "0u, " : "1u, ";
  const std::string tex2d = "xe_textures[" + n + "]";
  // A call `call` with # the layer: layer 0, or a stack's layers as the cpu path picks and blends
  // them (EmitStackLayers).
  auto layers = [&](const std::string& call) {
    auto at = [&](const std::string& layer) {
      std::string c = call;
      c.replace(c.find('#'), 1, layer);
      return c;
    };
    if (!is_3d) return at("0");
    return "xe_layer_blend(" + at("xe_layer") + ", " + at("xe_next_layer") + ", xe_layers_linear, xe_layer_t)";
  };
  const std::string filters = std::to_string(fetch.mag_filter & 3) + "u, " +
                              std::to_string(fetch.min_filter & 3) + "u, " +
                              std::to_string(fetch.aniso_filter & 7) + "u";
  const std::string levels = "textureQueryLevels(" + tex2d + ")";
  const std::string not_volume = is_3d ? "!xe_vol && " : "";
  // Point sampling: the texel the hardware's fixed-point coordinate names (gpu/
  // texel_coordinate.h), with the cpu path's level-of-detail decision, on both Vulkan paths;
  // where the LOD comes from a register or is not computed (level 0) the host keeps it.
  if (fetch.use_comp_lod && !fetch.use_reg_lod && !fetch.use_reg_gradients) {
    Line("bool xe_magnified = xe_texel_magnified(" + n + "u, " + uv + ", vec2(textureSize(" + tex2d +
         ", 0).xy), " + std::to_string(fetch.mip_filter & 3) + "u, " + FloatLiteral(bias) + ");");
    Line("if (" + not_volume + "xe_point_applies(" + n + "u, " + dimension + filters +
         ", xe_magnified, " + levels + ")) {");
    Line("  xe_texel = " + layers("xe_point_texel(" + tex2d + ", " + n + "u, " + uv + ", #)") + ";");
    Line("}");
  } else {
    // A register LOD or gradients, or level 0: with one level and point filters both ways the
    // texture unit takes the level-0 point texel whatever the LOD (TextureUnit FetchExplicit),
    // so the shader picks it as above instead of the host's floor of the float coordinate.
    Line("if (" + not_volume + "xe_point_applies(" + n + "u, " + dimension + filters + ", true, " + levels +
         ") && xe_point_applies(" + n + "u, " + dimension + filters + ", false, " + levels + ")) {");
    Line("  xe_texel = " + layers("xe_point_texel(" + tex2d + ", " + n + "u, " + uv + ", #)") + ";");
    Line("}");
  }
  // Bilinear at the only level, only where every step before the filter is exact too: a
  // texel-unit coordinate or a half-texel offset goes through a division (xe_uv / xe_ts), which
  // Vulkan lets a driver do within 2.5 ULP (NVIDIA multiplies by a reciprocal) while the cpu path
  // divides as IEEE does. Those fetches keep the host sampler.
  const bool exact_inputs = !fetch.tx_coord_denorm && !fetch.offset_x && !fetch.offset_y &&
                            !fetch.offset_z;
  if (options_.exact_bilinear && exact_inputs && !is_1d) {
    Line("if (" + not_volume + "xe_exact_bilinear_applies(" + n + "u, " + filters + ", " + levels +
         ")) {");
    Line("  xe_texel = " + layers("xe_exact_bilinear(" + tex2d + ", " + n + "u, xe_uv.xy, #)") + ";");
    Line("}");
  }
}

}  // namespace xnt::vk::glsl_detail
