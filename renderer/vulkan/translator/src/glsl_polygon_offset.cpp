// The cpu path's sample depths and polygon offset in GLSL (see glsl_polygon_offset.h).
//
// Why: the slope max(|dz/dx|, |dz/dy|) taken from derivatives of gl_FragCoord.z is the
// difference of two interpolated depths near 0.5, whose rounding (a 2^-25 error on a difference
// of about 1/256) is amplified by the slope factor: on NVIDIA it moved raster_polygon_offset_
// decals' 24-bit depths by 1-2 steps. The cpu path (renderer/cpu/src/rasterizer.cpp) computes the
// slope once per triangle in double from its snapped window-space vertices, and adds the offset
// to each sample depth in double (OffsetDepth); this file redoes exactly those operations. The
// sample depths themselves are the host's gl_FragCoord.z otherwise, a plane the driver sets up
// in float and interpolates otherwise than the cpu path's double arithmetic: redone here too.
//
// Exactness rests on double addition, subtraction and multiplication being correctly rounded
// (IEEE on NVIDIA and llvmpipe; Vulkan itself only promises single precision for doubles) and on
// `precise` (no fused multiply-add; the C++ build emits none). Division is not trusted (Vulkan
// allows 2.5 ulp; a GPU may use a reciprocal): each quotient is corrected to the one whose exact
// residual a - q * b (Dekker's product, 27-bit halves) is smallest; the quotient of two doubles
// never lies exactly halfway between two doubles, so there is no tie.
#include "glsl_polygon_offset.h"
#include "glsl_prelude.h"

#include <bit>
#include <cstdint>

#include "xnt/vk/translator/shader_interface.h"

