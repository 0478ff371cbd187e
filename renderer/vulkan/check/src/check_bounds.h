// translate --check: the interval a host-filtered texel lies in (check_rules.h Value::bounded).
//
// Vulkan leaves a linear filter's weights to the implementation within subTexelPrecisionBits, so
// the host's bilinear texel is not the texture unit's bit for bit. Two rules bound it all the
// same, both from the texture unit model (the cpu path's TextureUnit behind the interpreter's
// callbacks):
// - Range: a linear filter's weights are non-negative and sum to 1, so its result lies between
//   the smallest and the largest texel of its footprint. The host's 2 (1D) or 2x2 (2D) footprint
//   starts at floor(x - 1/2) of its float coordinate x, which is within 2^-9 texel of the
//   hardware's fixed-point one, so it lies inside the 3 (3x3) texels around the model's
//   floor(x), which the model point-samples at their centres (the fetch constant's clamp modes
//   and border colour applied as for any texel). A nearest texel, where the host picks point
//   filtering by its own LOD, is one of them too. Every level of the sampler's LOD range counts,
//   a volume adds its third axis, a stack the layers either side of the coordinate's, an
//   anisotropic fetch the parallelogram its derivatives span (+-ddx/2 +-ddy/2). A cube face's
//   footprint past the face's edge, where the model clamps and the host's seamless filter reads
//   the next face, adds the texels across the edge: each outside texel's centre, on the face's
//   plane extended, is a direction whose major axis names the next face (Vulkan's face table,
//   the one the translator samples with), and that texel with its 8 neighbours there counts
//   (those past that face's own edge taken on the third face; at a corner, the neighbourhoods
//   across both edges as well: Vulkan lets an implementation average the three faces' texels
//   there). A footprint more than 2 texels past the edge has no bound: the host samples another
//   face around a point of its own there.
// - Weight error: where one level and one layer are read without anisotropy, and magnification
//   and minification both filter linearly (no LOD decides between a point and a linear
//   result), each axis's weight is the coordinate's fraction, the
//   host's quantized to subTexelPrecisionBits (one step, 2^-bits) and the model's exact up to the
//   float rounding of the coordinate (2 ulp of x). The bilinear interpolant moves by at most the
//   footprint's range per texel along an axis, so the two results differ by at most
//   sum over axes of (2^-bits + 2 ulp(x)) times that range. Only for components whose texel
//   conversion is affine (unsigned, signed, biased, exp_adjust): PWL gamma keeps the range alone.
// Each lerp of the host's and of the model's filter rounds (a difference, a product and a sum:
// 1.5 ulp of the largest |texel|), which widens both bounds by 3 ulp per lerp (1 in 1D, 3 in 2D,
// 7 in a volume). The weight error is not used for a footprint past a cube face's edge, whose
// host texels are not the model's. A component that is not finite or above 2^100 (whose
// weighted sum may overflow) in one of the footprint's texels has no bound (the other components
// keep theirs: each is filtered on its own); a coordinate beyond 2^20 texels or not finite, or
// over 16,384 texels to read, gives no bound to any component, nor does an anisotropic
// footprint without area (a 1D fetch, zero or parallel derivatives: lavapipe's filter returned
// NaN for finite texels there, its minor axis 0): infinite ends; an export whose end stays
// infinite is not compared (a saturate, for one, still bounds it to [0, 1]).
#pragma once

#include <cstdint>
#include <functional>

#include "check_rules.h"
#include "xnt/ucode/interpreter.h"

namespace xnt::vk::check {

// `exact`'s callbacks with every fetch that `rule` marks bounded answered by the low (`high`
// false) or the high end of its interval, per component; other fetches as `exact` answers them.
// Running the interpreter once with each bounds every export carried only through monotone
// non-decreasing ops (Value::bounded). `exact` must outlive the result.
ucode::InterpreterCallbacks BoundCallbacks(const ucode::InterpreterCallbacks& exact, const uint32_t* fetch_constants,
                                           std::function<Value(const ucode::FetchInstruction&)> rule,
                                           uint32_t sub_texel_bits, bool high);

// A texel index (i, j) of cube face `face` (0 +X, 1 -X, 2 +Y, 3 -Y, 4 +Z, 5 -Z) at a level `size`
// texels square: outside the face (either index outside [0, size)), the texel a host's seamless
// filter reads there; inside, the texel itself. The texel's centre on the face's plane extended
// past its edge is a direction (Vulkan's face table, which the translator's xe_cube_direction
// follows: +X sc = -z, tc = -y; -X sc = z, tc = -y; +Y sc = x, tc = z; -Y sc = x, tc = -z;
// +Z sc = x, tc = -y; -Z sc = -x, tc = -y), whose major axis names the face across the edge and
// whose coordinates there the texel (clamped into that face).
struct FaceTexel {
  int32_t face;
  int64_t i, j;
};
FaceTexel CubeTexelAcrossEdge(int32_t face, int64_t i, int64_t j, int64_t size);

// The rule's text for a bounded component (report and disagreement).
inline constexpr const char* kBoundRule =
    "within the host filter's bound (the footprint texels' range and the weight error)";
// Why a bounded component of a lane was not compared.
inline constexpr const char* kNoBound =
    "host sampler: a filtered footprint without a bound (a non-finite or huge texel, a coordinate "
    "beyond 2^20 texels, over 16,384 texels to read, or an anisotropic footprint without area)";

}  // namespace xnt::vk::check
