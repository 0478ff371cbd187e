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
//   anisotropic fetch the parallelogram its derivatives span (+-ddx/2 +-ddy/2), and a cube
//   face's footprint must stay inside the face (the host's seamless filter reads the next face
//   at its edge, where the model clamps).
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
// 7 in a volume). A footprint with a non-finite texel or one above 2^100 (whose weighted sum may
// overflow), a coordinate beyond 2^20 texels or not finite, over 4,096 texels, or a cube
// footprint reaching its face's edge gives no bound, nor does an anisotropic footprint without
// area (a 1D fetch, zero or parallel derivatives: lavapipe's filter returned NaN for finite
// texels there, its minor axis 0): infinite ends; an export whose
// end stays infinite is not compared (a saturate, for one, still bounds it to [0, 1]).
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

// The rule's text for a bounded component (report and disagreement).
inline constexpr const char* kBoundRule =
    "within the host filter's bound (the footprint texels' range and the weight error)";
// Why a bounded component of a lane was not compared.
inline constexpr const char* kNoBound =
    "host sampler: a filtered footprint without a bound (a non-finite or huge texel, a coordinate "
    "beyond 2^20 texels, over 4,096 texels to read, a cube footprint reaching its face's edge, or an "
    "anisotropic footprint without area)";

}  // namespace xnt::vk::check