namespace xnt::vk {

namespace {

const char kExactPolygonOffset[] = R"GLSL(
// Dekker: a * b - p exactly (p = a * b rounded), from the 26-bit halves of a Veltkamp split.
double xe_om_product_error(double a, double b, double p) {
  precise double ca = 134217729.0lf * a;
  precise double ah = ca - (ca - a);
  precise double al = a - ah;
  precise double cb = 134217729.0lf * b;
  precise double bh = cb - (cb - b);
  precise double bl = b - bh;
  precise double e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  return e;
}
// |a - q * b|: a - p is exact (Sterbenz) while q is within a few ulp of a / b.
double xe_om_residual_d(double a, double b, double q) {
  precise double p = q * b;
  precise double r = (a - p) - xe_om_product_error(q, b, p);
  return abs(r);
}
// The next double of larger (up) or smaller magnitude.
double xe_om_step_d(double q, bool up) {
  uvec2 u = unpackDouble2x32(q);
  if (up) {
    u.x += 1u;
    if (u.x == 0u) u.y += 1u;
  } else {
    if (u.x == 0u) u.y -= 1u;
    u.x -= 1u;
  }
  return packDouble2x32(u);
}
// a / b rounded to nearest (the C++ quotient) for finite nonzero a and b.
double xe_om_div_d(double a, double b) {
  precise double q = a / b;
  if (a == 0.0lf || b == 0.0lf || ((unpackDouble2x32(q).y >> 20) & 0x7FFu) == 0x7FFu ||
      q == 0.0lf) {
    return q;
  }
  for (int i = 0; i < 4; ++i) {
    double up = xe_om_step_d(q, true), dn = xe_om_step_d(q, false);
    double r = xe_om_residual_d(a, b, q);
    if (xe_om_residual_d(a, b, up) < r) {
      q = up;
    } else if (xe_om_residual_d(a, b, dn) < r) {
      q = dn;
    } else {
      break;
    }
  }
  return q;
}
// std::llround: half away from zero (v - trunc(v) is exact).
double xe_om_llround(double v) {
  precise double t = trunc(v);
  precise double f = v - t;
  if (abs(f) >= 0.5lf) t = t + (v < 0.0lf ? -1.0lf : 1.0lf);
  return t;
}
// A vertex as the cpu path has it after VertexStage::Transform (vertex_stage.cpp: the
// PA_CL_VTE_CNTL formats undone in double, the screen transform, the resolution scale): its
// ClipVertex::pos, x and y in host pixels times w.
dvec4 xe_om_clip_position(vec4 r) {
  precise double x = double(r.x);
  precise double y = double(r.y);
  precise double z = double(r.z);
  precise double w = double(r.w);
  if ((xe_system.flags & kXeSysFlagWNotReciprocal) == 0u) w = xe_om_div_d(1.0lf, w);
  if ((xe_system.flags & kXeSysFlagXyDividedByW) != 0u) {
    x = x * w;
    y = y * w;
  }
  if ((xe_system.flags & kXeSysFlagZDividedByW) != 0u) z = z * w;
  vec2 scale = xe_resolution_scale();
  precise double px = (x * double(xe_system.depth_screen_scale.x) + double(xe_system.depth_screen_offset.x) * w) *
                      double(scale.x);
  precise double py = (y * double(xe_system.depth_screen_scale.y) + double(xe_system.depth_screen_offset.y) * w) *
                      double(scale.y);
  precise double pz = z * double(xe_system.depth_screen_scale.z) + double(xe_system.depth_screen_offset.z) * w;
  return dvec4(px, py, pz, w);
}
// clipper.cpp ClipTriangle's test of one vertex against its seven planes (Distance >= 0): a
// triangle with a vertex outside is clipped there, and the sub-triangles' snapped vertices give
// other roundings, so the exact plane below is taken only for triangles wholly inside.
bool xe_om_clip_inside(dvec4 p) {
  precise double d0 = p.w - XE_OM_CLIP_W_EPSILON * abs(p.w) - XE_OM_CLIP_W_MIN;
  precise double dz = p.w - p.z;
  precise double gw = 32768.0lf * p.w;  // kGuardBandPixels (geometry.h)
  precise double dx0 = p.x + gw;
  precise double dx1 = gw - p.x;
  precise double dy0 = p.y + gw;
  precise double dy1 = gw - p.y;
  // clip_disable (kXeSysDepthClamp): the depth planes are not clipped against.
  bool depth_in = (xe_system.depth_flags.x & 64u) != 0u || (p.z >= 0.0lf && dz >= 0.0lf);
  return d0 >= 0.0lf && depth_in && dx0 >= 0.0lf && dx1 >= 0.0lf && dy0 >= 0.0lf &&
         dy1 >= 0.0lf;
}
// Snap (rasterizer.cpp): x, y in 1/256 pixel (integral), z the depth z/w.
dvec3 xe_om_snap_clip(dvec4 c) {
  double inv_w = xe_om_div_d(1.0lf, c.w);
  precise double sx = c.x * inv_w * 256.0lf;
  precise double sy = c.y * inv_w * 256.0lf;
  precise double sz = c.z * inv_w;
  return dvec3(xe_om_llround(sx), xe_om_llround(sy), sz);
}
dvec3 xe_om_snap(vec4 r) { return xe_om_snap_clip(xe_om_clip_position(r)); }
// The cpu path's depth of each guest sample of host pixel `pixel` (RasterizeTriangle's cover_at,
// before the offset): the edge functions of the snapped vertices at the sample, in 1/256 pixel,
// as barycentric weights, float((w0 z0 + w1 z1 + w2 z2) / area) in double, the vertices in the
// cpu path's order (2 and 1 swapped for the other winding: the sum's rounding depends on it).
// The edge functions are integers below 2^50 (the guard band keeps coordinates below 2^24
// sub-pixels), exact in double as in the cpu path's int64. False where the cpu path would clip the
// triangle or draws nothing (zero area): the caller keeps the host's plane there.
bool xe_om_exact_depths(uvec2 pixel, uint n, out vec4 z) {
  z = vec4(0.0);
  dvec4 c0 = xe_om_clip_position(xe_vs_position[0]);
  dvec4 c1 = xe_om_clip_position(xe_vs_position[1]);
  dvec4 c2 = xe_om_clip_position(xe_vs_position[2]);
  if (!xe_om_clip_inside(c0) || !xe_om_clip_inside(c1) || !xe_om_clip_inside(c2)) return false;
  dvec3 s0 = xe_om_snap_clip(c0);
  dvec3 s1 = xe_om_snap_clip(c1);
  dvec3 s2 = xe_om_snap_clip(c2);
  precise double area = (s1.x - s0.x) * (s2.y - s0.y) - (s1.y - s0.y) * (s2.x - s0.x);
  if (area == 0.0lf) return false;
  if (area < 0.0lf) {
    dvec3 t = s1;
    s1 = s2;
    s2 = t;
  }
  double abs_area = abs(area);
  for (uint s = 0u; s < 4u; ++s) {
    // SamplePositions (rasterizer.cpp), in 1/256 of a host pixel.
    dvec2 pos = dvec2(128.0lf);
    if (n == 2u) pos = s == 0u ? dvec2(64.0lf) : dvec2(192.0lf);
    if (n == 4u) {
      pos = s == 0u ? dvec2(96.0lf, 32.0lf) : (s == 1u ? dvec2(224.0lf, 96.0lf) :
            (s == 2u ? dvec2(32.0lf, 160.0lf) : dvec2(160.0lf, 224.0lf)));
    }
    precise double px = double(pixel.x) * 256.0lf + pos.x;
    precise double py = double(pixel.y) * 256.0lf + pos.y;
    // Edge i runs from vertex i + 1 to vertex i + 2 (rasterizer.cpp Edge).
    precise double w0 = (s2.x - s1.x) * (py - s1.y) - (s2.y - s1.y) * (px - s1.x);
    precise double w1 = (s0.x - s2.x) * (py - s2.y) - (s0.y - s2.y) * (px - s2.x);
    precise double w2 = (s1.x - s0.x) * (py - s0.y) - (s1.y - s0.y) * (px - s0.x);
    precise double sum = w0 * s0.z + w1 * s1.z;
    precise double total = sum + w2 * s2.z;
    z[s] = float(xe_om_div_d(total, abs_area));
  }
  return true;
}
// RasterizeTriangle's offset: the slope of the plane through the snapped vertices,
// max(|dz/dx|, |dz/dy|) per pixel (a guest pixel unless derivatives are per host pixel), times
// SCALE / 16, plus the constant term (for 20e4 times r = 2^(e - 23), e the exponent of the
// largest |z|: gpu/polygon_offset.cpp). The vertex order is the draw's (a geometry shader
// receives a triangle list's vertices in list order); the cpu path's swap of vertices 1 and 2
// for the other winding negates both numerator and determinant, exactly.
double xe_om_triangle_offset(bool front) {
  double slope_factor = double(front ? xe_system.depth_offsets.x : xe_system.depth_offsets.y);
  double constant = double(front ? xe_system.depth_offsets.z : xe_system.depth_offsets.w);
  if (slope_factor == 0.0lf && constant == 0.0lf) return 0.0lf;
  dvec3 s0 = xe_om_snap(xe_vs_position[0]);
  dvec3 s1 = xe_om_snap(xe_vs_position[1]);
  dvec3 s2 = xe_om_snap(xe_vs_position[2]);
  precise double x10 = (s1.x - s0.x) * 0.00390625lf;
  precise double y10 = (s1.y - s0.y) * 0.00390625lf;
  precise double x20 = (s2.x - s0.x) * 0.00390625lf;
  precise double y20 = (s2.y - s0.y) * 0.00390625lf;
  precise double z10 = s1.z - s0.z;
  precise double z20 = s2.z - s0.z;
  precise double det = x10 * y20 - x20 * y10;
  if (det == 0.0lf) return 0.0lf;  // the cpu path rasterizes nothing then
  precise double nx = z10 * y20 - z20 * y10;
  precise double ny = x10 * z20 - x20 * z10;
  // Per guest pixel at a resolution scale (xe_derivative_scale), as the cpu path's slope.
  vec2 xe_slope_scale = xe_derivative_scale();
  double ax = abs(xe_om_div_d(nx, det)) * double(xe_slope_scale.x);
  double ay = abs(xe_om_div_d(ny, det)) * double(xe_slope_scale.y);
  double slope = ax < ay ? ay : ax;
  if ((xe_system.depth_flags.x & 32u) != 0u && constant != 0.0lf) {
    double max_z = abs(s0.z);
    if (max_z < abs(s1.z)) max_z = abs(s1.z);
    if (max_z < abs(s2.z)) max_z = abs(s2.z);
    double least = ldexp(1.0lf, -126);  // the smallest normal float (MinimumResolvableDifference)
    if (max_z < least) max_z = least;
    int e = int((unpackDouble2x32(max_z).y >> 20) & 0x7FFu) - 1023;
    constant = constant * ldexp(1.0lf, e - 23);
  }
  precise double offset = slope * slope_factor + constant;
  return offset;
}
)GLSL";

// The guest depth encodings (renderer/gpu/src/edram.cpp PackDepth, Float32To20e4,
// Float20e4To32), operation for operation on integers, so every driver gets the cpu path's bits.
const char kGuestDepthEncoding[] = R"GLSL(
// PackDepth's `!(f > 0)`: NaN, zeros and negative depths store 0 (from the bits: a driver
// without SignedZeroInfNanPreserve may fold ordered comparisons with NaN).
bool xe_depth_positive(float f) {
  uint u = floatBitsToUint(f);
  return u != 0u && u <= 0x7F800000u;
}
uint xe_depth_to_20e4(float f) {
  if (!xe_depth_positive(f)) return 0u;
  uint u = min(floatBitsToUint(f), 0x3FFFFFF8u);
  if (u < 0x38800000u) {
    uint shift = 113u - (u >> 23);
    u = shift < 24u ? (0x800000u | (u & 0x7FFFFFu)) >> shift : 0u;
  } else {
    u += 0xC8000000u;
  }
  return ((u + 3u + ((u >> 3) & 1u)) >> 3) & 0xFFFFFFu;
}
// round(d * (2^24 - 1)) for d in (0, 1) exactly, as the C++ does in double.
uint xe_depth_to_unorm24(float d) {
  if (!xe_depth_positive(d)) return 0u;
  if (d >= 1.0) return 0xFFFFFFu;
  uint u = floatBitsToUint(d);
  uint e = u >> 23, m = u & 0x7FFFFFu;
  if (e == 0u) {
    e = 1u;
  } else {
    m |= 0x800000u;
  }
  uint shift = 150u - e;  // d = m * 2^-shift, shift >= 24
  if (shift >= 49u) return 0u;
  uint hi, lo, carry;
  umulExtended(m, 0xFFFFFFu, hi, lo);
  uint s1 = shift - 1u;
  if (s1 < 32u) {
    lo = uaddCarry(lo, 1u << s1, carry);
    hi += carry;
  } else {
    hi += 1u << (s1 - 32u);
  }
  if (shift < 32u) return (lo >> shift) | (hi << (32u - shift));
  return hi >> (shift - 32u);
}
// An unsigned float of `mbits` mantissa bits (no sign, infinities or NaNs) in float32, its
// denormals made normal; `rebias`: 127 minus its exponent bias (edram.cpp SmallFloatTo32).
float xe_small_float_to_32(uint v, uint mbits, uint rebias) {
  if (v == 0u) return 0.0;
  uint mask = (1u << mbits) - 1u;
  uint m = v & mask, e = v >> mbits;
  if (e == 0u) {
    uint lz = mbits - uint(findMSB(m));
    e = 1u - lz;  // wraps for lz > 1; the sum below wraps back
    m = (m << lz) & mask;
  }
  return uintBitsToFloat(((e + rebias) << 23) | (m << (23u - mbits)));
}
// A 20e4 value is a float32 exactly (20 mantissa bits, exponents within float32's normals).
float xe_depth_from_20e4(uint v) { return xe_small_float_to_32(v & 0xFFFFFFu, 20u, 112u); }
// d / (2^24 - 1) rounded to the nearest float: d * 2^-24 is exact and the rest,
// d * 2^-48 / (1 - 2^-24), lies in (0.5, 1] ulp of it, so the nearest float is the next one up.
// It is at or above the quotient, so a host D24 store (f * (2^24 - 1) rounded or truncated)
// gives d back, and a float host depth holds a value that orders as d does.
float xe_depth_from_unorm24(uint d) {
  if (d == 0u) return 0.0;
  return uintBitsToFloat(floatBitsToUint(float(d) * (1.0 / 16777216.0)) + 1u);
}
)GLSL";

