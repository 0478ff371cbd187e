// The comparison rule of each export, from a static, flow-insensitive data-flow pass over the
// microcode (translate_check.h): which exports can only carry exactly rounded results, which are
// a result of an op of undefined host precision (moved, negated, clamped or max/min'ed at most),
// and which depend on such a result through further arithmetic, a predicate, a0, a kill or an op
// the interpreter does not model. Conservative: a register written anywhere by an imprecise op
// counts as imprecise everywhere.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "xnt/ucode/ucode.h"

namespace xnt::vk::check {

// Ops whose precision the Vulkan spec leaves to the implementation (bits of Value::approx).
enum Approx : uint32_t {
  kApproxExp = 1u << 0,   // exp2: 3 + 2|x| ulp
  kApproxLog = 1u << 1,   // log2: 3 ulp outside [0.5, 2], 2^-21 absolute inside
  kApproxRcp = 1u << 2,   // 1/x: 2.5 ulp
  kApproxRsq = 1u << 3,   // inversesqrt: 2 ulp
  kApproxSqrt = 1u << 4,  // sqrt: as 1/inversesqrt
  kApproxSin = 1u << 5,   // sin/cos: 2^-11 absolute (inside [-pi, pi])
  kApproxLod = 1u << 6,   // getCompTexLOD: log2 of the longer sqrt'ed footprint, 2^-18 absolute
};

struct Value {
  uint32_t approx = 0;  // Approx bits that may reach it; 0 = exactly rounded
  bool opaque = false;  // not comparable
  std::string why;      // for opaque: the first reason
  // Quads: a texel the translated shader picks exactly only where it magnifies, which each side
  // decides from its own log2 of the quad's derivatives: compared on the lanes whose lambda is
  // clearly below 0 (check_quads.h LodLanes), not on the others.
  bool per_lane = false;
  // A texel the host sampler filters (check_bounds.h): compared per lane within the interval the
  // texture unit model's footprint gives, carried to an export only through moves, max/min and
  // clamps (monotone in the texel), so running the interpreter on each end of every such fetch's
  // interval bounds the export. `why` holds the category it would otherwise not be compared for.
  bool bounded = false;
  // A bounded texel whose footprint follows the quad's derivatives (anisotropic): the host's
  // derivatives of a computed coordinate are not the model's (see State::Derivative).
  bool derivative_footprint = false;
  // A per_lane texel went through an op that is not monotone non-decreasing in it (arithmetic,
  // negation, |x|, a compare, a0, p0): on the lanes whose magnification the two sides may decide
  // differently it cannot be bounded either, only left out.
  bool nonmonotone = false;
  // per_lane, and on those lanes within the host filter's bound instead (check_bounds.h).
  bool lane_boundable() const { return per_lane && !nonmonotone && !approx && !opaque; }
  bool exact() const { return !opaque && approx == 0 && !bounded; }
};

struct ExportRules {
  // Export register number (ucode kExport*) -> its value's rule; all 64 numbers.
  std::array<Value, 64> exports{};
  // Kill outcome comparable?
  Value kill;
  // Instruction slots writing each export register, and the kill ops.
  std::array<std::vector<uint32_t>, 64> writers;
  std::vector<uint32_t> kill_slots;
};

// `texture_rule`: real textures, the rule of a texture fetch's result beyond its coordinates'
// (check_textures.h TextureFetchRule); empty: 1x1 textures, whose texel no coordinate changes.
// `quads`: pixels shaded in 2x2 quads (check_quads.h), so getGradients and getCompTexLOD are
// compared (lone points leave them out).
ExportRules AnalyzeExports(const ucode::Shader& shader, bool memexport,
                           const std::function<Value(const ucode::FetchInstruction&)>& texture_rule = {},
                           bool quads = false);

// Within the tolerance of `approx` (Approx bits): `gpu` against the interpreter's `cpu`.
bool WithinTolerance(float gpu, float cpu, uint32_t approx);
// "exact", "exp: 3+2|x| ulp", "within the host filter's bound", ...
std::string RuleName(const Value& v);
// Distance in representable floats (+0 and -0 one apart).
uint64_t UlpDistance(float a, float b);

}  // namespace xnt::vk::check