// A one-sample host depth written by the pixel shader (the fbo path): the cpu path's depth of
// the pixel's sample, already in the guest format, so the host's depth test compares what the
// hardware compares and the host depth buffer holds the guest's values.
const char kExactFragmentDepth[] = R"GLSL(
// The value the guest's depth buffer stores for sample depth z, as a host depth holds it.
float xe_depth_stored(float z) {
  if ((xe_system.depth_flags.x & 32u) != 0u) return xe_depth_from_20e4(xe_depth_to_20e4(z));
  return xe_depth_from_unorm24(xe_depth_to_unorm24(z));
}
float xe_exact_fragment_depth(float frag_z, bool written, float shader_z) {
  float z = shader_z;
  if (!written) {
    vec4 exact_z;
    z = xe_om_exact_depths(uvec2(gl_FragCoord.xy), 1u, exact_z) ? exact_z.x : frag_z;
    // cpu OffsetDepth: float(clamp(double(z) + bias, 0, 1)) with the triangle's double bias.
    double offset = xe_om_triangle_offset(gl_FrontFacing);
    if (offset != 0.0lf) {
      precise double biased = double(z) + offset;
      z = float(biased < 0.0lf ? 0.0lf : (1.0lf < biased ? 1.0lf : biased));
    }
  }
  // clip_disable: the cpu path's clamp of every depth, oDepth included (std::clamp: NaN stays).
  if ((xe_system.depth_flags.x & 64u) != 0u) z = z < 0.0 ? 0.0 : (z > 1.0 ? 1.0 : z);
  return xe_depth_stored(z);
}
)GLSL";

// A double as GLSL rebuilds it from its bits: the C++ literal's rounding, not the GLSL compiler's.
std::string DoubleBits(double d) {
  const uint64_t u = std::bit_cast<uint64_t>(d);
  return "packDouble2x32(uvec2(" + std::to_string(uint32_t(u)) + "u, " +
         std::to_string(uint32_t(u >> 32)) + "u))";
}

}  // namespace

std::string GlslExactPolygonOffset() {
  // clipper.cpp Distance's w > 0 plane: w - 1e-9 |w| - 1e-30.
  return "#define XE_OM_CLIP_W_EPSILON " + DoubleBits(1e-9) + "\n#define XE_OM_CLIP_W_MIN " +
         DoubleBits(1e-30) + "\n" + kExactPolygonOffset;
}

std::string GlslGuestDepthEncoding() { return kGuestDepthEncoding; }

std::string GlslExactFragmentDepth() {
  return GlslExactPolygonOffset() + GlslGuestDepthEncoding() + kExactFragmentDepth;
}

std::string GlslExactDepthFragmentShader() {
  // Depth-only draws (no pixel shader): the system constants and the flat triangle positions.
  return "#version 450\n" + GlslSystemConstants() + "layout(location = " +
         std::to_string(kXeTrianglePositionsLocation) + ") flat in vec4 xe_vs_position[3];\n" +
         GlslExactFragmentDepth() +
         "void main() { gl_FragDepth = xe_exact_fragment_depth(gl_FragCoord.z, false, 0.0); }\n";
}

std::string GlslPolygonOffsetGeometryShader(uint32_t passed_interpolators,
                                            uint32_t clip_distances, uint32_t cull_distances) {
  const std::string n = std::to_string(passed_interpolators < 1 ? 1 : passed_interpolators);
  // The position right after them: the highest input location is what newer validation layers
  // count against maxGeometryInputComponents, with gl_PerVertex's components.
  const std::string in_location = n;
  const std::string out_location = std::to_string(kXeTrianglePositionsLocation);
  // The vertices leave in the order they came, so winding, facing, the rasterized triangle and
  // every interpolated value are the vertex shader's own.
  return "#version 450\n"
         "layout(triangles) in;\n"
         "layout(triangle_strip, max_vertices = 3) out;\n"
         "layout(location = 0) in vec4 xe_in[][" + n + "];\n"
         "layout(location = " + in_location + ") in vec4 xe_position_in[];\n"
         "layout(location = 0) out vec4 xe_interpolators[16];\n"
         "layout(location = " + out_location + ") flat out vec4 xe_vs_position[3];\n" +
         GlslGeometryDistances(clip_distances, cull_distances) +
         "void main() {\n"
         "  for (int v = 0; v < 3; ++v) {\n"
         "    gl_Position = gl_in[v].gl_Position;\n"
         "    XeDistances(v);\n"
         "    for (int i = 0; i < 16; ++i) xe_interpolators[i] = i < " + n + " ? xe_in[v][min(i, " + n + " - 1)] : vec4(0.0);\n"
         "    for (int k = 0; k < 3; ++k) xe_vs_position[k] = xe_position_in[k];\n"
         "    EmitVertex();\n"
         "  }\n"
         "  EndPrimitive();\n"
         "}\n";
}

}  // namespace xnt::vk
